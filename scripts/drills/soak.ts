// Fault drill 4 (issue 29): a soak of mixed traffic. An API process and a worker process (children, stopped by
// their PID) on the drill's own database, a webhook endpoint on a receiver on 127.0.0.1, and a paced client at
// `--rate` requests a second for `--minutes`: a fifth creations (each an event, so a webhook delivery), two fifths
// single reads, two fifths list pages. Every `--sample-seconds` both processes get a full garbage collection
// through their inspector (started with --inspect on 127.0.0.1, collectGarbage), then their RSS (/proc) and heap
// in use are read, with the p99 of the interval. The first `--warmup-percent` of the run is not judged.
// Verdicts: RSS flat — for each process the floor of its RSS after the collection in the last third of the
// samples at most 10% above the floor of the first third (without the forced collection a heap that collects
// only every few minutes looks like growth while it waits: a 30-minute run failed so on 26 November with a flat
// sawtooth); p99 stable — the p99 of the last third of the requests at most 1.5 × the first third's (and the
// worst interval named); no error-level log line (pino level ≥ 50, or a failed job) from either process; no 5xx;
// every event delivered.
//
//   npm run drill:soak [-- --minutes 30 --rate 40 --sample-seconds 30 --warmup-percent 15]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { setRateLimits } from '../../src/services/companies.ts';
import { benchDatabase } from '../bench/database.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import {
  collectGarbage,
  drillTenant,
  errorLines,
  type Outcome,
  percentile,
  request,
  round,
  sleep,
  startService,
  verdict,
  webhookReceiver,
} from './kit.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '40' },
    'sample-seconds': { type: 'string', default: '30' },
    'warmup-percent': { type: 'string', default: '15' },
  },
});
const DURATION_MS = Number(args.minutes) * 60_000;
const RATE = Number(args.rate);
const SAMPLE_MS = Number(args['sample-seconds']) * 1000;
const WARMUP_MS = (DURATION_MS * Number(args['warmup-percent'])) / 100;
const begun = Date.now();
const log = (line: string) => console.error(`[drill +${((Date.now() - begun) / 1000).toFixed(0)} s] ${line}`);

/** Resident set size of a process in MiB (VmRSS of /proc/<pid>/status). */
function rssMiB(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return match ? round(Number(match[1]) / 1024) : 0;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const thirds = <T>(values: T[]) => {
  const n = Math.floor(values.length / 3);
  return { first: values.slice(0, n), last: values.slice(values.length - n) };
};

const run = boundedRun(DURATION_MS + 5 * 60_000, log);
let code = 1;
try {
  const { url, embedded } = await benchDatabase('soak', run.cleanups, log);
  const tenant = await drillTenant(url, run.cleanups, ['customers.read', 'customers.write']);
  await setRateLimits(tenant.db, tenant.companyId, { perMinute: 1_000_000, perHour: 1_000_000 });

  const arrivals = new Set<string>();
  let receiverTotal = 0;
  await webhookReceiver(
    tenant.db,
    tenant.companyId,
    (req, res) => {
      req.resume();
      req.on('end', () => {
        receiverTotal++;
        arrivals.add(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    },
    run.cleanups,
  );

  const env = { DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'warn' };
  const api = await startService('api', env, run.cleanups, { inspect: true });
  const worker = await startService('worker', env, run.cleanups, { inspect: true });
  log(
    `API ${api.pid}, worker ${worker.pid}${embedded ? ' (embedded PostgreSQL)' : ''}; ${RATE} requests/s for ${args.minutes} min`,
  );

  const outcomes: Array<Outcome & { at: number; kind: string }> = [];
  const created: string[] = [];
  const events: string[] = [];
  const samples: Array<{
    atS: number;
    apiMiB: number;
    workerMiB: number;
    apiHeapMiB: number;
    workerHeapMiB: number;
    p99Ms: number;
    requests: number;
  }> = [];
  const samplingErrors: string[] = [];
  /** Both processes' memory right after a full collection of each (collectGarbage), and the interval's p99. */
  const takeSample = async (atS: number, interval: Outcome[]) => {
    const [apiHeap, workerHeap] = await Promise.all([api, worker].map((p) => collectGarbage(p.inspectPort ?? 0)));
    const sample = {
      atS,
      apiMiB: rssMiB(api.pid),
      workerMiB: rssMiB(worker.pid),
      apiHeapMiB: apiHeap?.heapUsedMiB ?? 0,
      workerHeapMiB: workerHeap?.heapUsedMiB ?? 0,
      p99Ms: round(
        percentile(
          interval.map((o) => o.ms),
          99,
        ),
      ),
      requests: interval.length,
    };
    samples.push(sample);
    log(
      `after a full collection: RSS API ${sample.apiMiB} MiB (heap ${sample.apiHeapMiB}), worker ${sample.workerMiB} MiB (heap ${sample.workerHeapMiB}); p99 ${sample.p99Ms} ms of ${sample.requests}`,
    );
  };
  const started = Date.now();
  const until = started + DURATION_MS;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();

  const one = async (i: number) => {
    const at = Date.now();
    const pick = created.length < 10 ? 0 : i % 5;
    let outcome: Outcome;
    let kind: string;
    if (pick === 0) {
      kind = 'create';
      outcome = await request(`${api.base}/customers`, {
        key: tenant.key,
        method: 'POST',
        body: JSON.stringify({ name: `Klant ${i}`, email: `soak-${i}@drill.example.nl` }),
      });
      if (outcome.status === 201 && outcome.id) created.push(outcome.id);
    } else if (pick <= 2) {
      kind = 'read';
      const id = created[Math.floor(Math.random() * created.length)];
      outcome = await request(`${api.base}/customers/${id}`, { key: tenant.key });
    } else {
      kind = 'list';
      outcome = await request(`${api.base}/customers?limit=25`, { key: tenant.key });
    }
    outcomes.push({ ...outcome, at, kind });
  };

  // Paced: request i starts at started + i / RATE seconds, whatever the answers take (an open loop).
  let sampledUpTo = 0;
  let nextSample = started + SAMPLE_MS;
  while (Date.now() < until && !run.interrupted) {
    const due = started + (sent * 1000) / RATE;
    if (Date.now() < due) await sleep(due - Date.now());
    const p = one(sent++).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (Date.now() >= nextSample) {
      const interval = outcomes.slice(sampledUpTo);
      sampledUpTo = outcomes.length;
      const atS = Math.round((Date.now() - started) / 1000);
      // Not awaited: the collections take a moment, and the paced requests must go on meanwhile.
      const taken = takeSample(atS, interval).catch((error) => {
        samplingErrors.push(String(error));
      });
      inFlight.add(taken);
      void taken.finally(() => inFlight.delete(taken));
      nextSample += SAMPLE_MS;
    }
  }
  await Promise.all(inFlight);

  // The events of the creations, then their deliveries (at most a minute).
  const rows = await tenant.sql<{ id: string }[]>`
    select id from events where company_id = ${tenant.companyId} and type = 'customer.created'`;
  events.push(...rows.map((r) => r.id));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(250))
    if (events.every((id) => arrivals.has(id))) break;
  const undelivered = events.filter((id) => !arrivals.has(id)).length;

  const judged = samples.filter((s) => s.atS * 1000 >= WARMUP_MS);
  const rss = (which: 'apiMiB' | 'workerMiB' | 'apiHeapMiB' | 'workerHeapMiB') => {
    const { first, last } = thirds(judged.map((s) => s[which]));
    const floor = (values: number[]) => (values.length ? Math.min(...values) : 0);
    const ratio = floor(first) ? floor(last) / floor(first) : 1;
    return {
      firstThirdFloorMiB: floor(first),
      lastThirdFloorMiB: floor(last),
      change: `${round((ratio - 1) * 100)}%`,
      firstThirdMeanMiB: round(mean(first)),
      lastThirdMeanMiB: round(mean(last)),
      ratio,
    };
  };
  const apiRss = rss('apiMiB');
  const workerRss = rss('workerMiB');
  const heaps = { api: rss('apiHeapMiB'), worker: rss('workerHeapMiB') };
  const judgedOutcomes = outcomes.filter((o) => o.at - started >= WARMUP_MS);
  const { first: firstRequests, last: lastRequests } = thirds(judgedOutcomes);
  const p99First = round(
    percentile(
      firstRequests.map((o) => o.ms),
      99,
    ),
  );
  const p99Last = round(
    percentile(
      lastRequests.map((o) => o.ms),
      99,
    ),
  );
  const worstInterval = judged.reduce((a, b) => (b.p99Ms > a.p99Ms ? b : a), judged[0] ?? samples[0]);
  const errors = [...errorLines(api.output()), ...errorLines(worker.output())];
  const failedJobs = worker
    .output()
    .split('\n')
    .filter((l) => /Failed task|failed permanently/i.test(l));
  const fiveXx = outcomes.filter((o) => o.status >= 500).length;
  const unanswered = outcomes.filter((o) => o.status === 0).length;
  const statuses = Object.fromEntries(
    [...new Set(outcomes.map((o) => o.status))].map((s) => [s, outcomes.filter((o) => o.status === s).length]),
  );
  const summary = {
    minutes: Number(args.minutes),
    rate: RATE,
    requests: outcomes.length,
    statuses,
    p50Ms: round(
      percentile(
        outcomes.map((o) => o.ms),
        50,
      ),
    ),
    p99Ms: round(
      percentile(
        outcomes.map((o) => o.ms),
        99,
      ),
    ),
    p99FirstThirdMs: p99First,
    p99LastThirdMs: p99Last,
    worstInterval,
    rss: { api: apiRss, worker: workerRss },
    heapAfterCollection: heaps,
    samplingErrors,
    events: events.length,
    undelivered,
    receiverArrivals: receiverTotal,
    errorLogLines: errors.length,
    failedJobs: failedJobs.length,
    samples,
  };
  console.log(JSON.stringify(summary, null, 2));
  for (const line of [...errors, ...failedJobs].slice(0, 5)) log(`error line: ${line.slice(0, 300)}`);

  const failures: string[] = [];
  if (samplingErrors.length) failures.push(`${samplingErrors.length} samples failed: ${samplingErrors[0]}`);
  if (judged.length < 3) failures.push(`only ${judged.length} samples after the warm-up: run longer`);
  for (const [name, r] of [
    ['API', apiRss],
    ['worker', workerRss],
  ] as const)
    if (r.ratio > 1.1)
      failures.push(`${name} RSS floor ${r.firstThirdFloorMiB} → ${r.lastThirdFloorMiB} MiB (${r.change})`);
  if (p99Last > 1.5 * p99First) failures.push(`p99 ${p99First} → ${p99Last} ms`);
  if (errors.length) failures.push(`${errors.length} error-level log lines`);
  if (failedJobs.length) failures.push(`${failedJobs.length} failed jobs`);
  if (fiveXx) failures.push(`${fiveXx} answers 5xx`);
  if (unanswered) failures.push(`${unanswered} requests without an answer`);
  if (undelivered) failures.push(`${undelivered} of ${events.length} events not delivered`);
  code = verdict(
    'drill:soak',
    failures,
    `${outcomes.length} requests in ${args.minutes} min: RSS API ${apiRss.change}, worker ${workerRss.change}; p99 ${p99First} → ${p99Last} ms; ${events.length} events delivered; 0 error lines, 0 × 5xx`,
  );
} catch (error) {
  console.error(error);
  console.log(`drill:soak fails: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await run.finish();
}
process.exit(code);
