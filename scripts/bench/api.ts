// npm run bench [-- --duration 10 --warmup 2 --connections 50 --customers 200000 --soak 300 --only get,list]
//                 [--search-terms 'berg,414,…' --term-seconds 5]
//
// The API as its users feel it, next to the limit of its own stack, in one run: every scenario runs twice, on
// the real service (row-level security, authentication, rate limiting, every header) and on its bare twin — a
// Hono + postgres.js route sending the same statements as the table owner (serve-baseline.ts) — both on a
// database seeded with 100k customers over 3 companies (and conversations, tasks and invoices of the first),
// loaded by autocannon on 127.0.0.1; the ratio API ÷ twin is judged against issue 40's targets. Without DATABASE_URL it starts an embedded PostgreSQL (fast mode) in a temporary directory; with
// DATABASE_URL it creates its own database on that server and drops it afterwards. See README.md.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type postgres from 'postgres';
import { createDb } from '../../src/db/client.ts';
import { freePort } from '../../test/harness/processes.ts';
import { collectGarbage } from '../drills/kit.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import { memoryOf, startChild } from './child.ts';
import { benchDatabase, type CountedStatement, statementCounter, statementReport } from './database.ts';
import { type PhaseWork, workMeter } from './process-work.ts';
import { seed } from './seed.ts';

const SCENARIOS = [
  'get',
  'list',
  'deep',
  'search',
  'create',
  'create-plain',
  'update',
  'conversations',
  'tasks',
  'invoices',
  'metadata',
  'metadata-common',
  'fields-exact',
  'fields-range',
  'fields-range-rare',
  'fields-select',
  'fields-q',
] as const;
/** The scenarios of custom fields (issue 51): their fields and values are seeded when one of them runs. */
const FIELD_SCENARIOS = ['fields-exact', 'fields-range', 'fields-range-rare', 'fields-select', 'fields-q'] as const;
type ScenarioName = (typeof SCENARIOS)[number];

/**
 * `q` terms measured one by one after the search scenario, on the seed's data (first names × last names, e-mail
 * addresses first.last.N@domain, phones +31 6 and 8 digits): common and rare name fragments, three digits of the
 * phones (~0.7% of the customers), digits written as a phone number, common and rare e-mail fragments, and
 * two-character terms (trigrams do not help them): common letters, digits, and letters in no customer at all
 * (the worst case: every row of the company is read).
 */
const SEARCH_TERMS = ['berg', 'noah visser', '414', '6 1234', 'gmail', '.4711@', 'an', '99', 'qx'];

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    'single-seconds': { type: 'string', default: '5' },
    customers: { type: 'string', default: '100000' },
    soak: { type: 'string', default: '0' },
    only: { type: 'string' },
    'search-terms': { type: 'string', default: SEARCH_TERMS.join(',') },
    'term-seconds': { type: 'string', default: '5' },
    label: { type: 'string', default: '' },
    turns: { type: 'string', default: '128' },
    compare: { type: 'string' },
    profile: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(`usage: npm run bench -- [--duration 10] [--warmup 2] [--connections 50] [--single-seconds 5]
       [--customers 100000] [--soak 300] [--only ${SCENARIOS.join(',')}] [--label text] [--profile]
       [--turns 128|default] [--compare <checkout of another commit>]
       [--search-terms ${SEARCH_TERMS.join(',')}] [--term-seconds 5]`);
  process.exit(0);
}
const int = (name: string, value: string | undefined, min: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min} (got ${value})`);
  return n;
};
const only = args.only ? args.only.split(',').map((s) => s.trim()) : [...SCENARIOS];
for (const name of only) {
  if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name} (${SCENARIOS})`);
}
const opts = {
  duration: int('duration', args.duration, 1),
  warmup: int('warmup', args.warmup, 0),
  connections: int('connections', args.connections, 1),
  singleSeconds: int('single-seconds', args['single-seconds'], 0),
  customers: int('customers', args.customers, 100),
  soak: int('soak', args.soak, 0),
  only: only as ScenarioName[],
  // With the search scenario: each term's latency alone (1 connection), one after the other.
  searchTerms: (args['search-terms'] ?? '').split(',').filter((t) => t !== ''),
  termSeconds: int('term-seconds', args['term-seconds'], 1),
  label: args.label ?? '',
  // API_REQUEST_TURNS of the API process. The bench loads one company; with the service's default (2 per core, a
  // company holding all but a quarter) those turns, not the work, cap its throughput. 'default' measures that.
  turns: args.turns === 'default' ? null : int('turns', args.turns, 2),
  profile: args.profile ?? false,
  // Another checkout (its node_modules linked): its API runs beside this one's on the same database, each scenario
  // on both, one right after the other — a before/after on the same machine load.
  compare: args.compare ? resolve(args.compare) : null,
};

// Issue 40: GET one ≥ 0.8 of its twin, list pages ≥ 0.75, POST create and PATCH ≥ 0.5 each (issue 30's were 0.75,
// 0.6 and 0.4 for writes together); from issue 30, the keyset page within 1.2× of the first, a search's own p50
// ≤ 30 ms, RSS flat.
const TARGETS = {
  getRatio: 0.8,
  listRatio: 0.75,
  createRatio: 0.5,
  updateRatio: 0.5,
  deepOverFirst: 1.2,
  searchP50Ms: 30,
  metadataP50Ms: 30,
  fieldsP50Ms: 30,
  soakGrowth: 0.1,
};
/** Rows of each further resource listed (conversations, tasks, invoices): one per this many customers. */
const RESOURCE_ROWS_PER_CUSTOMERS = 10;
const LIMIT = 50; // the API's default page size, used for both list scenarios
const SEARCH = 'berg'; // in van den Berg, Bergman and some e-mail addresses: a common substring

const log = (line: string) => console.log(`[bench] ${line}`);
const round = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined || Number.isNaN(n) ? null : Math.round(n * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------------------
// Load

type Request = autocannon.Request;
/** `settle` runs after each phase: a phase's end abandons the requests still in flight. */
type Load = { requests: autocannon.Request[]; expect: number; settle?: () => void };
type Measured = {
  reqPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
};

function cannon(url: string, load: Load, connections: number, seconds: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration: seconds, requests: load.requests, timeout: 10 },
      (error: Error | null, r: autocannon.Result) => {
        if (error) return reject(error);
        resolve({
          reqPerSec: Math.round(r.requests.average),
          p50: r.latency.p50,
          p90: r.latency.p90,
          p99: r.latency.p99,
          mean: round(r.latency.average, 2) ?? 0,
          max: r.latency.max,
          total: r.requests.total,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
        });
      },
    );
  });
}

/** One request of the load, by hand: it must answer as expected before it is measured. */
async function smoke(base: string, load: Load): Promise<void> {
  const template = load.requests[0];
  // One context for the request and its answer, as autocannon passes (PATCH keeps its ETag through it).
  const context = {};
  const req = template.setupRequest
    ? (template.setupRequest as (r: Request, c: object) => Request)({ ...template }, context)
    : template;
  const res = await fetch(`${base}${req.path}`, {
    method: req.method ?? 'GET',
    headers: req.headers as Record<string, string>,
    body: req.body as string | undefined,
  });
  const text = await res.text();
  if (res.status !== load.expect) {
    throw new Error(
      `${req.method ?? 'GET'} ${req.path} answered ${res.status}, not ${load.expect}: ${text.slice(0, 500)}`,
    );
  }
  if (typeof template.onResponse === 'function')
    template.onResponse(res.status, text, context, Object.fromEntries(res.headers));
}

type TermLatency = {
  term: string;
  requests: number;
  onFirstPage: number;
  more: boolean;
  p50: number;
  p90: number;
  mean: number;
};

/** Each term's search one request at a time for `seconds` (after 10 unmeasured): latency without queueing. */
async function measureTerms(base: string, headers: Record<string, string>, terms: string[], seconds: number) {
  const measured: TermLatency[] = [];
  for (const term of terms) {
    const url = `${base}/api/v1/customers?limit=${LIMIT}&q=${encodeURIComponent(term)}`;
    const once = async () => {
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`q=${term} answered ${res.status}: ${body.slice(0, 300)}`);
      return JSON.parse(body) as { data: unknown[]; meta: { next_cursor: string | null } };
    };
    for (let i = 0; i < 10; i++) await once();
    const times: number[] = [];
    let page = await once();
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until || times.length < 20) {
      const t0 = performance.now();
      page = await once();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    measured.push({
      term,
      requests: times.length,
      onFirstPage: page.data.length,
      more: page.meta.next_cursor !== null,
      p50: round(at(0.5), 1) ?? 0,
      p90: round(at(0.9), 1) ?? 0,
      mean: round(times.reduce((a, b) => a + b, 0) / times.length, 1) ?? 0,
    });
    log(`  q=${JSON.stringify(term)}: p50 ${measured.at(-1)?.p50} ms over ${times.length} requests`);
  }
  return measured;
}

// ---------------------------------------------------------------------------------------------------------
// The further listed resources of the benchmarked company: one task and one invoice made through the API (so
// that their board, statuses, numbering and JSON columns are the service's own), then copied by SQL, as the
// owner, to one row per RESOURCE_ROWS_PER_CUSTOMERS customers, spread over time like the customers;
// conversations straight from the customers (they have no creating operation). Then ANALYZE.

/** INSERT … SELECT copies of one row, `n` times, every column as it is except the `overrides` (SQL over `g`). */
async function copyRow(
  sql: postgres.Sql,
  table: string,
  id: string,
  n: number,
  overrides: Record<string, string>,
): Promise<void> {
  const columns = (
    await sql<{ column_name: string }[]>`
      select column_name from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
      order by ordinal_position`
  ).map((c) => c.column_name);
  const values = columns.map((c) => overrides[c] ?? `t.${c}`);
  await sql.unsafe(
    `insert into ${table} (${columns.join(', ')})
     select ${values.join(', ')} from ${table} t, generate_series(1, $2::int) g where t.id = $1`,
    [id, n],
  );
}

async function seedListedResources(
  sql: postgres.Sql,
  apiBase: string,
  headers: Record<string, string>,
  company: { id: string },
  customers: number,
): Promise<void> {
  const n = Math.max(1, Math.floor(customers / RESOURCE_ROWS_PER_CUSTOMERS));
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${apiBase}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return (JSON.parse(text) as { data: { id: string } }).data.id;
  };
  const [customer] = await sql<{ id: string }[]>`
    select id from customers where company_id = ${company.id} order by created_at desc limit 1`;
  const task = await post('/tasks', { title: 'Offerte nabellen', priority: 'high' });
  const invoice = await post('/invoices', {
    customer_id: customer.id,
    title: 'Onderhoud cv-ketel',
    items: [
      { name: 'Onderhoudsbeurt', quantity: 1, unit_price: 89.5, tax_rate: 21 },
      { name: 'Filter', quantity: 2, unit_price: 12.95, tax_rate: 21 },
      { name: 'Voorrijkosten', quantity: 1, unit_price: 35, tax_rate: 21 },
    ],
  });
  const spread = "date_trunc('milliseconds', now() - make_interval(secs => g * 3170.0))";
  await copyRow(sql, 'tasks', task, n, {
    id: 'gen_random_uuid()',
    title: "t.title || ' ' || g",
    position: 't.position + g',
    created_at: spread,
    updated_at: spread,
  });
  await copyRow(sql, 'invoices', invoice, n, {
    id: 'gen_random_uuid()',
    number: "t.number || '-' || g",
    created_at: spread,
    updated_at: spread,
  });
  // Closed conversations carry closed_at (a check constraint).
  await sql`
    insert into conversations (company_id, id, customer_id, channel, status, subject, message_count, last_message_at,
                               last_customer_message_at, contact_address, closed_at, created_at, updated_at)
    select company_id, gen_random_uuid(), id, (array['web', 'whatsapp', 'email'])[1 + abs(hashtext(id::text)) % 3],
           s.status, 'Vraag over offerte', 3, created_at + interval '1 day', created_at + interval '1 day', email,
           case when s.status = 'closed' then created_at + interval '2 days' end, created_at,
           created_at + interval '1 day'
    from customers,
         lateral (select (array['open', 'waiting_on_team', 'waiting_on_customer', 'closed'])
                           [1 + abs(hashtext(id::text)) % 4] as status) s
    where company_id = ${company.id} and abs(hashtext(id::text)) % ${RESOURCE_ROWS_PER_CUSTOMERS} = 0`;
  await sql.unsafe('analyze tasks, invoices, conversations');
  log(`listed resources: ${n} tasks, ${n} invoices and about as many conversations`);
}

/**
 * Metadata on every customer of the benchmarked company, as an integrator's sync would leave it (issue 51): its own
 * id `shop_id` (one customer each: the filter an integrator sends to find its record again) and a `tier` of four
 * values (a quarter of the customers each: a common value, the page filled from the index's candidates).
 */
const METADATA_TIERS = ['gold', 'silver', 'bronze', 'none'];
async function seedMetadata(sql: postgres.Sql, company: { id: string }): Promise<void> {
  // Every row of the company rewritten and indexed: longer than the pool's statement timeout allows.
  await sql.begin(async (tx) => {
    await tx`set local statement_timeout = 0`;
    await tx`
      update customers set metadata = jsonb_build_object(
        'shop_id', 'S-' || abs(hashtext(id::text)),
        'tier', (${METADATA_TIERS}::text[])[1 + abs(hashtext(email)) % 4])
      where company_id = ${company.id}`;
  });
  await sql.unsafe('analyze customers');
  log('metadata: shop_id and tier on every customer of the first company');
}

/**
 * Custom fields on every customer of the benchmarked company (issue 51), defined as the API would store them: a text
 * `account_code` of its own (one customer each: exact, and `q` for a rare term), a number `employees` spread evenly
 * over 0–9 999 (ranges: a tenth, and about ten customers) and a single select `tier` of four options (any-of two).
 */
async function seedCustomFields(sql: postgres.Sql, company: { id: string }): Promise<void> {
  const tiers = ['gold', 'silver', 'bronze', 'none'];
  const options = JSON.stringify(tiers.map((key) => ({ key, labels: { en: key } })));
  await sql`
    insert into custom_fields (company_id, id, resource, key, type, labels, decimals, options, position)
    values (${company.id}, gen_random_uuid(), 'customers', 'account_code', 'text', '{"en": "Account"}', null, null, 10),
           (${company.id}, gen_random_uuid(), 'customers', 'employees', 'number', '{"en": "Employees"}', 0, null, 20),
           (${company.id}, gen_random_uuid(), 'customers', 'tier', 'single_select', '{"en": "Tier"}', null,
            ${options}::text::jsonb, 30)`;
  // Every row of the company rewritten and indexed: longer than the pool's statement timeout allows.
  await sql.begin(async (tx) => {
    await tx`set local statement_timeout = 0`;
    await tx`
      update customers set custom_fields = jsonb_build_object(
        'account_code', 'ACC-' || abs(hashtext(id::text)),
        'employees', abs(hashtext(email)) % 10000,
        'tier', (${tiers}::text[])[1 + abs(hashtext(email || 't')) % 4])
      where company_id = ${company.id}`;
  });
  await sql.unsafe('analyze customers');
  log('custom fields: account_code, employees and tier on every customer of the first company');
}

// ---------------------------------------------------------------------------------------------------------

/** /proc/loadavg's three averages (1, 5, 15 minutes), as `uptime` prints them. */
const loadAverage = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return '?';
  }
};

type Work = { loaded: Measured; work: PhaseWork | null; statements: CountedStatement[] };

/** ms of CPU per request of the loaded phase (one process's, or its backends'), by the phase's completed requests. */
const perRequest = (w: Work, seconds: number | undefined) =>
  seconds === undefined || w.loaded.total === 0 ? null : round((seconds * 1000) / w.loaded.total, 3);

/** Per request: the statements the phase ran (calls, and execution + planning ms) over its completed requests. */
function statementsPerRequest(w: Work) {
  const n = w.loaded.total || 1;
  return w.statements.map((s) => ({
    calls: round(s.calls / n, 2) ?? 0,
    ms: round((s.execMs + s.planMs) / n, 3) ?? 0,
    planMs: round(s.planMs / n, 3) ?? 0,
    query: s.query,
  }));
}

/** The work table: CPU per request of each side's server, the API's worker and PostgreSQL's backends for each. */
function workReport(rows: { title: string; api: Work; bare: Work; before?: Work }[]): string {
  const head = [
    'CPU ms per request',
    'twin',
    'twin PG',
    'API',
    'worker',
    'API PG',
    'worker PG',
    'API÷twin',
    'PG÷twin PG',
    'stmts twin',
    'stmts API',
  ];
  const rowOf = (title: string, bare: Work, side: Work, server: 'api' | 'before') => {
    const twin = perRequest(bare, bare.work?.cpu.twin);
    const twinPg = perRequest(bare, bare.work?.postgres.twin);
    const api = perRequest(side, side.work?.cpu[server]);
    const worker = perRequest(side, side.work?.cpu.worker);
    const apiPg = perRequest(side, side.work?.postgres[server]);
    const workerPg = perRequest(side, side.work?.postgres.worker);
    const calls = (w: Work) =>
      w.statements.length
        ? round(
            statementsPerRequest(w).reduce((a, s) => a + s.calls, 0),
            2,
          )
        : null;
    const ratio = (a: number | null, b: number | null) => (a === null || !b ? null : round(a / b, 2));
    return [
      title,
      twin,
      twinPg,
      api,
      worker,
      apiPg,
      workerPg,
      ratio(api, twin),
      ratio(apiPg, twinPg),
      calls(bare),
      calls(side),
    ];
  };
  const table = rows.flatMap((r) => [
    rowOf(r.title, r.bare, r.api, 'api'),
    ...(r.before ? [rowOf('  before (--compare)', r.bare, r.before, 'before')] : []),
  ]);
  const fmt = (v: unknown) => (v === null || v === undefined ? '–' : String(v));
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => fmt(row[i]).length)));
  const line = (cells: unknown[]) =>
    cells.map((c, i) => (i === 0 ? fmt(c).padEnd(widths[i]) : fmt(c).padStart(widths[i]))).join('  ');
  const lines = [`  ${line(head)}`, ...table.map((row) => `  ${line(row)}`)];
  for (const r of rows) {
    if (!r.api.statements.length) continue;
    lines.push(`  ${r.title}: the API's statements per request (calls, ms of execution + planning)`);
    for (const st of statementsPerRequest(r.api).slice(0, 8))
      lines.push(`    ${String(st.calls).padStart(6)}×  ${st.ms.toFixed(3).padStart(7)} ms  ${st.query.slice(0, 150)}`);
  }
  return lines.join('\n');
}

async function main() {
  const started = Date.now();
  const loadAtStart = loadAverage();
  const runId = randomBytes(4).toString('hex');
  const perScenario = 2 * (opts.warmup + opts.duration + opts.singleSeconds) + 10;
  const termsSeconds = opts.only.includes('search') ? opts.searchTerms.length * (opts.termSeconds + 10) : 0;
  // Writing custom fields into every customer of the company (seedCustomFields) takes minutes on a busy machine.
  const fieldsSeconds = opts.only.some((name) => (FIELD_SCENARIOS as readonly string[]).includes(name)) ? 300 : 0;
  const run = boundedRun(
    (240 + perScenario * opts.only.length + termsSeconds + fieldsSeconds + opts.soak + 30) * 1000,
    log,
  );
  const { cleanups } = run;

  try {
    // Database: our own, on DATABASE_URL's server or on an embedded one.
    const {
      url,
      embedded,
      pgVersion,
      statements: counting,
      statementsWhy,
    } = await benchDatabase('api', cleanups, log, { statements: true });

    // Seed, as the superuser.
    log(`seeding ${opts.customers} customers over 3 companies`);
    const owner = createDb(url, 2);
    cleanups.push({ name: 'seed pool', run: () => owner.sql.end({ timeout: 5 }) });
    const seeded = await seed(owner.sql, owner.db, opts.customers);
    log(`seeded in ${seeded.seconds.toFixed(1)} s: ${JSON.stringify(seeded.counts)}`);
    const company = seeded.companies[0];
    const ids = (
      await owner.sql<{ id: string }[]>`
        select id from customers where company_id = ${company.id} order by random() limit 20000`
    ).map((r) => r.id);
    const getIds = ids.slice(0, Math.ceil(ids.length / 2));
    const updateIds = ids.slice(getIds.length);
    // A cursor deep in the set: where page after page of the default order (-created_at) would arrive at 90%.
    const [deepRow] = await owner.sql<{ created_at: string; id: string }[]>`
      select created_at, id from customers where company_id = ${company.id}
      order by created_at desc, id desc offset ${Math.floor(company.customers * 0.9)} limit 1`;
    const deepCursor = Buffer.from(
      JSON.stringify({ s: '-created_at', v: [new Date(deepRow.created_at).toISOString(), deepRow.id], d: 'n' }),
    ).toString('base64url');

    // Servers.
    const baseline = await startChild(resolve('scripts/bench/serve-baseline.ts'), {
      DATABASE_URL: url,
      COMPANY_ID: company.id,
    });
    cleanups.push({ name: 'baseline server', run: baseline.stop });
    const profileDir = resolve('bench-results/profiles');
    if (opts.profile) mkdirSync(profileDir, { recursive: true });
    // The soak reads the API's memory after a full collection, asked for through its inspector (collectGarbage).
    const inspectPort = opts.soak > 0 ? await freePort() : undefined;
    const apiStartedAt = performance.now();
    const turns: Record<string, string> = opts.turns === null ? {} : { API_REQUEST_TURNS: String(opts.turns) };
    const api = await startChild(
      resolve('scripts/bench/serve-api.ts'),
      { DATABASE_URL: url, LOG_LEVEL: 'warn', ...turns },
      [
        ...(opts.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
        ...(inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`]),
      ],
    );
    cleanups.push({ name: 'API server', run: api.stop });
    const apiPid = api.process.pid ?? 0;
    const before = opts.compare
      ? await startChild(join(opts.compare, 'scripts/bench/serve-api.ts'), {
          DATABASE_URL: url,
          LOG_LEVEL: 'warn',
          ...turns,
        })
      : null;
    if (before) cleanups.push({ name: 'API server to compare with', run: before.stop });
    // The worker apart, as production runs it (npm run worker): the jobs a write queues are done there, and its
    // CPU is counted apart from the API's.
    const worker = await startChild(resolve('scripts/bench/serve-worker.ts'), { DATABASE_URL: url, LOG_LEVEL: 'warn' });
    cleanups.push({ name: 'worker', run: worker.stop });
    const counter = counting ? statementCounter(owner.sql) : null;
    const processes = {
      api: apiPid,
      worker: worker.process.pid ?? 0,
      twin: baseline.process.pid ?? 0,
      bench: process.pid,
      ...(before ? { before: before.process.pid ?? 0 } : {}),
    };
    const rssSamples: { t: number; rss: number }[] = [];
    const sampler = setInterval(() => {
      const m = memoryOf(apiPid);
      if (m) rssSamples.push({ t: round((Date.now() - started) / 1000, 1) ?? 0, rss: round(m.rss, 1) ?? 0 });
    }, 1000);
    cleanups.push({ name: 'RSS sampler', run: async () => clearInterval(sampler) });
    const apiBase = `http://127.0.0.1:${api.port}`;
    const baselineBase = `http://127.0.0.1:${baseline.port}`;
    const auth = { authorization: `Bearer ${seeded.key}` };
    const json = { ...auth, 'content-type': 'application/json' };

    // Scenarios: each as a pair of loads, the API's and its bare twin's, with the same requests.
    await seedListedResources(owner.sql, apiBase, json, company, seeded.companies[0].customers);
    if (opts.only.some((name) => name.startsWith('metadata'))) await seedMetadata(owner.sql, company);
    // A customer's own shop_id, found through the filter (one match among the company's customers).
    const [shop] = opts.only.some((name) => name.startsWith('metadata'))
      ? await owner.sql<{ shop_id: string }[]>`
          select metadata->>'shop_id' as shop_id from customers where company_id = ${company.id}
          order by created_at limit 1 offset ${Math.floor(company.customers / 2)}`
      : [{ shop_id: '' }];
    const withFields = opts.only.some((name) => (FIELD_SCENARIOS as readonly string[]).includes(name));
    if (withFields) await seedCustomFields(owner.sql, company);
    // A customer's own account_code (one match), and the number of employees that about ten customers reach.
    const [account] = withFields
      ? await owner.sql<{ code: string }[]>`
          select custom_fields->>'account_code' as code from customers where company_id = ${company.id}
          order by created_at limit 1 offset ${Math.floor(company.customers / 2)}`
      : [{ code: '' }];
    const rareEmployees = 10_000 - Math.max(1, Math.round((10 * 10_000) / Math.max(1, company.customers)));
    const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)];
    let created = 0;
    const get = (prefix: string, headers: Record<string, string>): Load => ({
      expect: 200,
      requests: [{ headers, setupRequest: (r) => ({ ...r, path: `${prefix}/customers/${pick(getIds)}` }) }],
    });
    const list = (prefix: string, headers: Record<string, string>, query: string): Load => ({
      expect: 200,
      requests: [{ headers, path: `${prefix}${query}` }],
    });
    /** `keyed`: with an Idempotency-Key, as an integrator should send it; without, the issue's first measurement. */
    const create = (prefix: string, twin: string, keyed = true): Load => ({
      expect: 201,
      requests: [
        {
          method: 'POST',
          setupRequest: (r) => {
            const n = ++created;
            return {
              ...r,
              method: 'POST',
              path: `${prefix}/customers`,
              headers: keyed ? { ...json, 'idempotency-key': `bench-${runId}-${twin}-${n}` } : { ...json },
              body: JSON.stringify({
                email: `nieuw.${runId}.${twin}.${n}@example.nl`,
                name: `Nieuwe Klant ${n}`,
                phone: '+31 6 12345678',
              }),
            };
          },
        },
      ],
    });
    // Round robin over its own half of the update ids (the twins never change the same customer): no two
    // connections hold the same one at once, and each sends the ETag its previous PATCH of that customer got.
    // A request still in flight when a phase ends is abandoned (its answer, and so the new ETag, never arrives):
    // its customer is left out from then on.
    const update = (prefix: string, ids: string[]): Load => {
      const versions = new Map<string, number>(ids.map((id) => [id, 1]));
      const inFlight = new Set<string>();
      let next = 0;
      const nextId = () => {
        for (let i = 0; i < ids.length; i++) {
          const id = ids[next++ % ids.length];
          if (versions.has(id) && !inFlight.has(id)) return id;
        }
        throw new Error('every customer of the update scenario is in flight or left out');
      };
      return {
        expect: 200,
        settle: () => {
          for (const id of inFlight) versions.delete(id);
          inFlight.clear();
        },
        requests: [
          {
            method: 'PATCH',
            setupRequest: (r, context) => {
              const id = nextId();
              inFlight.add(id);
              (context as { id?: string }).id = id;
              return {
                ...r,
                method: 'PATCH',
                path: `${prefix}/customers/${id}`,
                headers: { ...json, 'if-match': `"${versions.get(id)}"` },
                body: JSON.stringify({ name: `Gewijzigd ${next}` }),
              };
            },
            onResponse: (status, _body, context, headers) => {
              const id = (context as { id?: string }).id;
              if (!id) return;
              inFlight.delete(id);
              const etag = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'etag')?.[1];
              if (status === 200 && etag) versions.set(id, Number(String(etag).replace(/"/g, '')));
            },
          },
        ],
      };
    };
    const half = Math.ceil(updateIds.length / 2);
    const API = '/api/v1';
    const page = `?limit=${LIMIT}`;
    /** A page of customers with the query, on both sides. */
    const customerQuery = (title: string, query: string) => ({
      title,
      api: list(`${API}/customers`, auth, `${page}&${encodeURI(query)}`),
      bare: list('/customers', {}, `${page}&${encodeURI(query)}`),
    });
    const pairs: Record<ScenarioName, { title: string; api: Load; bare: Load }> = {
      get: { title: 'GET one customer', api: get(API, auth), bare: get('', {}) },
      list: {
        title: 'customers, first page',
        api: list(`${API}/customers`, auth, page),
        bare: list('/customers', {}, page),
      },
      deep: {
        title: 'customers, cursor at 90%',
        api: list(`${API}/customers`, auth, `${page}&cursor=${deepCursor}`),
        bare: list('/customers', {}, `${page}&cursor=${deepCursor}`),
      },
      search: {
        title: `customers, q "${SEARCH}"`,
        api: list(`${API}/customers`, auth, `${page}&q=${SEARCH}`),
        bare: list('/customers', {}, `${page}&q=${SEARCH}`),
      },
      create: { title: 'POST customer + Idempotency-Key', api: create(API, 'api'), bare: create('', 'bare') },
      'create-plain': {
        title: 'POST customer, no Idempotency-Key',
        api: create(API, 'api-plain', false),
        bare: create('', 'bare-plain', false),
      },
      update: {
        title: 'PATCH customer + If-Match',
        api: update(API, updateIds.slice(0, half)),
        bare: update('', updateIds.slice(half)),
      },
      conversations: {
        title: 'conversations, first page',
        api: list(`${API}/conversations`, auth, page),
        bare: list('/conversations', {}, page),
      },
      tasks: { title: 'tasks, first page', api: list(`${API}/tasks`, auth, page), bare: list('/tasks', {}, page) },
      invoices: {
        title: 'invoices (lines, payments), first page',
        api: list(`${API}/invoices`, auth, page),
        bare: list('/invoices', {}, page),
      },
      metadata: {
        title: 'customers, metadata[shop_id] (1 match)',
        api: list(`${API}/customers`, auth, `${page}&metadata[shop_id]=${shop.shop_id}`),
        bare: list('/customers', {}, `${page}&metadata[shop_id]=${shop.shop_id}`),
      },
      'metadata-common': {
        title: 'customers, metadata[tier] (a quarter)',
        api: list(`${API}/customers`, auth, `${page}&metadata[tier]=gold`),
        bare: list('/customers', {}, `${page}&metadata[tier]=gold`),
      },
      'fields-exact': customerQuery(
        'custom text field, exact (1 match)',
        `filter[custom_fields.account_code]=${account.code}`,
      ),
      'fields-range': customerQuery('custom number field, gte (a tenth)', 'filter[custom_fields.employees][gte]=9000'),
      'fields-range-rare': customerQuery(
        'custom number field, gte (about 10)',
        `filter[custom_fields.employees][gte]=${rareEmployees}`,
      ),
      'fields-select': customerQuery('custom select, any of two (a half)', 'filter[custom_fields.tier]=gold,silver'),
      'fields-q': customerQuery('customers, q in a custom text field (1 match)', `q=${account.code.toLowerCase()}`),
    };

    type Twin = { loaded: Measured; single: Measured | null; work: PhaseWork | null; statements: CountedStatement[] };
    const measure = async (base: string, load: Load): Promise<Twin> => {
      const phase = async (connections: number, seconds: number) => {
        const measured = await cannon(base, load, connections, seconds);
        load.settle?.();
        return measured;
      };
      await smoke(base, load);
      if (opts.warmup > 0) await phase(opts.connections, opts.warmup);
      // The loaded phase's work: CPU per process from /proc, and the statements that ran (pg_stat_statements).
      await counter?.reset();
      const meter = workMeter(owner.sql, processes);
      const phaseStart = (performance.now() - apiStartedAt) / 1000;
      const loaded = await phase(opts.connections, opts.duration);
      const work = await meter();
      if (opts.profile && base === apiBase) {
        const end = (performance.now() - apiStartedAt) / 1000;
        log(
          `  the API's loaded phase in its profile: ${phaseStart.toFixed(1)} ${end.toFixed(1)} (profile-summary's from and to)`,
        );
      }
      const statements = counter ? (await counter.read()).slice(0, 60) : [];
      // The same request one at a time: its latency without queueing.
      const single = opts.singleSeconds > 0 ? await phase(1, opts.singleSeconds) : null;
      if (loaded.non2xx || loaded.errors)
        log(`  ! ${loaded.non2xx} non-2xx responses, ${loaded.errors} errors/timeouts`);
      return { loaded, single, work, statements };
    };
    const results: Partial<Record<ScenarioName, { title: string; api: Twin; bare: Twin; before?: Twin }>> = {};
    let terms: TermLatency[] = [];
    for (const name of opts.only) {
      const { title, api: apiLoad, bare: bareLoad } = pairs[name];
      log(`${title}: warm-up ${opts.warmup} s, ${opts.duration} s at ${opts.connections} connections, twin then API`);
      const bare = await measure(baselineBase, bareLoad);
      // With --compare, the two APIs take turns going first (the same loads: a PATCH's ETags carry over).
      const beforeBase = before ? `http://127.0.0.1:${before.port}` : null;
      const first = beforeBase && opts.only.indexOf(name) % 2 === 0 ? await measure(beforeBase, apiLoad) : undefined;
      const measured = await measure(apiBase, apiLoad);
      const compared = first ?? (beforeBase ? await measure(beforeBase, apiLoad) : undefined);
      results[name] = { title, api: measured, bare, ...(compared ? { before: compared } : {}) };
      log(
        `  twin ${bare.loaded.reqPerSec} req/s, API ${measured.loaded.reqPerSec} req/s` +
          (compared ? `, before ${compared.loaded.reqPerSec} req/s` : ''),
      );
      // Right after the search scenario, on the seeded customers: the creations after it (tens of thousands of
      // customers with no term in them, newest first) would be read by every rare term's scan too.
      if (name === 'search' && opts.searchTerms.length > 0) {
        log(`q terms one at a time, ${opts.termSeconds} s each: ${opts.searchTerms.join(', ')}`);
        terms = await measureTerms(apiBase, auth, opts.searchTerms, opts.termSeconds);
      }
    }
    const peakAfterScenarios = memoryOf(apiPid);

    // Soak: a mix of reads and writes for --soak seconds; is the service's RSS flat?
    let soak: Record<string, unknown> | null = null;
    if (opts.soak > 0) {
      log(`soak: ${opts.soak} s of GET / list / search / POST at ${opts.connections} connections`);
      const t0 = Date.now();
      // Every 15 s a full collection, then the RSS: the floor a leak would raise. Without it a heap that collects
      // every few minutes looks like growth while it waits (drill:soak, docs/drills.md).
      const collected: { t: number; rss: number; heap: number }[] = [];
      const progress = setInterval(() => {
        void collectGarbage(inspectPort ?? 0).then(
          ({ heapUsedMiB }) => {
            const m = memoryOf(apiPid);
            const t = Math.round((Date.now() - t0) / 1000);
            if (m) collected.push({ t, rss: round(m.rss, 1) ?? 0, heap: heapUsedMiB });
            if (t % 60 < 15) log(`  soak ${t} s: RSS ${m ? m.rss.toFixed(0) : '?'} MiB after a full collection`);
          },
          (error: unknown) => log(`  soak: no collection (${String(error)})`),
        );
      }, 15_000);
      const mix: Load = {
        expect: 200,
        requests: [
          ...pairs.get.api.requests,
          ...pairs.list.api.requests,
          ...pairs.get.api.requests,
          ...pairs.search.api.requests,
          ...pairs.create.api.requests,
        ],
      };
      const measured = await cannon(apiBase, mix, opts.connections, opts.soak);
      clearInterval(progress);
      const window = (a: number, b: number) => collected.filter((c) => c.t >= a && c.t < b).map((c) => c.rss);
      const floor = (xs: number[]) => (xs.length ? Math.min(...xs) : Number.NaN);
      // After the first 30 s (heap and caches warm), the floor of the first minute against that of the last.
      const early = floor(window(30, 90));
      const late = floor(window(opts.soak - 60, opts.soak + 5));
      const growth = (late - early) / early;
      soak = {
        seconds: opts.soak,
        load: measured,
        rssEarlyMiB: round(early),
        rssLateMiB: round(late),
        growth: round(growth, 3),
        flat: Number.isNaN(growth) ? null : growth <= TARGETS.soakGrowth,
        samples: collected,
      };
    }
    const memory = memoryOf(apiPid);
    const statements = await statementReport(url, 30);
    if (statements) log(`where the database time went (pg_stat_statements, twin and API together):\n${statements}`);

    // Report.
    const ratioOf = (r: { api: Twin; bare: Twin } | undefined) =>
      r && r.bare.loaded.reqPerSec > 0 ? round(r.api.loaded.reqPerSec / r.bare.loaded.reqPerSec, 2) : null;
    const rows = opts.only.map((name) => {
      const r = results[name];
      return {
        name,
        title: r?.title ?? name,
        bareReqPerSec: r?.bare.loaded.reqPerSec ?? null,
        reqPerSec: r?.api.loaded.reqPerSec ?? null,
        ratio: ratioOf(r),
        p50: r?.api.loaded.p50 ?? null,
        p99: r?.api.loaded.p99 ?? null,
        bareP99: r?.bare.loaded.p99 ?? null,
        singleP50: r?.api.single?.p50 ?? null,
        non2xx: r ? r.api.loaded.non2xx + r.api.loaded.errors + r.bare.loaded.non2xx + r.bare.loaded.errors : null,
        beforeReqPerSec: r?.before?.loaded.reqPerSec ?? null,
      };
    });
    const fmt = (v: unknown) => (v === null || v === undefined ? '–' : String(v));
    const head = [
      'scenario',
      'twin req/s',
      'API req/s',
      'ratio',
      'API p50',
      'API p99',
      'twin p99',
      '1-conn p50',
      'non-2xx',
      ...(opts.compare ? ['before req/s'] : []),
    ];
    const table = rows.map((r) => [
      r.title,
      r.bareReqPerSec,
      r.reqPerSec,
      r.ratio,
      r.p50,
      r.p99,
      r.bareP99,
      r.singleP50,
      r.non2xx,
      ...(opts.compare ? [r.beforeReqPerSec] : []),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => fmt(row[i]).length)));
    const line = (cells: unknown[]) =>
      cells.map((c, i) => (i === 0 ? fmt(c).padEnd(widths[i]) : fmt(c).padStart(widths[i]))).join('  ');

    const first = results.list?.api;
    const deep = results.deep?.api;
    const search = results.search?.api;
    const verdict = (ok: boolean | null) => (ok === null ? '–' : ok ? 'HOLDS' : 'MISSED');
    const ratioTarget = (names: ScenarioName[], min: number, what: string) => {
      const measured = names.filter((n) => results[n]).map((n) => ({ n, ratio: ratioOf(results[n]) ?? 0 }));
      return {
        target: `${what} ≥ ${min} × twin req/s`,
        value: measured.length ? Object.fromEntries(measured.map((m) => [m.n, m.ratio])) : null,
        holds: measured.length ? measured.every((m) => m.ratio >= min) : null,
      };
    };
    const targets = {
      getRatio: ratioTarget(['get'], TARGETS.getRatio, 'GET one'),
      listRatio: ratioTarget(['list', 'deep', 'conversations', 'tasks', 'invoices'], TARGETS.listRatio, 'list pages'),
      createRatio: ratioTarget(['create', 'create-plain'], TARGETS.createRatio, 'POST create'),
      updateRatio: ratioTarget(['update'], TARGETS.updateRatio, 'PATCH with If-Match'),
      deepPage: {
        target: `cursor at 90% ≤ ${TARGETS.deepOverFirst} × first page latency (mean, 1 connection and loaded)`,
        value:
          deep && first
            ? {
                single: round((deep.single?.mean ?? Number.NaN) / (first.single?.mean ?? Number.NaN), 2),
                loaded: round(deep.loaded.mean / first.loaded.mean, 2),
              }
            : null,
        holds:
          deep && first
            ? (deep.single && first.single ? deep.single.mean <= TARGETS.deepOverFirst * first.single.mean : true) &&
              deep.loaded.mean <= TARGETS.deepOverFirst * first.loaded.mean
            : null,
      },
      // The latency of a search itself (1 connection). Loaded, a p50 is queueing: by Little's law it is
      // connections ÷ req/s. The loaded value is reported, not judged.
      searchP50: {
        target: `q search p50 ≤ ${TARGETS.searchP50Ms} ms (the search's own latency: 1 connection; every term)`,
        value: search
          ? {
              single: search.single?.p50 ?? null,
              loaded: search.loaded.p50,
              slowestTerm: terms.length ? Math.max(...terms.map((t) => t.p50)) : null,
            }
          : null,
        holds: search?.single
          ? search.single.p50 <= TARGETS.searchP50Ms && terms.every((t) => t.p50 <= TARGETS.searchP50Ms)
          : null,
      },
      // The metadata filter's own latency (1 connection), as for a search: issue 51 asks ≤ 30 ms p50.
      metadataP50: {
        target: `metadata[key]=value p50 ≤ ${TARGETS.metadataP50Ms} ms (1 connection; one match and a quarter)`,
        value: Object.fromEntries(
          (['metadata', 'metadata-common'] as const).flatMap((n) => {
            const single = results[n]?.api.single;
            return single ? [[n, single.p50]] : [];
          }),
        ),
        holds: (['metadata', 'metadata-common'] as const).some((n) => results[n]?.api.single)
          ? (['metadata', 'metadata-common'] as const).every(
              (n) => !results[n]?.api.single || (results[n]?.api.single?.p50 ?? 0) <= TARGETS.metadataP50Ms,
            )
          : null,
      },
      // The custom-field filters' and `q`'s own latency (1 connection): issue 51 asks what the metadata filter does.
      fieldsP50: {
        target: `filter[custom_fields.<key>] and q on a field p50 ≤ ${TARGETS.fieldsP50Ms} ms (1 connection)`,
        value: Object.fromEntries(
          FIELD_SCENARIOS.flatMap((n) => {
            const single = results[n]?.api.single;
            return single ? [[n, single.p50]] : [];
          }),
        ),
        holds: FIELD_SCENARIOS.some((n) => results[n]?.api.single)
          ? FIELD_SCENARIOS.every(
              (n) => !results[n]?.api.single || (results[n]?.api.single?.p50 ?? 0) <= TARGETS.fieldsP50Ms,
            )
          : null,
      },
      rssFlat: {
        target: `API RSS flat over the soak (growth ≤ ${TARGETS.soakGrowth * 100}% of its floor after full collections, last minute vs first after warm-up)`,
        value: soak ? soak.growth : null,
        holds: soak ? (soak.flat as boolean | null) : null,
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
    let commit: string | null = null;
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {}

    console.log('');
    console.log(
      `API benchmark${opts.label ? ` (${opts.label})` : ''} — ${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, ` +
        `${opts.connections} connections, ${opts.duration} s each, ${seeded.counts.customers} customers`,
    );
    console.log(
      `  API_REQUEST_TURNS of the API process: ${opts.turns ?? 'the default (2 per core)'}; load average ${loadAtStart} at the start, ${loadAverage()} at the end`,
    );
    console.log(`  ${line(head)}`);
    for (const row of table) console.log(`  ${line(row)}`);
    console.log('');
    console.log(workReport(opts.only.flatMap((name) => (results[name] ? [results[name]] : []))));
    if (!counting) console.log(`  statements per request: not counted (${statementsWhy})`);
    console.log(
      `  API RSS: now ${fmt(round(memory?.rss))} MiB, peak ${fmt(round(memory?.peak))} MiB` +
        (soak
          ? `; soak ${soak.rssEarlyMiB} → ${soak.rssLateMiB} MiB (${((soak.growth as number) * 100).toFixed(1)}%)`
          : ''),
    );
    if (terms.length) {
      console.log(`  q terms, one request at a time (limit ${LIMIT}; ms):`);
      const width = Math.max(...terms.map((t) => JSON.stringify(t.term).length));
      for (const t of terms)
        console.log(
          `    ${JSON.stringify(t.term).padEnd(width)}  p50 ${String(t.p50).padStart(6)}  p90 ${String(t.p90).padStart(6)}` +
            `  mean ${String(t.mean).padStart(6)}  (${t.requests} requests; first page ${t.onFirstPage}${t.more ? '+' : ''})`,
        );
    }
    console.log('  targets:');
    for (const t of Object.values(targets))
      console.log(
        `    ${verdict(t.holds).padEnd(6)}  ${t.target}: ${fmt(typeof t.value === 'object' && t.value ? JSON.stringify(t.value) : t.value)}`,
      );
    console.log('');

    const result = {
      at: new Date().toISOString(),
      label: opts.label,
      commit,
      options: opts,
      machine,
      seed: { counts: seeded.counts, seconds: round(seeded.seconds, 1), companies: seeded.companies.length },
      load: { start: loadAtStart, end: loadAverage() },
      scenarios: results,
      searchTerms: terms,
      table: rows,
      memory: {
        peakMiB: round(memory?.peak),
        rssAfterScenariosMiB: round(peakAfterScenarios?.rss),
        samples: rssSamples.filter((_, i) => i % 5 === 0),
      },
      soak,
      targets,
      wallSeconds: round((Date.now() - started) / 1000, 1),
    };
    const dir = resolve('bench-results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `api-${result.at.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`result written to ${file} (${result.wallSeconds} s)`);
    if (opts.profile) log(`CPU profile of the API process in ${profileDir} (written when it stops)`);
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
