// A benchmark's server in its own Node process (the service, or the bare twin), so that the load generator, which
// runs in the bench's process, does not share their event loop, and the server's RSS is its own. The child prints
// `READY` when it listens and stops on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../../test/harness/processes.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Child = { process: ChildProcess; port: number; output: () => string; stop: () => Promise<void> };

export async function startChild(file: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start in 60 s:\n${output}`)), 60_000);
    child.stdout?.on('data', (d: Buffer) => {
      if (String(d).includes('READY')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${code}) while starting:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return { process: child, port, output: () => output, stop };
}

/** VmRSS and VmHWM (peak) of a process in MiB, from /proc (Linux); null elsewhere. */
export function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
    return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
  } catch {
    return null;
  }
}
