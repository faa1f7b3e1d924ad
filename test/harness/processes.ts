// Child processes of the tests: the service's entry point, or a process that serves HTTP on 127.0.0.1;
// stopped by their own PID.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { within } from './async.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type Started = { url: string; stop: () => Promise<void>; output: () => string };

/**
 * Time limits that follow the work, not a fixed clock: a process start that has not answered after this long hangs
 * (Prism takes seconds on a quiet machine and over a minute on a loaded one, which a 60 s limit turned red).
 */
export const PROCESS_START_HANG_MS = 10 * 60_000;
/** What one request may take on a loaded machine: a test sending `n` requests gets `n` times this (`forRequests`). */
export const PER_REQUEST_MS = 5_000;
export const forRequests = (n: number) => Math.max(n * PER_REQUEST_MS, 30_000);

/**
 * Runs `command args`, waits until `url + readyPath` answers (or the process exits, which fails at once), and
 * returns a handle to stop it. No clock of its own by default: the caller's hook limit (PROCESS_START_HANG_MS)
 * says when a start hangs.
 */
export async function startHttpProcess(
  command: string,
  args: string[],
  url: string,
  readyPath = '/',
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<Started> {
  let log = '';
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  child.stdout?.on('data', (d) => {
    log += d;
  });
  child.stderr?.on('data', (d) => {
    log += d;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.kill('SIGTERM');
    if ((await within(exited, 5000, 'late')) === 'late') child.kill('SIGKILL');
    // Its output pipes close just after its exit: waited for here rather than by the file's leak check (a
    // grandchild holding them open is not waited for long).
    await within(closed, 2000, undefined);
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} exited early:\n${log}`);
    try {
      await fetch(url + readyPath);
      return { url, stop, output: () => log };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await stop();
  throw new Error(`${command} did not start within ${timeoutMs} ms:\n${log}`);
}

/**
 * The service as `npm start` / `npm run api|worker` runs it: one node process with tsx as its loader. (Not the
 * `tsx` command: it runs the program in a child and, when that child does not confirm a SIGINT or SIGTERM within
 * 60 ms — its event loop busy — kills it with SIGKILL and exits 130, skipping the graceful shutdown.)
 */
export const SERVICE_COMMAND = [process.execPath, '--import', 'tsx', 'src/main.ts'] as const;

/**
 * The service's `command` with `env` added to this process's environment: the child, everything it has
 * printed so far (stdout and stderr), and its exit code when it exits. `ownProcessGroup`: a process group of its
 * own, as a shell runs a foreground job (signal the group, `process.kill(-pid, …)`, as a terminal's Ctrl-C does).
 */
export function runService(
  command: 'api' | 'worker' | 'start',
  env: Record<string, string>,
  { ownProcessGroup = false } = {},
) {
  const [node, ...args] = SERVICE_COMMAND;
  const child = spawn(node, [...args, command], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownProcessGroup,
  });
  let log = '';
  child.stdout.on('data', (d) => {
    log += d;
  });
  child.stderr.on('data', (d) => {
    log += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /**
   * Resolves with the first match of `pattern` in the output once it is printed, or with null when the process
   * exits first. No clock of its own: a loaded machine makes a start slow, and the test's limit says when it hangs.
   */
  async function printed(pattern: RegExp): Promise<RegExpExecArray | null> {
    let ended = false;
    void exited.then(() => {
      ended = true;
    });
    for (;;) {
      const match = pattern.exec(log);
      if (match || ended) return match;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, output: () => log, exited, printed };
}

/**
 * The time limit of a test that runs the operator CLI more than once: one CLI start takes up to ~12 s on a loaded
 * 2-core machine (it loads the service), so two or three starts pass the default 30 s there.
 */
export const CLI_TEST_MS = 90_000;
