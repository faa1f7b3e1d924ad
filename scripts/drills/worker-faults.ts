// Fault drill: the worker process (`npm run worker`, a child of this script) is killed, loses its database
// connections and is stopped while it delivers bursts of webhooks to a counting receiver on 127.0.0.1 (three
// endpoints of one company). Scenarios, one after the other on the same database:
//   kill9      kill -9 at random moments of a burst, several times, restarted each time;
//   terminate  random busy backends of the worker (the service's pool, application_name 'crm-service', and
//              Graphile Worker's, no application_name) terminated every `--every-ms` for `--terminate-seconds`,
//              the process never restarted;
//   sigterm    SIGTERM mid-burst (a graceful stop), then a new worker.
// After each, once settled (bounded by `--settle-seconds`): every (event, endpoint) pair arrived at least once
// (duplicates are allowed: at least once, with the same webhook-id) with a valid signature, every delivery
// row is `succeeded`, no delivery is pending without a queued job nor an event without its deliveries or
// fan-out job, attempt numbers run 1..attempt_count, no webhook job failed for good; in `terminate` the worker
// process is still the one that started, in `sigterm` it exited 0 and left no job locked. One JSON summary
// per scenario on stdout, then a verdict line ("holds" or "fails: …"); exit 1 when any check fails (the worker's
// output is then kept in bench-results/).
// `--fail-first-attempts`: the receiver answers 500 to the first arrival of every (event, endpoint) pair and 204
// to the later ones — half of the attempts fail, and every pair needs its first scheduled retry (5 s later,
// src/webhooks/schedule.ts). (A receiver failing attempts at random would leave a quarter of the pairs to the
// retry after 5 minutes and some to hours later: not a bounded drill.) Checked then too: every delivery had a
// failed attempt and its retry came no sooner than the schedule says, also across a kill (the schedule resumed).
// Duplicates are the 2xx-answered arrivals of a pair beyond its first, counted and reported.
//
//   npm run drill:worker-faults [-- --events 1000 --endpoints 3 --kills 4 --terminate-seconds 10 --every-ms 200
//     --settle-seconds 90 --scenarios kill9,terminate,sigterm --fail-first-attempts]
//   npm run drill:worker-kill   (issue 29's drill 3: kill9 alone, 10 000 deliveries to one endpoint, one kill,
//     first attempts failing)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { Webhook } from 'standardwebhooks';
import * as schema from '../../src/db/schema/index.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';
import { prefixedId } from '../../src/ids.ts';
import { insertCustomer } from '../../src/resources/customers/queries.ts';
import { serializeCustomer } from '../../src/resources/customers/serialize.ts';
import { createCompany } from '../../src/services/companies.ts';
import { RETRY_DELAYS_SECONDS } from '../../src/webhooks/schedule.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import { SERVICE_COMMAND } from '../../test/harness/processes.ts';
import { benchDatabase } from '../bench/database.ts';
import { boundedRun } from '../lib/bounded-run.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    endpoints: { type: 'string', default: '3' },
    'fail-first-attempts': { type: 'boolean', default: false },
    kills: { type: 'string', default: '4' },
    'terminate-seconds': { type: 'string', default: '10' },
    'every-ms': { type: 'string', default: '200' },
    'settle-seconds': { type: 'string', default: '90' },
    scenarios: { type: 'string', default: 'kill9,terminate,sigterm' },
  },
});
const scenarios = new Set(args.scenarios.split(',').map((s) => s.trim()));
const burstEvents = Number(args.events);
const kills = Number(args.kills);
const terminateSeconds = Number(args['terminate-seconds']);
const everyMs = Number(args['every-ms']);
const settleMs = Number(args['settle-seconds']) * 1000;
const ENDPOINTS = Number(args.endpoints);
const FAIL_FIRST = args['fail-first-attempts'];
/** This drill's own connections: never terminated, and not mistaken for the worker's. */
const DRILL_APP = 'crm-drill';
const log = (line: string) => console.error(`[drill] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const randomMs = (max: number) => Math.floor(Math.random() * max);

const escaped: string[] = [];
process.on('uncaughtException', (error) => escaped.push(`uncaught: ${String(error)}`));
process.on('unhandledRejection', (error) => escaped.push(`unhandled rejection: ${String(error)}`));

// ---------------------------------------------------------------------------------------------------------
// The receiver: answers 204 (500 to a pair's first arrival with --fail-first-attempts) and counts the arrivals of
// each webhook-id per endpoint path, checking signatures.

async function startReceiver(secrets: Map<string, string>) {
  const arrivals = new Map<string, number>(); // `${webhook-id} ${path}` → how often
  const accepted = new Map<string, number>(); // the same, answered 2xx
  let refused = 0;
  const verifiers = new Map([...secrets].map(([path, secret]) => [path, new Webhook(secret)]));
  let total = 0;
  let badSignatures = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      const path = req.url ?? '';
      try {
        verifiers.get(path)?.verify(Buffer.concat(chunks).toString(), {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        });
        if (!verifiers.has(path)) badSignatures++;
      } catch {
        badSignatures++;
      }
      total++;
      const pair = `${id} ${path}`;
      arrivals.set(pair, (arrivals.get(pair) ?? 0) + 1);
      if (FAIL_FIRST && arrivals.get(pair) === 1) {
        refused++;
        res.writeHead(500).end('failing on purpose');
        return;
      }
      accepted.set(pair, (accepted.get(pair) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    paths: [...secrets.keys()],
    /**
     * Of the pairs of `ids`: how many arrived at all, how many were received (answered 2xx at least once), and the
     * 2xx-answered arrivals beyond a pair's first (duplicates).
     */
    count(ids: string[]) {
      let arrived = 0;
      let received = 0;
      let duplicates = 0;
      for (const id of ids) {
        for (const path of secrets.keys()) {
          if ((arrivals.get(`${id} ${path}`) ?? 0) > 0) arrived++;
          const n = accepted.get(`${id} ${path}`) ?? 0;
          if (n > 0) received++;
          duplicates += Math.max(0, n - 1);
        }
      }
      return { arrived, received, duplicates };
    },
    stats: () => ({ total, refused, badSignatures }),
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The worker: `npm run worker` as a child process (SERVICE_COMMAND), only ever signalled by its own PID.

type WorkerChild = {
  child: ChildProcess;
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** PIDs this drill signalled: any other exit of a worker is a crash. */
const signalled = new Set<number>();
const crashes: string[] = [];

function signal(worker: WorkerChild, name: NodeJS.Signals): void {
  signalled.add(worker.pid);
  process.kill(worker.pid, name);
}

function spawnWorker(url: string, output: string[]): WorkerChild {
  const [node, ...command] = SERVICE_COMMAND;
  const child = spawn(node, [...command, 'worker'], {
    env: { ...process.env, DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('the worker did not start');
  const pid = child.pid;
  output.push(`--- ${new Date().toISOString()} worker ${pid} started\n`);
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => {
      output.push(`--- ${new Date().toISOString()} worker ${pid} exited (code ${code}, signal ${signal})\n`);
      if (!signalled.has(pid)) crashes.push(`worker ${pid} exited on its own (code ${code}, signal ${signal})`);
      done({ code, signal });
    }),
  );
  return { child, pid, exited };
}

const alive = (worker: WorkerChild) => worker.child.exitCode === null && worker.child.signalCode === null;

/** SIGTERM, and SIGKILL after `graceMs`; answers how it ended and how long it took. */
async function stopWorker(worker: WorkerChild, graceMs: number) {
  const startedAt = Date.now();
  if (!alive(worker)) return { ...(await worker.exited), ms: 0, killed: false };
  signal(worker, 'SIGTERM');
  const ended = await Promise.race([worker.exited, sleep(graceMs).then(() => null)]);
  if (ended) return { ...ended, ms: Date.now() - startedAt, killed: false };
  if (alive(worker)) signal(worker, 'SIGKILL');
  return { ...(await worker.exited), ms: Date.now() - startedAt, killed: true };
}

// ---------------------------------------------------------------------------------------------------------

type Check = { name: string; ok: boolean; detail?: unknown };

async function main() {
  // Bounded whatever hangs: the scenarios' own limits, and a margin for the start and the cleanup.
  const run = boundedRun(120_000 + 3 * settleMs + terminateSeconds * 1000 + kills * 40_000, log);
  const { cleanups } = run;

  const output: string[] = [];
  let failed = false;
  const verdicts: string[] = [];
  /** When the kill9 scenario last killed a worker: retries it had scheduled run after it. */
  let lastKillAt: Date | undefined;
  try {
    const { url, embedded, pgVersion } = await benchDatabase('worker_faults', cleanups, log);
    log(`${pgVersion.split(' ').slice(0, 2).join(' ')}${embedded ? ' (embedded)' : ''}`);
    const sql = postgres(url, { max: 4, onnotice: () => {}, connection: { application_name: DRILL_APP } });
    cleanups.push({ name: 'drill pool', run: () => sql.end({ timeout: 5 }) });
    const db = drizzle(sql);

    // A company, one customer, three endpoints on the receiver (as the webhooks bench seeds them).
    const company = await createCompany(db, { name: 'Drill BV' });
    const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => ({
      id: prefixedId('we'),
      path: `/hook/${i + 1}`,
      secret: newSecret(),
    }));
    const receiver = await startReceiver(new Map(endpoints.map((e) => [e.path, e.secret])));
    cleanups.push({ name: 'receiver', run: receiver.stop });
    const customer = await withTenant(db, company.id, async (tx) => {
      const row = await insertCustomer(tx, company.id, { email: 'drill@example.com', name: 'Drill Customer' });
      for (const { id, path, secret } of endpoints) {
        await tx.insert(schema.webhookEndpoints).values({
          companyId: company.id,
          id,
          url: `http://127.0.0.1:${receiver.port}${path}`,
          secret,
          events: ['*'],
          scopes: ['customers.read', 'deals.read'],
        });
      }
      return row;
    });
    const object = serializeCustomer(customer);
    /** `n` events committed in one transaction (recordEvent queues each one's fan-out job with it). */
    const burst = (n: number) =>
      withTenant(db, company.id, async (tx) => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          ids.push(
            await recordEvent(tx, company.id, {
              type: 'customer.updated',
              scope: 'customers.read',
              customerId: customer.id,
              object: { ...object, updated_at: new Date().toISOString() },
            }),
          );
        }
        return ids;
      });

    let worker = spawnWorker(url, output);
    // Stopped by its PID at the end, whichever worker is current then.
    cleanups.push({ name: 'worker', run: () => stopWorker(worker, 15_000) });

    /** Waits until at least one pair of `ids` arrived (the worker is delivering them), bounded. */
    const firstArrival = async (ids: string[], timeoutMs = 30_000) => {
      for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(20)) {
        if (receiver.count(ids).arrived > 0) return true;
      }
      return false;
    };
    const deliveryStates = async (ids: string[]) => {
      const rows = await sql<{ status: string; n: number }[]>`
        select status, count(*)::int as n from webhook_deliveries
        where company_id = ${company.id} and event_id = any(${ids}::text[]) group by status`;
      return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
    };
    /** Until every pair arrived and every delivery row succeeded, at most settleMs; answers the seconds taken. */
    const settle = async (ids: string[]) => {
      const startedAt = Date.now();
      for (;;) {
        const states = await deliveryStates(ids);
        if (receiver.count(ids).received === ids.length * ENDPOINTS && states.succeeded === ids.length * ENDPOINTS)
          return { settled: true, seconds: round((Date.now() - startedAt) / 1000, 1) };
        if (Date.now() - startedAt > settleMs) return { settled: false, seconds: round(settleMs / 1000, 1) };
        await sleep(250);
      }
    };
    /** The checks on the deliveries of `ids`, once settled (or given up). */
    const verify = async (ids: string[]): Promise<Check[]> => {
      const { received } = receiver.count(ids);
      const states = await deliveryStates(ids);
      const pendingWithoutJob = await sql<{ id: string }[]>`
        select d.id from webhook_deliveries d
        where d.company_id = ${company.id} and d.event_id = any(${ids}::text[]) and d.status = 'pending'
          and not exists (select 1 from graphile_worker._private_jobs j
            join graphile_worker._private_tasks t on t.id = j.task_id
            where t.identifier = 'webhook_deliver' and j.attempts < j.max_attempts
              and (j.payload->>'deliveryId' = d.id or (j.payload::jsonb -> 'deliveryIds') ? d.id))
        limit 10`;
      const eventsWithoutWork = await sql<{ id: string; deliveries: number }[]>`
        select ev.id, (select count(*)::int from webhook_deliveries d
          where d.company_id = ev.company_id and d.event_id = ev.id) as deliveries
        from events ev
        where ev.company_id = ${company.id} and ev.id = any(${ids}::text[])
          and (select count(*) from webhook_deliveries d where d.company_id = ev.company_id and d.event_id = ev.id)
            < ${ENDPOINTS}
          and not exists (select 1 from graphile_worker._private_jobs j
            join graphile_worker._private_tasks t on t.id = j.task_id
            where t.identifier = 'webhook_fanout' and j.attempts < j.max_attempts and j.payload->>'eventId' = ev.id)
        limit 10`;
      // Attempts of a delivery are numbered 1..attempt_count, once each; a succeeded one has a succeeded attempt.
      const badAttempts = await sql<{ id: string; status: string; attempt_count: number; numbers: number[] }[]>`
        select d.id, d.status, d.attempt_count,
          coalesce(array_agg(a.attempt_number order by a.attempt_number) filter (where a.id is not null), '{}')
            as numbers
        from webhook_deliveries d
        left join webhook_attempts a on a.company_id = d.company_id and a.delivery_id = d.id
        where d.company_id = ${company.id} and d.event_id = any(${ids}::text[])
        group by d.id, d.status, d.attempt_count
        having count(a.id) <> d.attempt_count or count(distinct a.attempt_number) <> count(a.id)
          or coalesce(min(a.attempt_number), 1) <> 1 or coalesce(max(a.attempt_number), 0) <> count(a.id)
          or (d.status = 'succeeded' and count(a.id) filter (where a.status = 'succeeded') = 0)
        limit 10`;
      const deadJobs = await sql<{ task: string; n: number; error: string | null }[]>`
        select t.identifier as task, count(*)::int as n, max(j.last_error) as error
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier like 'webhook\_%' and j.attempts >= j.max_attempts group by t.identifier`;
      // With --fail-first-attempts: every delivery failed once and its retry kept the schedule (no sooner than
      // the first delay after the failed attempt), also when the worker that scheduled it was killed.
      const retries = FAIL_FIRST
        ? await sql<
            {
              failed_then_retried: number;
              failure_lost_with_worker: number;
              too_soon: number;
              resumed_after_kill: number;
              min_gap_s: number | null;
              max_gap_s: number | null;
            }[]
          >`
            with first as (
              select d.id,
                min(a.created_at) filter (where a.status <> 'succeeded') as failed_at,
                min(a.created_at) filter (where a.status = 'succeeded') as succeeded_at
              from webhook_deliveries d
              left join webhook_attempts a on a.company_id = d.company_id and a.delivery_id = d.id
              where d.company_id = ${company.id} and d.event_id = any(${ids}::text[])
              group by d.id)
            select count(*) filter (where failed_at is not null)::int as failed_then_retried,
              count(*) filter (where failed_at is null)::int as failure_lost_with_worker,
              count(*) filter (where failed_at < ${(lastKillAt ?? new Date(0)).toISOString()}::timestamptz
                and succeeded_at > ${(lastKillAt ?? new Date(0)).toISOString()}::timestamptz)::int as resumed_after_kill,
              count(*) filter (where succeeded_at - failed_at < make_interval(secs => ${RETRY_DELAYS_SECONDS[0]}))::int
                as too_soon,
              round(extract(epoch from min(succeeded_at - failed_at))::numeric, 1)::float as min_gap_s,
              round(extract(epoch from max(succeeded_at - failed_at))::numeric, 1)::float as max_gap_s
            from first`
        : [];
      const pairs = ids.length * ENDPOINTS;
      return [
        // A failure the killed worker had not recorded yet is not in the table: its job ran again on unlock.
        ...retries.map((r) => ({
          name: `every retry kept the schedule (no sooner than ${RETRY_DELAYS_SECONDS[0]} s after the failure)${lastKillAt ? ', also the ones the killed worker had scheduled' : ''}`,
          ok: r.too_soon === 0 && r.failed_then_retried > 0 && (lastKillAt === undefined || r.resumed_after_kill > 0),
          detail: r,
        })),
        { name: 'every pair received', ok: received === pairs, detail: { received, pairs } },
        {
          name: 'every delivery succeeded',
          ok: states.succeeded === pairs && Object.keys(states).length === 1,
          detail: states,
        },
        {
          name: 'no pending delivery without a queued job',
          ok: pendingWithoutJob.length === 0,
          detail: pendingWithoutJob.map((r) => r.id),
        },
        {
          name: 'no event without its deliveries or fan-out job',
          ok: eventsWithoutWork.length === 0,
          detail: eventsWithoutWork,
        },
        { name: 'attempt numbers contiguous', ok: badAttempts.length === 0, detail: badAttempts },
        { name: 'no webhook job failed for good', ok: deadJobs.length === 0, detail: deadJobs },
        { name: 'signatures valid', ok: receiver.stats().badSignatures === 0, detail: receiver.stats() },
      ];
    };
    /** When a scenario did not settle: what the worker's connections and the job queue look like. */
    const snapshot = async () => ({
      backends: await sql<{ app: string; state: string; wait: string | null; n: number; query: string }[]>`
        select application_name as app, state, wait_event_type || ':' || wait_event as wait, count(*)::int as n,
          regexp_replace(left(query, 100), '[[:space:]]+', ' ', 'g') as query
        from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' and application_name <> ${DRILL_APP}
        group by 1, 2, 3, 5 order by n desc limit 20`,
      jobs: await sql<{ task: string; locked: boolean; due: boolean; failed_attempts: boolean; n: number }[]>`
        select t.identifier as task, j.locked_by is not null as locked, j.run_at <= now() as due,
          j.attempts > 0 as failed_attempts, count(*)::int as n
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    });
    const outputSince = (from: number) => output.slice(from).join('');
    const summarize = async (
      name: string,
      ids: string[],
      faults: Record<string, unknown>,
      settled: { settled: boolean; seconds: number },
      checks: Check[],
      logFrom: number,
    ) => {
      const { received, duplicates } = receiver.count(ids);
      const retryCheck = checks.find((c) => c.name.startsWith('every retry kept the schedule'));
      const text = outputSince(logFrom);
      const crashed = crashes.splice(0);
      const summary = {
        scenario: name,
        events: ids.length,
        pairs: ids.length * ENDPOINTS,
        received,
        duplicates,
        ...(FAIL_FIRST ? { refusedOnPurpose: receiver.stats().refused, retryGaps: retryCheck?.detail } : {}),
        ...faults,
        settled: settled.settled,
        settleSeconds: settled.seconds,
        workerLog: {
          runnerRestarts: (text.match(/a new runner starts in/g) ?? []).length,
          errorLines: text.split('\n').filter((l) => /error|fail/i.test(l)).length,
        },
        crashes: crashed,
        failedChecks: checks.filter((c) => !c.ok),
        ...(settled.settled ? {} : { notSettled: await snapshot() }),
        passed: checks.every((c) => c.ok) && crashed.length === 0,
      };
      console.log(JSON.stringify(summary, null, 2));
      if (!summary.passed) failed = true;
      verdicts.push(
        summary.passed
          ? `${name}: ${received}/${summary.pairs} pairs delivered, ${duplicates} duplicates${FAIL_FIRST ? `, ${receiver.stats().refused} attempts refused on purpose and retried` : ''}`
          : `${name}: ${[...summary.failedChecks.map((c) => c.name), ...crashed].join(', ')}${settled.settled ? '' : ' (not settled)'}`,
      );
    };

    // 1. kill -9 at random moments of a burst, then a new worker at once.
    if (scenarios.has('kill9') && !run.interrupted) {
      const logFrom = output.length;
      const ids: string[] = [];
      const killed: { afterMs: number; receivedOfBurst: string; deadPoolsUnlocked: number }[] = [];
      for (let k = 0; k < kills && !run.interrupted; k++) {
        const batch = await burst(burstEvents);
        ids.push(...batch);
        if (!(await firstArrival(batch))) log(`kill ${k + 1}: nothing of the burst arrived within 30 s`);
        // With failing first attempts, a kill once failures are recorded and their retries scheduled (5 s later):
        // the new worker must run retries the killed one scheduled.
        const afterMs = FAIL_FIRST ? 1000 + randomMs(3000) : randomMs(1000);
        await sleep(afterMs);
        const { received } = receiver.count(batch);
        if (alive(worker)) signal(worker, 'SIGKILL');
        lastKillAt = new Date();
        await worker.exited;
        worker = spawnWorker(url, output);
        // Jobs the killed worker held stay locked until a live worker's liveness sweep finds its pool dead (it
        // sweeps every 30 s, for locks older than 60 s: DEAD_AFTER_SECONDS in src/jobs/liveness.ts). To save that
        // minute per kill, the drill runs the same sweep at once with a 1-second age (its locks must be that old),
        // until it unlocked a dead pool or 4 s passed (the killed worker may have held no lock).
        let deadPoolsUnlocked = 0;
        for (const until = Date.now() + 4_000; Date.now() < until && deadPoolsUnlocked === 0; await sleep(250)) {
          const [{ dead }] = await sql<{ dead: string[] }[]>`
            select app_unlock_dead_workers(make_interval(secs => 1)) as dead`;
          deadPoolsUnlocked = dead.length;
        }
        killed.push({ afterMs, receivedOfBurst: `${received}/${batch.length * ENDPOINTS}`, deadPoolsUnlocked });
        log(`kill -9 ${k + 1}/${kills}: ${received}/${batch.length * ENDPOINTS} of its burst had arrived`);
      }
      const settled = await settle(ids);
      await summarize('kill9', ids, { kills: killed.length, killed }, settled, await verify(ids), logFrom);
    }

    /** A scenario that failed may leave its worker stuck: the next one starts with a new worker. */
    const replaceIfFailed = async () => {
      if (!failed || !alive(worker)) return;
      log(`the last scenario failed: worker ${worker.pid} is killed and replaced`);
      signal(worker, 'SIGKILL');
      await worker.exited;
      worker = spawnWorker(url, output);
      // Its jobs are unlocked now rather than by the new worker's liveness sweep a minute later (see kill9).
      await sleep(1100);
      await sql`select app_unlock_dead_workers(make_interval(secs => 1))`;
    };

    // 2. Busy backends of the worker terminated every everyMs for terminateSeconds; the process lives on.
    if (scenarios.has('terminate') && !run.interrupted) {
      await replaceIfFailed();
      const logFrom = output.length;
      const pid = worker.pid;
      const ids: string[] = [];
      const terminated = { service: 0, graphile: 0, ticks: 0 };
      // Terminations start once the worker is delivering: a runner whose very first fetch loses its connection
      // never fetches again (graphile-worker 0.17.3 caches the rejected task-id lookup, taskIdentifiers.js), a
      // separate defect that this scenario would otherwise hit at random.
      ids.push(...(await burst(Math.ceil(burstEvents / 5))));
      if (!(await firstArrival(ids))) log('nothing of the first burst arrived within 30 s');
      const until = Date.now() + terminateSeconds * 1000;
      const producing = (async () => {
        while (Date.now() < until && !run.interrupted) {
          await sleep(1000);
          ids.push(...(await burst(Math.ceil(burstEvents / 5))));
        }
      })();
      while (Date.now() < until && !run.interrupted) {
        await sleep(everyMs);
        terminated.ticks++;
        const [row] = await sql<{ app: string; ended: boolean }[]>`
          select application_name as app, pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
            and state <> 'idle' and application_name in ('crm-service', '')
          order by random() limit 1`;
        if (row?.ended) {
          terminated[row.app === '' ? 'graphile' : 'service']++;
          log(`terminated a busy ${row.app === '' ? 'Graphile' : 'service'} backend (${ids.length} events so far)`);
        }
      }
      await producing;
      log(`terminated ${terminated.service} service and ${terminated.graphile} Graphile backends`);
      const settled = await settle(ids);
      const checks = await verify(ids);
      checks.push({ name: 'worker process still alive', ok: alive(worker) && worker.pid === pid, detail: { pid } });
      await summarize(
        'terminate',
        ids,
        { terminations: terminated.service + terminated.graphile, terminated },
        settled,
        checks,
        logFrom,
      );
    }

    // 3. SIGTERM mid-burst: the worker stops gracefully; a new one delivers the rest.
    if (scenarios.has('sigterm') && !run.interrupted) {
      await replaceIfFailed();
      const logFrom = output.length;
      const ids = await burst(burstEvents);
      if (!(await firstArrival(ids))) log('nothing of the burst arrived within 30 s');
      await sleep(randomMs(500));
      const { received } = receiver.count(ids);
      const stopped = await stopWorker(worker, 30_000);
      // The only worker has stopped: nothing may stay locked (its running jobs completed or went back).
      const [{ locked }] = await sql<{ locked: number }[]>`
        select count(*)::int as locked from graphile_worker._private_jobs where locked_by is not null`;
      log(`SIGTERM after ${received}/${ids.length * ENDPOINTS}: exited in ${stopped.ms} ms (code ${stopped.code})`);
      worker = spawnWorker(url, output);
      const settled = await settle(ids);
      const checks = await verify(ids);
      checks.push(
        { name: 'stopped on SIGTERM with code 0', ok: stopped.code === 0 && !stopped.killed, detail: stopped },
        { name: 'no job left locked by the stopped worker', ok: locked === 0, detail: { locked } },
      );
      const faults = { sigterms: 1, receivedAtSigterm: `${received}/${ids.length * ENDPOINTS}`, stopMs: stopped.ms };
      await summarize('sigterm', ids, faults, settled, checks, logFrom);
    }
    if (escaped.length > 0) {
      console.log(JSON.stringify({ escaped }, null, 2));
      failed = true;
    }
    console.log(
      failed || run.interrupted
        ? `drill:worker-faults fails: ${verdicts.join('; ')}${run.interrupted ? ' (interrupted)' : ''}`
        : `drill:worker-faults holds: ${verdicts.join('; ')}`,
    );
  } finally {
    await run.finish();
    if (failed || escaped.length > 0) {
      const dir = resolve('bench-results');
      mkdirSync(dir, { recursive: true });
      const file = resolve(dir, `drill-worker-faults-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
      writeFileSync(file, output.join(''));
      log(`a check failed: the workers' output is in ${file}`);
    }
  }
  return failed || run.interrupted ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
