// Fault drill: the database ends the service's connections (a restart, a failover, pg_terminate_backend) while
// they are busy. Loops run the webhook worker's pipelined tenant transactions (src/db/tenant-statement.ts, on
// reserved connections) and plain pooled queries; every `--every-ms` one of the pool's backends is terminated.
// Every operation must settle (succeed or fail with a connection error) within `--deadline-ms`, nothing may
// escape as an uncaught exception or unhandled rejection, and the pool must work again afterwards. postgres.js
// 3.4.9 failed all three (see patches/postgres+3.4.9.patch); the drill exits 1 when one of them fails.
//
//   npm run drill:connection-loss [-- --seconds 10 --every-ms 150 --loops 30]
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createDb } from '../../src/db/client.ts';
import { tenantStatement } from '../../src/db/tenant-statement.ts';
import { benchDatabase } from '../bench/database.ts';
import { boundedRun } from '../lib/bounded-run.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    'every-ms': { type: 'string', default: '150' },
    loops: { type: 'string', default: '30' },
    // Longer than postgres.js's longest wait before connecting again (its backoff grows with the connection errors
    // of the pool, up to 20 s): terminations every 150 ms make it grow, and a query then waits, not hangs.
    'deadline-ms': { type: 'string', default: '30000' },
  },
});
const seconds = Number(args.seconds);
const everyMs = Number(args['every-ms']);
const deadlineMs = Number(args['deadline-ms']);
const log = (line: string) => console.error(`[drill] ${line}`);

const escaped: string[] = [];
process.on('uncaughtException', (error) => escaped.push(`uncaught: ${String(error)}`));
process.on('unhandledRejection', (error) => escaped.push(`unhandled rejection: ${String(error)}`));

// Bounded: the loops, the recovery's tries and a margin for the start and the cleanup.
const run = boundedRun((seconds + 60) * 1000 + 12 * deadlineMs, log);
const { cleanups } = run;
const company = '00000000-0000-4000-8000-000000000001';
const counts = { ok: 0, failed: 0, unsettled: 0, terminated: 0 };
const failures = new Map<string, number>();

/** 'unsettled' when `work` neither succeeded nor failed within the deadline. */
function settle(work: Promise<unknown>): Promise<'ok' | 'failed' | 'unsettled'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('unsettled'), deadlineMs);
    work.then(
      () => {
        clearTimeout(timer);
        resolve('ok');
      },
      (error: { code?: string }) => {
        clearTimeout(timer);
        failures.set(error.code ?? String(error), (failures.get(error.code ?? String(error)) ?? 0) + 1);
        resolve('failed');
      },
    );
  });
}

try {
  const { url } = await benchDatabase('drill', cleanups, log);
  const { db, sql } = createDb(url, 6);
  cleanups.push({ name: 'service pool', run: () => sql.end({ timeout: 1 }) });
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  cleanups.push({ name: 'drill pool', run: () => admin.end({ timeout: 1 }) });

  const until = Date.now() + seconds * 1000;
  const loop = async (pipelined: boolean) => {
    while (Date.now() < until) {
      const work = pipelined
        ? tenantStatement(db, company, (tx) => tx`select pg_backend_pid(), pg_sleep(${0.002})`)
        : sql`select pg_backend_pid(), pg_sleep(0.002)`;
      const outcome = await settle(work);
      if (outcome === 'unsettled') {
        counts.unsettled++;
        return; // this loop's connection is stuck: the drill has failed already
      }
      counts[outcome]++;
    }
  };
  const terminating = async () => {
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, everyMs));
      const ended = await admin`select pg_terminate_backend(pid) as ended from pg_stat_activity
        where datname = current_database() and application_name = 'crm-service' order by random() limit 1`;
      if (ended[0]?.ended) counts.terminated++;
    }
  };
  log(`${args.loops} loops for ${seconds} s, a backend terminated every ${everyMs} ms`);
  await Promise.all([...Array.from({ length: Number(args.loops) }, (_, i) => loop(i % 2 === 0)), terminating()]);
  // Recovered: once the terminations stop, both kinds of work succeed again. Connections killed in the last
  // moments may still fail a query or two first, so a few tries are allowed.
  const recoveredAt = async (work: () => Promise<unknown>) => {
    for (let tries = 0; tries < 5; tries++) if ((await settle(work())) === 'ok') return true;
    return false;
  };
  const recovered =
    (await recoveredAt(() => tenantStatement(db, company, (tx) => tx`select ${1}`))) &&
    (await recoveredAt(() => sql`select 1`));
  console.log(JSON.stringify({ ...counts, failures: Object.fromEntries(failures), recovered, escaped }, null, 2));
  process.exitCode = counts.unsettled === 0 && escaped.length === 0 && recovered ? 0 : 1;
} finally {
  await run.finish();
}
