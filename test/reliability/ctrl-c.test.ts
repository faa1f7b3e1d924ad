// Ctrl-C in the terminal of a first `npm start` (embedded PostgreSQL) while webhook deliveries are queued: the
// terminal sends SIGINT to the whole foreground process group, so the test starts the service as a process group
// of its own and signals the group. A graceful stop prints no error: no error-level log line, none of Graphile
// Worker's "Error occurred during graceful shutdown", none of PostgreSQL's "terminating connection due to
// administrator command" (the embedded server is stopped by the service, after the worker, not by the signal).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { until } from '../harness/async.ts';
import { freePort, runService } from '../harness/processes.ts';

let dataDir: string | undefined;
let receiver: Server | undefined;
let group: number | undefined;

afterAll(async () => {
  if (group !== undefined) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // ended already
    }
  }
  receiver?.closeAllConnections();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

it('Ctrl-C with webhook deliveries queued stops without an error line, exit 0', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'crm-ctrl-c-'));
  chmodSync(dataDir, 0o755);
  // A receiver that fails every delivery: attempts are retried, jobs stay queued and running.
  let attempts = 0;
  receiver = createServer((req, res) => {
    attempts += 1;
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(500).end(), 200));
  });
  await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const port = await freePort();
  const {
    child,
    output: printed,
    exited,
    printed: printedMatch,
  } = runService(
    'start',
    {
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
      REDIS_URL: '',
    },
    { ownProcessGroup: true },
  );
  group = child.pid;
  const key = (await printedMatch(/^\s+(svc_\w+)$/m))?.[1];
  expect(key, printed()).toBeDefined();

  const api = `http://127.0.0.1:${port}/api/v1`;
  const post = (path: string, body: unknown) =>
    fetch(`${api}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: JSON.stringify(body),
    });
  expect((await post('/webhook-endpoints', { url: hook, events: ['*'] })).status).toBe(201);
  const items = Array.from({ length: 50 }, (_, i) => ({ email: `ctrl-c-${i}@example.nl`, name: `Klant ${i}` }));
  expect((await post('/customers/batch', { items })).status).toBe(200);
  // Deliveries under way (the receiver holds each attempt 200 ms; more are queued) when the signal comes: waited
  // for, not a fixed 1.5 s (that was idle time on a quiet machine and no guarantee on a loaded one).
  await until(() => attempts > 0, 'the first delivery attempt reaches the receiver');

  const before = printed().length;
  process.kill(-(child.pid as number), 'SIGINT');
  expect(await exited).toBe(0);
  group = undefined;
  const stop = printed().slice(before);
  const lines = stop.split('\n').filter(Boolean);
  const jsonLevels = lines.flatMap((line) => {
    try {
      const level = (JSON.parse(line) as { level?: number }).level;
      return typeof level === 'number' ? [level] : [];
    } catch {
      return [];
    }
  });
  expect(
    jsonLevels.filter((level) => level >= 50),
    stop,
  ).toEqual([]);
  expect(stop).not.toMatch(/Error occurred during graceful shutdown/);
  expect(stop).not.toMatch(/terminating connection due to administrator command/);
  expect(stop).not.toMatch(/\[worker[^\]]*\]/);
  expect(stop).not.toMatch(/shutdown: .* failed|a connection ended early/);
  expect(stop).not.toContain("Unhandled 'error' event");
  expect(stop).toContain('shutting down');
}, 180_000);
