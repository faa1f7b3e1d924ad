// Where a CLI run writes and what it reads: the process's streams and environment, or a test's (run.ts).
export type CliIo = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; env: NodeJS.ProcessEnv };

/** Writes and waits until it is handed on (to the OS for a process's streams), so exiting right after loses nothing. */
export const write = (stream: NodeJS.WritableStream, text: string) =>
  new Promise<void>((resolve) => stream.write(text, () => resolve()));
