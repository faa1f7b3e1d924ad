// What the harness opened for the current test file (apps, databases, servers), closed when the file ends by
// harness/leak-check.ts before it checks that nothing is left. Not vitest's afterAll: an afterAll registered
// while a beforeAll runs (`beforeAll(async () => { api = await setupApi(); })`, the common form) never runs.
const closers: Array<() => Promise<void> | void> = [];

/** Runs `close` when the current test file ends (the last registered first). */
export function atFileEnd(close: () => Promise<void> | void): void {
  closers.push(close);
}

/** Closes everything registered, last first; every closer runs even when one fails (the first error is thrown). */
export async function closeFileResources(): Promise<void> {
  let failure: unknown;
  for (let close = closers.pop(); close; close = closers.pop()) {
    try {
      await close();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure) throw failure;
}

/** Closes `server` when the current test file ends: its open connections (keep-alive ones too), then itself. */
export function closeServerAtFileEnd(server: import('node:http').Server): void {
  atFileEnd(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
}
