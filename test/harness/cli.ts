// The operator CLI in tests: in this process (runCli with captured streams: the service's modules are loaded once
// per worker, not once per command, which cost 2–5 s of CPU per run), or as its own process for what only a
// process shows (its exit code and exactly what reaches stdout).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { runCli } from '../../src/cli/run.ts';

export type CliRun = { code: number; stdout: string; stderr: string };

const ROOT = resolve(import.meta.dirname, '../..');

/** Text written to it, kept. */
class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.text += chunk.toString();
    done();
  }
}

/** `npm run cli -- ...args` run here, with `env` over this process's environment. */
export async function cliInProcess(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliRun> {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await runCli(args, { stdout, stderr, env: { ...process.env, ...env } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** `npm run cli -- ...args` as a process of its own (node with tsx's loader, as `npm run cli` runs it). */
export function cliProcess(env: NodeJS.ProcessEnv, timeoutMs: number, ...args: string[]): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: ROOT, timeout: timeoutMs, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}
