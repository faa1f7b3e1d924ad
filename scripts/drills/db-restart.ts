// Fault drill 2 (issue 29): PostgreSQL restarted under mixed load. A private embedded PostgreSQL of this drill
// (never the machine's own server), an API process and a worker process (children, stopped by their PID), and
// `--lanes` clients that create customers, read them back and list them, each request with a client timeout.
// The database is stopped twice, once with a fast and once with an immediate shutdown (pg_ctl stop -m: SIGINT,
// SIGQUIT to its postmaster), kept down `--down-seconds`, and started again.
// Verdicts: while it is down every answer is a 503 problem with Retry-After (no other 5xx, no connection
// refused); neither process exits; after each start the first 2xx comes within 5 s; every creation answered 201
// is in the database afterwards; no request waits past the client timeout.
//
//   npm run drill:db-restart [-- --lanes 8 --down-seconds 5 --steady-seconds 10 --timeout-ms 10000]
//   [--promise-origins <file>: the worker logs each unhandled rejection with where its promise was made
//   (promise-origins.mjs; costly, so not in the API, whose start the drill awaits)]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setRateLimits } from '../../src/services/companies.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import {
  drillTenant,
  type Outcome,
  percentile,
  privatePostgres,
  request,
  round,
  sleep,
  startService,
  verdict,
} from './kit.ts';

const { values: args } = parseArgs({
  options: {
    lanes: { type: 'string', default: '8' },
    'down-seconds': { type: 'string', default: '5' },
    'steady-seconds': { type: 'string', default: '10' },
    'timeout-ms': { type: 'string', default: '10000' },
    'promise-origins': { type: 'string' },
  },
});
const LANES = Number(args.lanes);
const DOWN_MS = Number(args['down-seconds']) * 1000;
const STEADY_MS = Number(args['steady-seconds']) * 1000;
const TIMEOUT_MS = Number(args['timeout-ms']);
const BACK_WITHIN_MS = 5000;
const begun = Date.now();
const log = (line: string) => console.error(`[drill +${((Date.now() - begun) / 1000).toFixed(1)} s] ${line}`);

const run = boundedRun(5 * 60_000 + 3 * STEADY_MS + 2 * DOWN_MS, log);
let code = 1;
try {
  const pg = await privatePostgres(run.cleanups, log);
  const tenant = await drillTenant(pg.url, run.cleanups, ['customers.read', 'customers.write']);
  // The drill measures availability, not the key's limit (600 a minute by default).
  await setRateLimits(tenant.db, tenant.companyId, { perMinute: 1_000_000, perHour: 1_000_000 });
  const origins = args['promise-origins'];
  const env = { DATABASE_URL: pg.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  const api = await startService('api', env, run.cleanups);
  const worker = await startService(
    'worker',
    origins
      ? {
          ...env,
          NODE_OPTIONS: `--import ${resolve('scripts/drills/promise-origins.mjs')}`,
          PROMISE_ORIGINS_LOG: resolve(origins),
        }
      : env,
    run.cleanups,
  );
  log(`API ${api.pid} on ${api.port}, worker ${worker.pid}`);

  type Phase = 'up' | 'stopping' | 'down' | 'starting' | 'back';
  let phase: Phase = 'up';
  const outcomes: Array<Outcome & { phase: Phase; at: number; kind: string }> = [];
  const created: string[] = [];
  let stopping = false;

  const lane = async (n: number) => {
    for (let i = 0; !stopping; i++) {
      const at = Date.now();
      const current = phase;
      const pick = created.length === 0 ? 0 : i % 3;
      let outcome: Outcome;
      let kind: string;
      if (pick === 0) {
        kind = 'create';
        outcome = await request(`${api.base}/customers`, {
          key: tenant.key,
          method: 'POST',
          timeoutMs: TIMEOUT_MS,
          headers: { 'Idempotency-Key': `db-restart-${n}-${i}` },
          body: JSON.stringify({ name: `Klant ${n}-${i}`, email: `klant-${n}-${i}@drill.example.nl` }),
        });
        if (outcome.status === 201 && outcome.id) created.push(outcome.id);
      } else if (pick === 1) {
        kind = 'read';
        const id = created[Math.floor(Math.random() * created.length)];
        outcome = await request(`${api.base}/customers/${id}`, { key: tenant.key, timeoutMs: TIMEOUT_MS });
      } else {
        kind = 'list';
        outcome = await request(`${api.base}/customers?limit=25`, { key: tenant.key, timeoutMs: TIMEOUT_MS });
      }
      outcomes.push({ ...outcome, phase: current === phase ? current : 'starting', at, kind });
      // A client that honours Retry-After would wait; the drill keeps asking (at most every 100 ms) to see when
      // the service is back.
      if (outcome.status === 503 || outcome.status === 0) await sleep(100);
    }
  };
  const lanes = Array.from({ length: LANES }, (_, n) => lane(n));

  const restarts: Array<{ mode: string; downMs: number; startMs: number; backAfterMs: number | null }> = [];
  await sleep(STEADY_MS);
  for (const mode of ['fast', 'immediate'] as const) {
    if (run.interrupted) break;
    const stopAt = Date.now();
    phase = 'stopping';
    await pg.stop(mode);
    phase = 'down';
    log(`PostgreSQL stopped (${mode}) in ${Date.now() - stopAt} ms`);
    await sleep(DOWN_MS);
    phase = 'starting';
    const startAt = Date.now();
    await pg.start();
    const upAt = Date.now();
    phase = 'back';
    log(`PostgreSQL started in ${upAt - startAt} ms`);
    // The first request sent after the database was up that got a 2xx.
    let backAfterMs: number | null = null;
    for (const until = upAt + BACK_WITHIN_MS * 3; Date.now() < until && backAfterMs === null; await sleep(50)) {
      const first = outcomes.find((o) => o.at >= upAt && o.status >= 200 && o.status < 300);
      if (first) backAfterMs = Math.round(first.at + first.ms - upAt);
    }
    restarts.push({ mode, downMs: startAt - stopAt, startMs: upAt - startAt, backAfterMs });
    log(`${mode}: first 2xx ${backAfterMs === null ? 'never' : `${backAfterMs} ms`} after the database was up`);
    await sleep(STEADY_MS);
    phase = 'up';
  }
  stopping = true;
  await Promise.all(lanes);

  // Every creation answered 201 is there.
  const found = await tenant.sql<{ n: number }[]>`
    select count(*)::int as n from customers where company_id = ${tenant.companyId} and id::text = any(${created}::text[])`;
  const lost = created.length - (found[0]?.n ?? 0);

  const byPhase = (p: Phase) => outcomes.filter((o) => o.phase === p);
  const statusCounts = (list: Outcome[]) =>
    Object.fromEntries(
      [...new Set(list.map((o) => (o.status === 0 ? `no answer (${o.error})` : String(o.status))))].map((s) => [
        s,
        list.filter((o) => (o.status === 0 ? `no answer (${o.error})` : String(o.status)) === s).length,
      ]),
    );
  const down = byPhase('down');
  const unavailable = outcomes.filter((o) => o.status === 503);
  const withoutRetryAfter = unavailable.filter((o) => !o.retryAfter);
  const other5xx = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
  const timeouts = outcomes.filter((o) => o.error === 'timeout');
  const refused = outcomes.filter((o) => o.status === 0 && o.error !== 'timeout');
  const crashed = [api, worker].filter((p) => !p.alive()).map((p) => p.pid);
  const summary = {
    lanes: LANES,
    requests: outcomes.length,
    created: created.length,
    lost,
    statuses: Object.fromEntries(
      (['up', 'stopping', 'down', 'starting', 'back'] as const).map((p) => [p, statusCounts(byPhase(p))]),
    ),
    p99MsUp: round(
      percentile(
        byPhase('up').map((o) => o.ms),
        99,
      ),
    ),
    p99MsDown: round(
      percentile(
        down.map((o) => o.ms),
        99,
      ),
    ),
    maxMsDown: round(Math.max(0, ...down.map((o) => o.ms))),
    unavailable503: unavailable.length,
    unavailableWithoutRetryAfter: withoutRetryAfter.length,
    other5xx: other5xx.length,
    clientTimeouts: timeouts.length,
    connectionErrors: refused.length,
    restarts,
    processesExited: crashed,
  };
  console.log(JSON.stringify(summary, null, 2));
  for (const o of timeouts) log(`timeout: ${o.kind} sent at +${((o.at - begun) / 1000).toFixed(1)} s (${o.phase})`);
  if (origins) writeFileSync(`${resolve(origins)}.worker-output`, worker.output());
  for (const p of [api, worker])
    if (!p.alive())
      log(`process ${p.pid} exited (${JSON.stringify(await p.exited)}); its last output:\n${p.output().slice(-3000)}`);

  const failures: string[] = [];
  if (down.length === 0 || !down.some((o) => o.status === 503))
    failures.push('no 503 seen while the database was down');
  if (withoutRetryAfter.length) failures.push(`${withoutRetryAfter.length} 503 without Retry-After`);
  if (other5xx.length) failures.push(`${other5xx.length} other 5xx (${JSON.stringify(statusCounts(other5xx))})`);
  if (timeouts.length) failures.push(`${timeouts.length} requests unanswered after ${TIMEOUT_MS} ms`);
  if (refused.length) failures.push(`${refused.length} connection errors`);
  if (crashed.length) failures.push(`process(es) ${crashed.join(', ')} exited`);
  // The worker's net for rejections nobody awaited (unawaited-database-failures.ts) logs them: each is a defect.
  const unawaited = worker.output().match(/nobody awaited/g)?.length ?? 0;
  if (unawaited) failures.push(`${unawaited} database failures nobody awaited in the worker`);
  for (const r of restarts)
    if (r.backAfterMs === null || r.backAfterMs > BACK_WITHIN_MS)
      failures.push(`after the ${r.mode} restart the service was back after ${r.backAfterMs ?? 'more than 15 000'} ms`);
  if (lost) failures.push(`${lost} of ${created.length} acknowledged creations lost`);
  code = verdict(
    'drill:db-restart',
    failures,
    `fast and immediate restarts under ${LANES} lanes: ${unavailable.length} × 503 with Retry-After while down, back after ${restarts.map((r) => `${r.backAfterMs} ms`).join(' and ')}, ${created.length} creations 0 lost, 0 hanging, no process exited`,
  );
} catch (error) {
  console.error(error);
  console.log(`drill:db-restart fails: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await run.finish();
}
process.exit(code);
