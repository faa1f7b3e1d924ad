// The service as a newcomer runs it: `npm start` (migrations, API, worker and the demo company with its printed
// key) as a child process on a free port, on a fresh database of the test run, with the local-development
// switch for webhooks to 127.0.0.1. Stopped by its PID; the database is dropped afterwards.
import { spawn } from 'node:child_process';
import { freshDatabase } from '../harness/db.ts';
import { freePort, runService } from '../harness/processes.ts';

export type RunningService = {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** origin + /api/v1 */
  api: string;
  /** The demo company's full-access key, as `npm start` printed it. */
  key: string;
  output: () => string;
  stop: () => Promise<void>;
};

const START_TIMEOUT_MS = 60_000;

export async function startService(env: Record<string, string> = {}): Promise<RunningService> {
  const database = await freshDatabase();
  const port = await freePort();
  const { child, output, exited } = runService('start', {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    REDIS_URL: '',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const timer = setTimeout(
        () => child.pid !== undefined && child.exitCode === null && child.kill('SIGKILL'),
        20_000,
      );
      await exited;
      clearTimeout(timer);
    }
    await database.drop();
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  let key: string | undefined;
  while (!key) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not print its demo key:\n${output()}`);
    }
    key = output().match(/^\s+(svc_[0-9A-Za-z]+)$/m)?.[1];
    if (!key) await new Promise((r) => setTimeout(r, 100));
  }
  const origin = `http://127.0.0.1:${port}`;
  return { origin, api: `${origin}/api/v1`, key, output, stop };
}

export type ChildLines = {
  lines: () => string[];
  /** SIGTERM to its PID (SIGKILL after 5 s); resolves when it has exited. */
  stop: () => Promise<void>;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  pid: number;
};

/** A Node child process (an example, the CLI) whose output lines are collected; stopped by its PID. */
export function runNode(args: string[], env: Record<string, string>): ChildLines {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d) => {
    text += d;
  });
  child.stderr.on('data', (d) => {
    text += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    pid: child.pid as number,
    exited,
    lines: () => text.split('\n').filter(Boolean),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid as number, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
