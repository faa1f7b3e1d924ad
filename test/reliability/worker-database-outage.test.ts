// A worker process (`npm run worker`) whose database goes away and comes back, as in a PostgreSQL restart
// (scripts/drills/db-restart.ts): it reaches the database through a TCP proxy on 127.0.0.1 that stops listening
// (new connections are refused: ECONNREFUSED) while the sessions are terminated (FATAL 57P01, as a fast shutdown
// does) and their sockets cut. The process must stay alive through the outage — no unhandled rejection or error
// event may end it — and deliver the webhooks queued before and during the outage once the database is back.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { until } from '../harness/async.ts';
import { freshDatabase } from '../harness/db.ts';
import { freePort, runService } from '../harness/processes.ts';
import { forwardTo } from '../harness/relay.ts';
import { companyWithEndpoint } from '../harness/webhook-company.ts';

const TEST_APP = 'worker-outage-test';
let database: Awaited<ReturnType<typeof freshDatabase>>;
let sql: postgres.Sql;
let db: Db;
let worker: ReturnType<typeof runService> | undefined;
let companyId: string;
let burst: (n: number) => Promise<string[]>;

const receiver = createHttpServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});

/** The worker's way to the database: stopped, it refuses new connections and cuts the open ones. */
function databaseProxy(target: URL, port: number) {
  const sockets = new Set<Socket>();
  const server = createServer(forwardTo(target, sockets));
  return {
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve())),
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A fast shutdown: every session of the worker is told so (57P01), then its socket is gone.
        void sql`
          select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and application_name <> ${TEST_APP}`
          .catch(() => {})
          .finally(() => {
            for (const socket of sockets) socket.destroy();
          });
      });
    },
  };
}

let proxy: ReturnType<typeof databaseProxy>;

beforeAll(async () => {
  database = await freshDatabase();
  sql = postgres(database.url, { max: 2, onnotice: () => {}, connection: { application_name: TEST_APP } });
  db = drizzle(sql);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  ({ companyId, burst } = await companyWithEndpoint(db, port, {
    company: 'Storing BV',
    customer: 'Storing Klant',
    email: 'storing@example.nl',
  }));
  const target = new URL(database.url);
  const proxyPort = await freePort();
  proxy = databaseProxy(target, proxyPort);
  await proxy.up();
  const viaProxy = new URL(database.url);
  viaProxy.host = `127.0.0.1:${proxyPort}`;
  worker = runService('worker', {
    DATABASE_URL: viaProxy.toString(),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'warn',
  });
  await until(async () => (await livePools()) === 1, 'the worker holds its liveness lock', 60_000);
});

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.pid !== undefined) {
    process.kill(worker.child.pid, 'SIGTERM');
    await worker.exited;
  }
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await sql?.end();
  await database?.drop();
});

async function livePools(): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and application_name like 'crm-worker-liveness %'`;
  return n;
}

async function succeeded(eventIds: string[]): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`
    select count(*)::int as n from webhook_deliveries
    where company_id = ${companyId} and event_id = any(${eventIds}::text[]) and status = 'succeeded'`;
  return n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = () => worker?.child.exitCode === null && worker.child.signalCode === null;

it('the worker lives through database outages and delivers what was queued once the database is back', async () => {
  const events: string[] = [];
  // Outages at different moments: while idle, in the middle of a burst, and just after one was queued.
  for (const [before, downMs] of [
    [0, 3_000],
    [200, 6_000],
    [20, 4_000],
  ] as const) {
    events.push(...(await burst(60)));
    await sleep(before);
    await proxy.down();
    events.push(...(await burst(20)));
    await sleep(downMs);
    expect(alive(), `the worker exited during the outage:\n${worker?.output()}`).toBe(true);
    await proxy.up();
    // Jobs whose completion or failure could not be recorded while the database was down stay locked by the live
    // pool until lost-fetches.ts unlocks them: up to 55 s by its constants (15 s locked, a check every 10 s, 30 s
    // of grace after a job ends), more on a loaded machine. A lock left for Graphile Worker's 4 hours still fails.
    await until(async () => (await succeeded(events)) === events.length, 'every delivery succeeded', 150_000).catch(
      async (error: unknown) => {
        const jobs = await sql`
          select task_identifier, attempts, run_at, locked_by, left(last_error, 120) as last_error
          from graphile_worker.jobs order by id limit 20`;
        const deliveries = await sql`
          select status, count(*)::int as n from webhook_deliveries where company_id = ${companyId} group by status`;
        throw new Error(
          `${String(error)}: ${await succeeded(events)} of ${events.length}\njobs ${JSON.stringify(jobs)}\ndeliveries ${JSON.stringify(deliveries)}\n${worker?.output()}`,
        );
      },
    );
    expect(alive(), `the worker exited:\n${worker?.output()}`).toBe(true);
  }
  expect(worker?.output()).not.toMatch(/unhandled|uncaught|nobody awaited/i);
}, 540_000);
