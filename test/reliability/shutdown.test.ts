// `npm run api` (and start/worker) stop gracefully on SIGTERM: a request in flight is answered, then the
// process exits 0 with its pools closed. Runs the real entry point as a child process.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../harness/db.ts';
import { freePort, runService } from '../harness/processes.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

it('answers the request in flight, then exits 0 on SIGTERM', async () => {
  const port = await freePort();
  const { child, output, exited } = runService('api', {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  });
  const base = `http://127.0.0.1:${port}`;
  // Up to 40 s: on a busy 2-core machine the service's start (tsx, migrations check) has taken over 10 s.
  for (let i = 0; i < 400 && !output().includes('API:'); i++) await new Promise((r) => setTimeout(r, 100));
  expect(output()).toContain('API:');

  // The docs page is the largest answer the service has (megabytes): stop the process while it streams.
  const response = await fetch(`${base}/docs/en`);
  expect(response.status).toBe(200);
  child.kill('SIGTERM');
  expect((await response.text()).length).toBeGreaterThan(1_000_000);
  expect(await exited).toBe(0);
  expect(output()).toContain('shutting down');
  await expect(fetch(`${base}/api/v1/openapi.json`)).rejects.toThrow();
}, 90_000);

it('a port in use: one line, exit 1, no addresses printed as if it listened', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  try {
    const { output, exited } = runService('api', {
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    expect(await exited).toBe(1);
    expect(output()).toContain(`Port ${port} on 127.0.0.1 is in use`);
    expect(output()).not.toContain('API:');
    expect(output()).not.toMatch(/\n\s+at /); // no stack trace
  } finally {
    taken.close();
  }
}, 60_000);

it('npm start on the embedded database stops on Ctrl-C, which does not reach its PostgreSQL', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-start-'));
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  // A process group of its own, signalled as a whole, as a terminal's Ctrl-C does. The embedded PostgreSQL runs in
  // a group of its own (src/db/embedded.ts), so the service's shutdown stops it last; before, it began its own fast
  // shutdown while the service was stopping (test/reliability/ctrl-c.test.ts: no error lines).
  const {
    child,
    output: printed,
    exited,
  } = runService(
    'start',
    { DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
    { ownProcessGroup: true },
  );
  try {
    for (let i = 0; i < 600 && !printed().includes('curl -H'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(printed()).toContain('curl -H');
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/me`)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 2_000));
    process.kill(-(child.pid as number), 'SIGINT');
    // It stops by itself, through its shutdown (not by an error event nobody listened to).
    expect(await exited).toBe(0);
    expect(printed()).toContain('shutting down');
    expect(printed()).not.toContain("Unhandled 'error' event");
  } finally {
    if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
