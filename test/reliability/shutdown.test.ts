// `npm run api` (and start/worker) stop gracefully on SIGTERM: a request in flight is answered, then the
// process exits 0 with its pools closed. Runs the real entry point as a child process. Ctrl-C on `npm start` with
// its embedded PostgreSQL (the whole process group signalled, exit 0, no error) is ctrl-c.test.ts's, with work
// under way when the signal comes.
import { type AddressInfo, createServer } from 'node:net';
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
  const { child, output, exited, printed } = runService('api', {
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  });
  const base = `http://127.0.0.1:${port}`;
  // On a busy 2-core machine the service's start (tsx, migrations check) has taken over 40 s.
  expect(await printed(/API:/), output()).not.toBeNull();

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
