// Two worker processes (`npm run worker`, children signalled only by their PID) on one database deliver one
// company's webhooks to a receiver on 127.0.0.1: each (event, endpoint) pair is sent once — no attempt made by
// both workers — and when the worker holding a burst is killed with SIGKILL, the other one delivers it. The
// surviving worker's liveness sweep (every 30 s, for locks older than 60 s: src/jobs/liveness.ts) is run here at
// once, with a one-second age, so that the test does not wait a minute and a half for it.
import { createServer, type ServerResponse } from 'node:http';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { until } from '../harness/async.ts';
import { freshDatabase } from '../harness/db.ts';
import { runService } from '../harness/processes.ts';
import { companyWithEndpoint } from '../harness/webhook-company.ts';

type Worker = ReturnType<typeof runService>;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let sql: postgres.Sql;
let db: Db;
const workers: Worker[] = [];
let companyId: string;
let burst: (n: number) => Promise<string[]>;

/** webhook-id → arrivals; while `holding`, requests are kept unanswered (the worker's attempt is in flight). */
const arrivals = new Map<string, number>();
let holding = false;
const held: ServerResponse[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
    if (holding) held.push(res);
    else res.writeHead(204).end();
  });
});

function startWorker(): Worker {
  const worker = runService('worker', {
    DATABASE_URL: database.url,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'warn',
  });
  workers.push(worker);
  return worker;
}

/** Pools holding a liveness lock (one per live worker process). */
async function livePools(): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and application_name like 'crm-worker-liveness %'`;
  return n;
}

beforeAll(async () => {
  database = await freshDatabase();
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  db = drizzle(sql);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  ({ companyId, burst } = await companyWithEndpoint(db, port, {
    company: 'Twee Werkers BV',
    customer: 'Werk Klant',
    email: 'werk@example.nl',
  }));
  startWorker();
  startWorker();
  await until(async () => (await livePools()) === 2, 'both workers hold their liveness locks', 60_000);
});

afterAll(async () => {
  for (const response of held.splice(0)) response.destroy();
  for (const { child, exited } of workers) {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      await exited;
    }
  }
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await sql?.end();
  await database?.drop();
});

async function deliveryStates(eventIds: string[]) {
  return sql<{ status: string; attempts: number; attempt_rows: number; webhook_id: string }[]>`
    select d.status, d.attempt_count as attempts, d.event_id as webhook_id,
      (select count(*)::int from webhook_attempts a where a.company_id = d.company_id and a.delivery_id = d.id)
        as attempt_rows
    from webhook_deliveries d where d.company_id = ${companyId} and d.event_id = any(${eventIds}::text[])`;
}

it('two workers send each delivery once: no attempt is made by both', async () => {
  const events = await burst(300);
  await until(
    async () => (await deliveryStates(events)).filter((d) => d.status === 'succeeded').length === events.length,
    'every delivery succeeded',
    20_000,
  );
  const deliveries = await deliveryStates(events);
  expect(deliveries).toHaveLength(300);
  // Each webhook-id (the event's id, stable across attempts) arrived exactly once, with one recorded attempt.
  expect(deliveries.map((d) => arrivals.get(d.webhook_id) ?? 0).filter((n) => n !== 1)).toEqual([]);
  expect(deliveries.filter((d) => d.attempts !== 1 || d.attempt_rows !== 1)).toEqual([]);
});

it('killing the worker that holds a burst moves its work to the other', async () => {
  // Only the first worker takes the burst: the second is paused (SIGSTOP) until the first holds it.
  const [first, second] = workers;
  if (!first?.child.pid || !second?.child.pid) throw new Error('no workers');
  process.kill(second.child.pid, 'SIGSTOP');
  holding = true;
  const events = await burst(40);
  // The first worker is sending (its attempts are held by the receiver) and holds the burst's jobs.
  await until(() => held.length > 0, 'the first worker is sending', 20_000);
  const [{ locked }] = await sql<{ locked: number }[]>`
    select count(*)::int as locked from graphile_worker._private_jobs where locked_by is not null`;
  expect(locked).toBeGreaterThan(0);
  process.kill(second.child.pid, 'SIGCONT');

  process.kill(first.child.pid, 'SIGKILL');
  await first.exited;
  holding = false;
  for (const response of held.splice(0)) response.destroy();
  // The sweep of the surviving worker, at once: the dead pool's jobs are unlocked.
  await new Promise((r) => setTimeout(r, 1100));
  const [{ dead }] = await sql<{ dead: string[] }[]>`select app_unlock_dead_workers(make_interval(secs => 1)) as dead`;
  expect(dead).toHaveLength(1);

  await until(
    async () => (await deliveryStates(events)).filter((d) => d.status === 'succeeded').length === events.length,
    'the other worker delivered the burst',
    20_000,
  );
  const deliveries = await deliveryStates(events);
  expect(deliveries).toHaveLength(40);
  // At least once, with the same webhook-id: an attempt cut off by the kill is sent again by the other worker.
  expect(deliveries.filter((d) => (arrivals.get(d.webhook_id) ?? 0) < 1)).toEqual([]);
  expect(second.child.exitCode).toBeNull();
});
