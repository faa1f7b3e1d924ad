// npm run bench:webhooks [-- --rate 200 --seconds 20 --burst 5000 --noop-jobs 20000 --producers 8]
//
// End-to-end webhook throughput and latency against a local receiver, next to Graphile Worker's own noop
// throughput on the same machine in the same run. Needs nothing but Node: without DATABASE_URL it starts an
// embedded PostgreSQL (fast mode) in a temporary directory on a free port; with DATABASE_URL it creates its
// own database on that server and drops it afterwards. Everything listens on 127.0.0.1. See README.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, platform, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance as eventLoop } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Logger, type Runner, type RunnerOptions, run } from 'graphile-worker';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.ts';
import { createDb, createTenantPool } from '../../src/db/client.ts';
import { webhookEndpoints } from '../../src/db/schema/index.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';
import { FileStorages } from '../../src/files/storages.ts';
import { prefixedId } from '../../src/ids.ts';
import { LOCAL_QUEUE_SIZE, reminderWorkerDeps, startWorker, WORKER_CONCURRENCY } from '../../src/jobs/worker.ts';
import { insertCustomer } from '../../src/resources/customers/queries.ts';
import { serializeCustomer } from '../../src/resources/customers/serialize.ts';
import { createCompany } from '../../src/services/companies.ts';
import { WebhookSender } from '../../src/webhooks/send.ts';
import { SendTurns } from '../../src/webhooks/send-turns.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import { type CpuRoles, type CpuUse, cpuMeter, threadId } from './cpu.ts';
import { benchDatabase, resetStatementStats, statementReport } from './database.ts';
import type { ProducerInput, ProducerMessage, ProducerOutput, ProducerPhase } from './webhooks-producer.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    producers: { type: 'string', default: '8' },
    burst: { type: 'string', default: '5000' },
    'noop-jobs': { type: 'string', default: '20000' },
    'drain-seconds': { type: 'string', default: '30' },
    history: { type: 'string', default: '30000' },
    'burst-drain-seconds': { type: 'string', default: '60' },
    'skip-default-noop': { type: 'boolean', default: false },
    'skip-documented-noop': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(`usage: npm run bench:webhooks -- [--rate 200] [--seconds 20] [--warmup 3] [--producers 8] [--burst 5000]
       [--noop-jobs 20000] [--drain-seconds 30] [--burst-drain-seconds 60] [--skip-default-noop] [--skip-documented-noop]
       [--history 30000] [--profile]`);
  process.exit(0);
}
const int = (name: string, value: string | undefined, min: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min} (got ${value})`);
  return n;
};
const opts = {
  rate: int('rate', args.rate, 1),
  seconds: int('seconds', args.seconds, 1),
  warmup: int('warmup', args.warmup, 0),
  producers: int('producers', args.producers, 1),
  burst: int('burst', args.burst, 0),
  noopJobs: int('noop-jobs', args['noop-jobs'], 0),
  drainSeconds: int('drain-seconds', args['drain-seconds'], 1),
  history: int('history', args.history, 0),
  burstDrainSeconds: int('burst-drain-seconds', args['burst-drain-seconds'], 1),
  defaultNoop: !args['skip-default-noop'],
  documentedNoop: !args['skip-documented-noop'],
  profile: args.profile ?? false,
};

const ENDPOINTS = 3;
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 500;
const TARGET_P99_RATE = 200;

// The tuned preset of src/jobs/worker.ts (startWorker; its concurrency and queue size are imported), repeated
// here for the noop runs: keep them in step.
const WORKER_POLL_INTERVAL = 1000;
const TUNED_PRESET: NonNullable<RunnerOptions['preset']> = {
  worker: { localQueue: { size: LOCAL_QUEUE_SIZE }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
};
/**
 * The configuration of Graphile Worker's own performance page (worker.graphile.org/docs/performance): 24 jobs
 * at once, a pool of 25, a local queue of 500, completions batched without delay. Measured for comparison: the
 * figure the issue and DESIGN.md quote (~10k noop jobs/s) is of this kind of setting.
 */
const DOCUMENTED_CONCURRENCY = 24;
const DOCUMENTED_PRESET: NonNullable<RunnerOptions['preset']> = {
  worker: { maxPoolSize: 25, localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 },
};
type NoopSettings = 'tuned' | 'default' | 'documented';
type NoopRun = Awaited<ReturnType<typeof noopThroughput>>;

const log = (line: string) => console.log(`[bench] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds on one clock shared by this thread and the receiver's thread. */
const clock = () => performance.timeOrigin + performance.now();
const quietLogger = new Logger((scope) => (level, message) => {
  if (level === 'error') console.error(`[worker${scope.taskIdentifier ? `:${scope.taskIdentifier}` : ''}] ${message}`);
});

// ---------------------------------------------------------------------------------------------------------
// Receiver: node:http on 127.0.0.1 in its own thread, so that its timestamps are not delayed by the worker's
// event loop (it is the integrator's server, not part of the system under test). Three paths, one per endpoint.
// The bookkeeping stays in that thread too: it keeps the arrivals and says when a watched set of messages is
// complete, so the worker's thread spends nothing on the measurement while deliveries drain.

type Arrival = { id: string; path: string; at: number };

const RECEIVER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const arrivals = [];
let watch = null; // { ids: Set of event ids, need: number of (id, path) pairs, seen: Set of them }
const see = (a) => {
  if (!watch || !watch.ids.has(a.id)) return;
  watch.seen.add(a.id + ' ' + a.path);
  if (watch.seen.size >= watch.need) { watch = null; parentPort.postMessage({ complete: true }); }
};
const server = http.createServer((req, res) => {
  const id = req.headers['webhook-id'];
  req.on('data', () => {});
  req.on('end', () => {
    const a = { id: String(id), path: req.url, at: performance.timeOrigin + performance.now() };
    arrivals.push(a);
    see(a);
    res.writeHead(204).end();
  });
});
// Node's default (5 s), as most servers keep connections at least that long. The 1 s used before told Node's
// HTTP client (Keep-Alive: timeout=1, minus its 1 s safety margin) never to reuse a connection.
server.keepAliveTimeout = 5000;
parentPort.on('message', (m) => {
  if (m.watch) {
    watch = { ids: new Set(m.watch), need: m.watch.length * m.perId, seen: new Set() };
    if (watch.need === 0) { watch = null; parentPort.postMessage({ complete: true }); return; }
    for (const a of arrivals) see(a);
  } else if (m === 'collect') {
    parentPort.postMessage({ arrivals });
  } else if (m === 'count') {
    parentPort.postMessage({ count: arrivals.length });
  } else if (m === 'stop') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ stopped: true }));
  }
});
const tid = (() => { try { return require('node:fs').readlinkSync('/proc/thread-self').split('/').pop(); } catch { return null; } })();
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port, tid }));
`;

type ReceiverMessage = {
  port?: number;
  tid?: string | null;
  complete?: boolean;
  arrivals?: Arrival[];
  count?: number;
  stopped?: boolean;
};

async function startReceiver() {
  const thread = new Worker(RECEIVER_SOURCE, { eval: true });
  const next = <K extends keyof ReceiverMessage>(key: K) =>
    new Promise<NonNullable<ReceiverMessage[K]>>((resolve) => {
      const listener = (m: ReceiverMessage) => {
        if (m[key] === undefined) return;
        thread.off('message', listener);
        resolve(m[key] as NonNullable<ReceiverMessage[K]>);
      };
      thread.on('message', listener);
    });
  // Its first message: the port it listens on, and its OS thread id (for the CPU by thread).
  const { port, tid } = await Promise.race([
    new Promise<ReceiverMessage>((resolve) => thread.once('message', resolve)),
    new Promise<never>((_, reject) => thread.once('error', reject)),
  ]);
  if (port === undefined) throw new Error('the receiver did not say its port');
  return {
    port,
    tid: tid ?? null,
    /** Resolves when every event of `ids` arrived on `perId` paths, or after `timeoutMs` (then false). */
    waitFor: async (ids: string[], perId: number, timeoutMs: number): Promise<boolean> => {
      const complete = next('complete');
      thread.postMessage({ watch: ids, perId });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const done = await Promise.race([complete, timedOut]);
      clearTimeout(timer);
      return done;
    },
    /** Every arrival so far. */
    collect: () => {
      const arrivals = next('arrivals');
      thread.postMessage('collect');
      return arrivals;
    },
    count: () => {
      const count = next('count');
      thread.postMessage('count');
      return count;
    },
    stop: async () => {
      const stopped = next('stopped');
      thread.postMessage('stop');
      await Promise.race([stopped, sleep(2000)]);
      await thread.terminate();
    },
  };
}

/** --profile: a V8 CPU profile of this thread (the worker's) from now until stop(); answers the file. */
async function startProfile(phase: 'steady' | 'burst') {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      const dir = resolve('bench-results/profiles');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `webhooks-${phase}-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Statistics

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const round = (n: number | null, digits = 1) => (n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits);

type Latency = { p50: number | null; p90: number | null; p99: number | null; max: number | null };
function latencies(values: number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : null),
  };
}

/** Deliveries of the given events that arrived (first arrival per event and path), with their latencies. */
function match(arrivals: Arrival[], committedAt: Map<string, number>) {
  const seen = new Set<string>();
  const lat: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let duplicates = 0;
  for (const a of arrivals) {
    const at = committedAt.get(a.id);
    if (at === undefined) continue;
    const key = `${a.id} ${a.path}`;
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    lat.push(a.at - at);
    first = Math.min(first, a.at);
    last = Math.max(last, a.at);
  }
  return { received: seen.size, duplicates, lat, first, last };
}

/** Latency percentiles per whole second of commit time after `from`: shows when the slow deliveries happen. */
function latencyBySecond(arrivals: Arrival[], committedAt: Map<string, number>, from: number) {
  const seconds: number[][] = [];
  const seen = new Set<string>();
  for (const a of arrivals) {
    const at = committedAt.get(a.id);
    const key = `${a.id} ${a.path}`;
    if (at === undefined || seen.has(key)) continue;
    seen.add(key);
    const i = Math.max(0, Math.floor((at - from) / 1000));
    while (seconds.length <= i) seconds.push([]);
    seconds[i]?.push(a.at - at);
  }
  return seconds.map((values) => {
    const { p50, p99, max } = latencies(values);
    return `${p50}/${p99}/${max}`;
  });
}

/** Deliveries of the given events per whole second after `from`: shows whether the drain rate holds up. */
function timeline(arrivals: Arrival[], committedAt: Map<string, number>, from: number): number[] {
  const buckets: number[] = [];
  for (const a of arrivals) {
    if (!committedAt.has(a.id)) continue;
    const i = Math.floor((a.at - from) / 1000);
    while (buckets.length <= i) buckets.push(0);
    buckets[i]++;
  }
  return buckets;
}

// ---------------------------------------------------------------------------------------------------------
// The sender alone

type SendingBench = { id: string; url: string; secret: string };

/**
 * `events` messages to each endpoint through the sending code of the worker (SendTurns' 16 per endpoint,
 * WebhookSender: the SSRF re-check, the signature, undici), bodies shaped as the events' are, nothing else.
 */
async function sendAlone(endpoints: SendingBench[], events: number, data: string, roles: CpuRoles) {
  const policy = { allowPrivate: true };
  const body = (id: string) =>
    `{"id":"${id}","type":"customer.updated","created_at":"${new Date().toISOString()}","data":${data}}`;
  const turns = new SendTurns();
  const sender = new WebhookSender();
  const meter = cpuMeter(roles);
  const startedAt = clock();
  const results = await Promise.all(
    Array.from({ length: events }, (_, i) => {
      const id = `evt_senderalone${String(i).padStart(10, '0')}`;
      const message = { id, body: body(id) };
      return Promise.all(
        endpoints.map((endpoint) =>
          turns.send(endpoint.id, () =>
            sender.send(
              { url: endpoint.url, secret: endpoint.secret, previousSecret: null, previousSecretExpiresAt: null },
              message,
              { now: new Date(), policy },
            ),
          ),
        ),
      );
    }),
  );
  const seconds = (clock() - startedAt) / 1000;
  const cpuCores = meter();
  const sent = results.flat();
  const ok = sent.filter((r) => r.error === null).length;
  return {
    messages: sent.length,
    succeeded: ok,
    seconds: round(seconds, 2),
    messagesPerSecond: round(ok / seconds, 1),
    cpuCores,
    cpuMicrosPerMessage: cpuMicrosPer(cpuCores, seconds, ok),
  };
}

/**
 * Microseconds of CPU of the whole machine per unit of work (a delivery, a message, a job) in a phase of
 * `seconds` that did `count` of them: what the design costs, whatever the machine's speed that day.
 */
function cpuMicrosPer(use: CpuUse | null, seconds: number, count: number): number | null {
  const busy = use?.['machine busy'];
  return busy === undefined || count === 0 ? null : round((busy * seconds * 1e6) / count, 0);
}

/** The most connections each application held open at once during a phase, on one line. */
function connectionsLine(activity: unknown): string | null {
  const max = (activity as { connectionsMax?: Record<string, number> } | undefined)?.connectionsMax;
  if (!max) return null;
  return Object.entries(max)
    .map(([app, n]) => `${app} ${n}`)
    .join(', ');
}

/** The CPU use of a phase on one line: the roles that used at least 0.05 core. */
function cpuLine(use: CpuUse): string {
  return Object.entries(use)
    .filter(([, cores]) => cores >= 0.05)
    .map(([role, cores]) => `${role.replace(' thread', '').replace(' (all processes)', '')} ${cores}`)
    .join(', ');
}

// ---------------------------------------------------------------------------------------------------------
// Graphile Worker noop throughput

async function noopThroughput(url: string, jobs: number, settings: NoopSettings) {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin`
      select graphile_worker.add_jobs(array(
        select row('noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec
        from generate_series(1, ${jobs}::int)))`;
    let done = 0;
    let firstAt = 0;
    let lastAt = 0;
    let meter: ReturnType<typeof cpuMeter> | undefined;
    const startedAt = clock();
    const runner: Runner = await run({
      connectionString: url,
      concurrency: settings === 'documented' ? DOCUMENTED_CONCURRENCY : WORKER_CONCURRENCY,
      noHandleSignals: true,
      pollInterval: WORKER_POLL_INTERVAL,
      logger: quietLogger,
      taskList: {
        noop: async () => {
          if (done++ === 0) {
            firstAt = clock();
            // From the first call, as the rate (a few ms of /proc reads, once).
            meter = cpuMeter({ worker: threadId() });
          }
          lastAt = clock();
        },
      },
      ...(settings === 'tuned' ? { preset: TUNED_PRESET } : {}),
      ...(settings === 'documented' ? { preset: DOCUMENTED_PRESET } : {}),
    });
    const deadline = Date.now() + 90_000;
    // The queue is empty when no noop job is left in the table (completion may be batched after the call).
    for (;;) {
      const [{ left }] = await admin<{ left: number }[]>`
        select count(*)::int as left from graphile_worker._private_jobs j
        join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'noop'`;
      if (left === 0 || Date.now() > deadline) break;
      await sleep(20);
    }
    const emptyAt = clock();
    const cpuCores = meter?.() ?? null;
    await runner.stop();
    const seconds = (emptyAt - firstAt) / 1000;
    return {
      jobs,
      executed: done,
      seconds: round(seconds, 3),
      jobsPerSecond: round(done / seconds, 0),
      startupMs: round(firstAt - startedAt),
      lastCallToEmptyMs: round(emptyAt - lastAt),
      cpuCores,
      cpuMicrosPerJob: cpuMicrosPer(cpuCores, seconds, done),
    };
  } finally {
    await admin.end();
  }
}

/** pid → application name of the database's backends (to split their CPU by who uses them). */
async function backendNames(url: string): Promise<Map<string, string>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ pid: number; app: string }[]>`
      select pid, application_name as app from pg_stat_activity where backend_type = 'client backend'`;
    return new Map(rows.map((r) => [String(r.pid), r.app]));
  } finally {
    await sql.end();
  }
}

/** Deletes the webhook jobs still queued (after a phase's deadline passed); returns how many. */
async function purgeJobs(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ count }] = await sql<{ count: number }[]>`
      with gone as (
        delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
        where t.id = j.task_id and t.identifier like 'webhook\_%' returning 1)
      select count(*)::int as count from gone`;
    return count;
  } finally {
    await sql.end();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Where the database time goes: samples of pg_stat_activity while deliveries drain.

function activitySampler(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const counts = new Map<string, number>();
  // The most connections each application held open at once (idle ones included): what a server's
  // max_connections must allow for.
  const connectionsMax = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await sql<{ state: string | null; wait: string | null; app: string }[]>`
        select state, coalesce(wait_event_type || ':' || wait_event, 'cpu') as wait, application_name as app
        from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      samples++;
      const open = new Map<string, number>();
      for (const r of rows) {
        const app = r.app || '(graphile-worker)';
        open.set(app, (open.get(app) ?? 0) + 1);
        if (r.state === 'idle') continue;
        const key = `${app} ${r.state} ${r.wait}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      for (const [app, n] of open) connectionsMax.set(app, Math.max(connectionsMax.get(app) ?? 0, n));
      await sleep(50);
    }
  })().catch(() => {}); // the database may go away under it when the run is cut short
  return async () => {
    running = false;
    await loop;
    await sql.end();
    return {
      samples,
      // Average number of backends in each state per sample: how many connections are busy with what.
      busyBackends: Object.fromEntries(
        [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v / Math.max(1, samples), 2)]),
      ),
      connectionsMax: Object.fromEntries(connectionsMax),
    };
  };
}

// ---------------------------------------------------------------------------------------------------------

/**
 * A live service has history: `n` events of the past 29 days, each delivered to the three endpoints with one
 * successful attempt, then ANALYZE — so the planner works from statistics of tables that have rows, as in
 * production, not from the empty tables of a new database (whose plans can read a whole index per lookup).
 */
async function seedHistory(url: string, companyId: string, n: number, data: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`
      insert into events (company_id, id, type, scope, customer_id, data, created_at)
      select ${companyId}::uuid, 'evt_hist' || lpad(g::text, 14, '0'), 'customer.updated', 'customers.read', null,
        ${data}::jsonb, now() - interval '29 days' + (g * interval '29 days' / ${n}::int)
      from generate_series(1, ${n}::int) g`;
    await sql`
      insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, attempt_count,
        last_attempt_at, last_status_code, created_at, updated_at)
      select ev.company_id, 'wd_hist' || substr(ev.id, 9) || e.id, e.id, ev.id, ev.type, 'succeeded', 1,
        ev.created_at, 204, ev.created_at, ev.created_at
      from events ev join webhook_endpoints e on e.company_id = ev.company_id
      where ev.company_id = ${companyId} and ev.id like 'evt_hist%'`;
    await sql`
      insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger, url,
        status, status_code, duration_ms, created_at)
      select d.company_id, 'wa_hist' || substr(d.id, 8), d.id, d.endpoint_id, d.event_id, 1, 'scheduled', e.url,
        'succeeded', 204, 2, d.created_at
      from webhook_deliveries d join webhook_endpoints e on e.company_id = d.company_id and e.id = d.endpoint_id
      where d.company_id = ${companyId}`;
    await sql`analyze`;
  } finally {
    await sql.end();
  }
}

async function main() {
  const started = Date.now();
  // Bounded: the whole run stops even if something hangs.
  const run = boundedRun(
    60_000 +
      (opts.warmup + opts.seconds + 2 * opts.drainSeconds + opts.burstDrainSeconds) * 1000 +
      2 * opts.noopJobs +
      30_000,
    log,
  );
  const { cleanups } = run;

  try {
    // Database: our own, on DATABASE_URL's server or on an embedded one.
    const { url, embedded, pgVersion } = await benchDatabase('webhooks', cleanups, log);

    // 1. Graphile Worker's own throughput, before anything else runs.
    const noop: Record<string, NoopRun> = {};
    if (opts.noopJobs > 0) {
      log(`noop throughput, tuned preset (${opts.noopJobs} jobs)`);
      noop.tuned = await noopThroughput(url, opts.noopJobs, 'tuned');
      if (opts.defaultNoop) {
        log(`noop throughput, default settings (${opts.noopJobs} jobs)`);
        noop.default = await noopThroughput(url, opts.noopJobs, 'default');
      }
      if (opts.documentedNoop) {
        log(`noop throughput, Graphile Worker's documented performance settings (${opts.noopJobs} jobs)`);
        noop.documented = await noopThroughput(url, opts.noopJobs, 'documented');
      }
    }

    // 2. A company, one customer, a receiver and three endpoints on it.
    const receiver = await startReceiver();
    cleanups.push({ name: 'receiver', run: receiver.stop });
    const producer = createDb(url, opts.producers + 2);
    cleanups.push({ name: 'producer pool', run: () => producer.sql.end({ timeout: 5 }) });
    const company = await createCompany(producer.db, { name: 'Bench BV' });
    const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => ({
      id: prefixedId('we'),
      url: `http://127.0.0.1:${receiver.port}/hook/${i + 1}`,
      secret: newSecret(),
    }));
    const customer = await withTenant(producer.db, company.id, async (tx) => {
      const row = await insertCustomer(tx, company.id, { email: 'bench@example.com', name: 'Bench Customer' });
      for (const endpoint of endpoints) {
        await tx.insert(webhookEndpoints).values({
          companyId: company.id,
          ...endpoint,
          events: ['*'],
          scopes: ['customers.read', 'deals.read'],
        });
      }
      return row;
    });
    const object = serializeCustomer(customer);
    if (opts.history > 0) {
      log(`history: ${opts.history} past events with their deliveries and attempts, then ANALYZE`);
      await seedHistory(url, company.id, opts.history, JSON.stringify({ object }));
    }
    const emit = (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) =>
      recordEvent(tx, company.id, {
        type: 'customer.updated',
        scope: 'customers.read',
        customerId: customer.id,
        object: { ...object, updated_at: new Date().toISOString() },
      });

    // 3. The worker, as the worker process runs it (its own pool, the tuned preset).
    const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', DATABASE_URL: url });
    const workerDb = createDb(url, 20);
    cleanups.push({ name: 'worker pool', run: () => workerDb.sql.end({ timeout: 5 }) });
    const tenantSql = createTenantPool(url, 2);
    cleanups.push({ name: 'worker tenant pool', run: () => tenantSql.end({ timeout: 5 }) });
    const runner = await startWorker(url, {
      ...workerDb,
      tenantSql,
      config,
      fileStorages: FileStorages.fromConfig(config),
      ...(await reminderWorkerDeps(config, workerDb.sql)),
    });
    cleanups.push({ name: 'worker', run: () => runner.stop() });

    // Producers in their own thread. Node 20 does not hand tsx's loader to worker threads: the thread loads the
    // TypeScript file through tsx's API.
    const producerThread = new Worker(
      `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ tsImport }) =>
         tsImport(${JSON.stringify(new URL('./webhooks-producer.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`,
      {
        eval: true,
        workerData: {
          url,
          companyId: company.id,
          customerId: customer.id,
          object,
          rate: opts.rate,
          producers: opts.producers,
        } satisfies ProducerInput,
      },
    );
    cleanups.push({ name: 'producer thread', run: () => producerThread.terminate() });
    /** The producer thread's next message that passes `pick`. */
    const fromProducer = <T>(pick: (m: ProducerMessage) => T | undefined) =>
      new Promise<T>((resolve, reject) => {
        const listener = (m: ProducerMessage) => {
          const value = pick(m);
          if (value === undefined) return;
          producerThread.off('message', listener);
          resolve(value);
        };
        producerThread.on('message', listener);
        producerThread.once('error', reject);
      });
    const producerTid = await fromProducer((m) => ('ready' in m ? m.tid : undefined));
    const cpuRoles: CpuRoles = { worker: threadId(), receiver: receiver.tid, producers: producerTid };
    const stopProducers = () => producerThread.postMessage('stop');
    process.on('SIGINT', stopProducers);
    cleanups.push({ name: 'producer signal', run: async () => process.off('SIGINT', stopProducers) });
    const produce = (seconds: number, startAt: number): Promise<ProducerOutput> => {
      const done = fromProducer((m) => ('done' in m ? m.done : undefined));
      producerThread.postMessage({ seconds, startAt } satisfies ProducerPhase);
      return done;
    };

    // 4a. Warm-up: the same load, not counted, so that the measured phase sees a running worker (compiled
    // code, open connections, prepared statements), as a worker in production does. Then its deliveries drain.
    if (opts.warmup > 0) {
      log(`warm-up: ${opts.rate} events/s for ${opts.warmup} s (not counted)`);
      const warm = await produce(opts.warmup, clock() + 200);
      const drained = await receiver.waitFor(
        warm.committed.map(([id]) => id),
        ENDPOINTS,
        opts.drainSeconds * 1000,
      );
      if (!drained) log('warm-up deliveries did not all arrive in time');
      await purgeJobs(url);
    }

    // 4b. Steady load: rate events/s for seconds s, each in its own committed transaction.
    const total = opts.rate * opts.seconds;
    const committedAt = new Map<string, number>();
    log(`steady load: ${opts.rate} events/s for ${opts.seconds} s (${opts.producers} producers)`);
    await resetStatementStats(url);
    const steadyStop = activitySampler(url);
    const steadyLoop = eventLoop.eventLoopUtilization();
    const steadyCpu = cpuMeter(cpuRoles);
    const steadyProfiler = opts.profile ? await startProfile('steady') : null;
    const t0 = clock() + 200;
    const output = await produce(opts.seconds, t0);
    for (const [id, at] of output.committed) committedAt.set(id, at);
    const { late, endAt: produceEnd } = output;
    const produced = committedAt.size;
    const producedSeconds = (produceEnd - t0) / 1000;
    const expected = produced * ENDPOINTS;
    await receiver.waitFor([...committedAt.keys()], ENDPOINTS, opts.drainSeconds * 1000);
    const steadyActivity = await steadyStop();
    const steadyLoopBusy = eventLoop.eventLoopUtilization(steadyLoop).utilization;
    const steadyCores = steadyCpu(await backendNames(url));
    const steadyStatements = await statementReport(url);
    if (steadyProfiler)
      log(`CPU profile of the worker's thread during the steady load: ${await steadyProfiler.stop()}`);
    const steadyArrivals = await receiver.collect();
    const steady = match(steadyArrivals, committedAt);
    const steadyResult = {
      rateTarget: opts.rate,
      seconds: opts.seconds,
      producers: opts.producers,
      eventsProduced: produced,
      eventsPerSecond: round(produced / producedSeconds, 1),
      producerLateOver100ms: late,
      deliveriesExpected: expected,
      deliveriesReceived: steady.received,
      duplicates: steady.duplicates,
      deliveriesPerSecond: round(steady.received / ((steady.last - steady.first) / 1000), 1),
      latencyMs: latencies(steady.lat),
      latencyP50P99MaxBySecond: latencyBySecond(steadyArrivals, committedAt, t0),
      drainAfterProducersMs: round(steady.last - produceEnd),
      databaseActivity: steadyActivity,
      workerEventLoopBusy: round(steadyLoopBusy, 2),
      cpuCores: steadyCores,
    };

    // Jobs still queued when the drain deadline passed would run during the next phase: drop them. (At most the
    // local queue's jobs, already held in memory, still run; their deliveries are not counted in the burst.)
    Object.assign(steadyResult, { leftoverJobsPurged: await purgeJobs(url) });

    // 5. Saturation: a burst of events committed at once; how fast do all their deliveries drain?
    let burstResult: Record<string, unknown> | null = null;
    if (opts.burst > 0 && !run.interrupted) {
      log(`saturation: ${opts.burst} events in one transaction`);
      await resetStatementStats(url);
      const burstIds: string[] = [];
      await withTenant(producer.db, company.id, async (tx) => {
        for (let i = 0; i < opts.burst; i++) burstIds.push(await emit(tx));
      });
      const commitAt = clock();
      const burstCommitted = new Map(burstIds.map((id) => [id, commitAt]));
      const burstStop = activitySampler(url);
      const burstLoop = eventLoop.eventLoopUtilization();
      const burstCpu = cpuMeter(cpuRoles);
      const profiler = opts.profile ? await startProfile('burst') : null;
      const burstExpected = opts.burst * ENDPOINTS;
      await receiver.waitFor(burstIds, ENDPOINTS, opts.burstDrainSeconds * 1000);
      const burstLoopBusy = eventLoop.eventLoopUtilization(burstLoop).utilization;
      const burstCores = burstCpu(await backendNames(url));
      if (profiler) log(`CPU profile of the worker's thread during the burst: ${await profiler.stop()}`);
      const burstActivity = await burstStop();
      const burstArrivals = await receiver.collect();
      const burst = match(burstArrivals, burstCommitted);
      const drainSeconds = (burst.last - commitAt) / 1000;
      burstResult = {
        events: opts.burst,
        deliveriesExpected: burstExpected,
        deliveriesReceived: burst.received,
        duplicates: burst.duplicates,
        complete: burst.received === burstExpected,
        drainSeconds: round(drainSeconds, 2),
        deliveriesPerSecond: round(burst.received / drainSeconds, 1),
        firstDeliveryMs: round(burst.first - commitAt),
        deliveriesPerSecondTimeline: timeline(burstArrivals, burstCommitted, commitAt),
        latencyMs: latencies(burst.lat),
        databaseActivity: burstActivity,
        // Share of the time the worker's thread (this one; the receiver and the producers have their own) was busy.
        workerEventLoopBusy: round(burstLoopBusy, 2),
        cpuCores: burstCores,
        cpuMicrosPerDelivery: cpuMicrosPer(burstCores, drainSeconds, burst.received),
        leftoverJobsPurged: await purgeJobs(url),
      };
    }

    // Let the jobs already held in the worker's local queue finish before it is stopped (bounded).
    for (let seen = -1, until = Date.now() + 10_000; Date.now() < until; ) {
      const count = await receiver.count();
      if (count === seen) break;
      seen = count;
      await sleep(1000);
    }

    // 5b. The sender alone: as many signed messages as the burst delivered, through the same sending code
    // (SSRF re-check, signing, undici, 16 in flight per endpoint) to the same receiver, with no job and no
    // database. The ceiling of any delivery design on this machine with this sender and this receiver.
    let senderAlone: Record<string, unknown> | null = null;
    if (opts.burst > 0 && !run.interrupted) {
      log(`sender alone: ${opts.burst * ENDPOINTS} signed messages, no database`);
      senderAlone = await sendAlone(endpoints, opts.burst, JSON.stringify({ object }), cpuRoles);
    }

    // 5c. The noop again, now that the run is over: this machine's speed drifts (other guests of the host)
    // by up to a factor 1.4 within minutes; the two numbers show how much, and the verdict takes the faster.
    if (opts.noopJobs > 0 && !run.interrupted) {
      log(`noop throughput again, tuned preset (${opts.noopJobs} jobs)`);
      noop.tunedAfter = await noopThroughput(url, opts.noopJobs, 'tuned');
    }

    // 6. Verdict.
    // The verdict is taken against the fastest batched noop measured (the stricter reading): the worker's own
    // settings (before and after the run) or Graphile Worker's documented ones.
    const rateOf = (...runs: (NoopRun | undefined)[]) => {
      const rates = runs.map((r) => r?.jobsPerSecond).filter((rate): rate is number => typeof rate === 'number');
      return rates.length > 0 ? Math.max(...rates) : null;
    };
    const noopAtWorkerSettings = rateOf(noop.tuned, noop.tunedAfter);
    const noopFastest = rateOf(noop.tuned, noop.tunedAfter, noop.documented);
    const saturationRate = (burstResult?.deliveriesPerSecond as number | undefined) ?? null;
    const ratio = noopFastest && saturationRate !== null ? saturationRate / noopFastest : null;
    const ratioAtWorkerSettings =
      noopAtWorkerSettings && saturationRate !== null ? saturationRate / noopAtWorkerSettings : null;
    const steadyRatio =
      noopFastest && steadyResult.deliveriesPerSecond ? steadyResult.deliveriesPerSecond / noopFastest : null;
    const senderRate = (senderAlone?.messagesPerSecond as number | undefined) ?? null;
    const senderRatio = noopFastest && senderRate !== null ? senderRate / noopFastest : null;
    // Issue 40's reading: the burst against the ceiling of its own sender on this machine in the same run, which
    // does not move with the noop's speed of the day.
    const burstOfSender = senderRate && saturationRate !== null ? saturationRate / senderRate : null;
    const p99 = steadyResult.latencyMs.p99;
    const targets = {
      throughput: {
        target: `saturation deliveries/s ≥ ${TARGET_RATIO * 100}% of the fastest batched noop jobs/s`,
        ratio: round(ratio, 3),
        ratioAtWorkerSettings: round(ratioAtWorkerSettings, 3),
        holds: ratio === null ? null : ratio >= TARGET_RATIO,
      },
      burstOfSender: {
        target: `saturation deliveries/s ≥ ${TARGET_RATIO * 100}% of the sender alone's messages/s`,
        ratio: round(burstOfSender, 3),
        holds: burstOfSender === null ? null : burstOfSender >= TARGET_RATIO,
      },
      latency: {
        target: `p99 ≤ ${TARGET_P99_MS} ms at ${TARGET_P99_RATE} events/s`,
        p99Ms: p99,
        measuredAtEventsPerSecond: steadyResult.eventsPerSecond,
        complete: steadyResult.deliveriesReceived === steadyResult.deliveriesExpected,
        holds:
          p99 === null
            ? null
            : p99 <= TARGET_P99_MS &&
              steadyResult.deliveriesReceived === steadyResult.deliveriesExpected &&
              opts.rate >= TARGET_P99_RATE,
      },
    };

    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      totalMemGiB: round(totalmem() / 2 ** 30, 1),
      platform: platform(),
      osRelease: release(),
      node: process.version,
      postgres: pgVersion,
      embeddedPostgres: embedded,
    };

    const fmt = (v: unknown) => (v === null || v === undefined ? '–' : String(v));
    const percent = (r: number | null) => (r === null ? null : `${(r * 100).toFixed(1)}%`);
    const rows: [string, unknown][] = [
      ['events produced', `${produced} (target ${total})`],
      ['achieved events/s', `${steadyResult.eventsPerSecond} (target ${opts.rate})`],
      ['deliveries expected/received', `${expected} / ${steady.received}`],
      ['deliveries/s (first→last)', steadyResult.deliveriesPerSecond],
      ['latency p50 / p90 / p99 / max ms', Object.values(steadyResult.latencyMs).map(fmt).join(' / ')],
      ['— saturation burst —', ''],
      ['burst events / deliveries', burstResult ? `${opts.burst} / ${burstResult.deliveriesReceived}` : null],
      ['burst drain s', burstResult?.drainSeconds],
      ['burst deliveries/s', saturationRate],
      [
        'burst latency p50 / p99 / max ms',
        burstResult
          ? [
              (burstResult.latencyMs as Latency).p50,
              (burstResult.latencyMs as Latency).p99,
              (burstResult.latencyMs as Latency).max,
            ]
              .map(fmt)
              .join(' / ')
          : null,
      ],
      ['burst CPU, cores', burstResult?.cpuCores ? cpuLine(burstResult.cpuCores as CpuUse) : null],
      ['burst connections open, most at once', connectionsLine(burstResult?.databaseActivity)],
      [
        `machine CPU µs per delivery / noop job (${WORKER_CONCURRENCY} / ${DOCUMENTED_CONCURRENCY} at once)`,
        `${fmt(burstResult?.cpuMicrosPerDelivery)} / ${fmt(noop.tuned?.cpuMicrosPerJob)} / ${fmt(noop.documented?.cpuMicrosPerJob)}`,
      ],
      ['— sender alone (no database) —', ''],
      ['messages/s', senderAlone?.messagesPerSecond],
      ['sender alone ÷ fastest batched noop', percent(senderRatio)],
      ['burst deliveries/s ÷ sender alone (issue 40: ≥ 50%)', percent(burstOfSender)],
      ['sender alone CPU, cores', senderAlone?.cpuCores ? cpuLine(senderAlone.cpuCores as CpuUse) : null],
      ['machine CPU µs per message', senderAlone?.cpuMicrosPerMessage],
      ['— Graphile Worker noop —', ''],
      [
        `noop jobs/s, worker's settings, before / after`,
        `${fmt(noop.tuned?.jobsPerSecond)} / ${fmt(noop.tunedAfter?.jobsPerSecond)}`,
      ],
      ['noop jobs/s, default settings', noop.default?.jobsPerSecond],
      ['noop jobs/s, Graphile Worker’s documented settings', noop.documented?.jobsPerSecond],
      ['— targets —', ''],
      ['saturation deliveries/s ÷ fastest batched noop', percent(ratio)],
      ["saturation deliveries/s ÷ worker's-settings noop", percent(ratioAtWorkerSettings)],
      ['steady deliveries/s ÷ fastest batched noop', percent(steadyRatio)],
      [
        `≥ ${TARGET_RATIO * 100}% of noop`,
        targets.throughput.holds === null ? '–' : targets.throughput.holds ? 'HOLDS' : 'MISSED',
      ],
      [
        `p99 ≤ ${TARGET_P99_MS} ms at ${TARGET_P99_RATE}/s`,
        targets.latency.holds === null ? '–' : targets.latency.holds ? 'HOLDS' : 'MISSED',
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log('');
    console.log(`Webhooks benchmark — ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v === '' ? '' : fmt(v)}`);
    console.log('');

    const result = {
      at: new Date().toISOString(),
      options: opts,
      machine,
      steady: steadyResult,
      saturation: burstResult,
      senderAlone,
      noop,
      targets,
      wallSeconds: round((Date.now() - started) / 1000, 1),
    };
    const dir = resolve('bench-results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `webhooks-${result.at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`result written to ${file}`);
    const statements = await statementReport(url);
    if (steadyStatements)
      console.log(`\nDatabase time by statement during the steady load (pg_stat_statements):\n${steadyStatements}`);
    if (statements) console.log(`\nDatabase time by statement during the burst (pg_stat_statements):\n${statements}`);
  } finally {
    await run.finish();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
