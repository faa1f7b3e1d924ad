// A second `npm start` on the same DATA_DIR (PostgreSQL allows one server per data folder) says in one line
// that the service already runs there and where it answers, instead of PostgreSQL's lock error in a stack
// trace. Real processes on a real embedded PostgreSQL.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, runService } from '../harness/processes.ts';

const root = join(import.meta.dirname, '../..');
let dataDir: string;
let first: ReturnType<typeof runService>;
let port: number;
let pgPort: number;

/** Everything a process printed, when it printed exactly one line and no stack trace. */
function oneLine(output: string): string {
  expect(output).not.toMatch(/\n\s+at /);
  expect(output.trim().split('\n')).toHaveLength(1);
  return output.trim();
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'crm-second-start-'));
  // As root, PostgreSQL runs as its own system user, which must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  port = await freePort();
  pgPort = await freePort();
  first = runService('start', {
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  expect(await first.printed(/curl -H/), first.output()).not.toBeNull();
});

afterAll(async () => {
  if (first?.child.exitCode === null) {
    first.child.kill('SIGTERM');
    await first.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

it('a second start on the same DATA_DIR: one line saying where the service runs, exit 1', async () => {
  const second = runService('start', {
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
  });
  expect(await second.exited).toBe(1);
  const line = oneLine(second.output());
  expect(line).toContain(
    `The service already runs on DATA_DIR ${dataDir} (npm start, process ${first.child.pid}): http://127.0.0.1:${port}/api/v1.`,
  );
  expect(line).toContain('DATA_DIR=');
  // The first one is untouched.
  expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
}, 60_000);

it("another DATA_DIR on the first one's EMBEDDED_PG_PORT: one line naming the port, exit 1", async () => {
  const otherDir = mkdtempSync(join(tmpdir(), 'crm-second-start-other-'));
  chmodSync(otherDir, 0o755);
  try {
    const other = runService('start', {
      DATABASE_URL: '',
      DATA_DIR: otherDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
    });
    expect(await other.exited).toBe(1);
    expect(oneLine(other.output())).toBe(
      `Port ${pgPort} of the embedded PostgreSQL (EMBEDDED_PG_PORT) is in use: stop what runs there, or start with EMBEDDED_PG_PORT=<another port>.`,
    );
  } finally {
    rmSync(otherDir, { recursive: true, force: true });
  }
}, 60_000);

it('the service removes its record when it stops', async () => {
  expect(existsSync(join(dataDir, 'service.json'))).toBe(true);
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  expect(existsSync(join(dataDir, 'service.json'))).toBe(false);
}, 30_000);

it("started again, the banner's key create command works as printed, DATA_DIR and all", async () => {
  const again = runService('start', {
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
  });
  try {
    const printed = (await again.printed(/Create a key with: (.+)/))?.[1];
    expect(printed, again.output()).toContain(`DATA_DIR=${dataDir} npm run -s cli -- key create --company `);
    // Run from a shell that has neither DATA_DIR nor DATABASE_URL, as a person copying the line would.
    const { DATA_DIR: _dir, DATABASE_URL: _url, ...env } = process.env;
    const answer = JSON.parse(execFileSync('sh', ['-c', `${printed} --json`], { cwd: root, env, encoding: 'utf8' }));
    expect(answer.key).toMatch(/^svc_/);
  } finally {
    again.child.kill('SIGTERM');
    await again.exited;
  }
}, 90_000);
