// npm run bench:body-read [-- --seconds 5 --warmup 3 --rounds 5 --connections 10 --compare <dir> --only refused]
//
// What reading a small JSON body costs the service (issue 40): the real service (serve-api.ts: createApp on
// @hono/node-server) on its own database, loaded by autocannon on 127.0.0.1 with
// - `refused`: POST /customers with a 300-byte body whose e-mail address is invalid: read, size and media-type
//   rules, JSON, validation against the generated schema, a 422 — and no database work, so the body's share shows;
// - `create`: the same body valid, without Idempotency-Key (201: the write, its event and its jobs);
// - `keyed`: the same with an Idempotency-Key (201; the body's text is hashed with the key);
// - `get`: GET /me, no body: the pipeline without one, for scale.
// Each phase reports req/s and the server process's CPU per request (from /proc: more stable than req/s on a
// shared machine). `--compare <dir>` also starts another checkout's serve-api.ts (e.g. the commit before a change,
// unpacked with `git archive`, node_modules linked): both run at once, both are warmed up, and each scenario is
// measured on one right after the other (in alternating order), so the pair sees the same machine; the ratio of each
// pair is printed. `--profile` writes each server's CPU profile to bench-results/profiles/. Bounded: the whole run
// stops after its budget. See README.md.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import { createDb } from '../../src/db/client.ts';
import { createCompany } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import { type Child, startChild } from './child.ts';
import { benchDatabase } from './database.ts';

const SCENARIOS = ['refused', 'create', 'keyed', 'get'] as const;
type Scenario = (typeof SCENARIOS)[number];

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    compare: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const only = (args.only ? args.only.split(',') : [...SCENARIOS]) as Scenario[];
for (const name of only) if (!SCENARIOS.includes(name)) throw new Error(`unknown scenario ${name} (${SCENARIOS})`);

const log = (line: string) => console.log(`[body-read] ${line}`);
const here = resolve(import.meta.dirname, '../..');
const servers = [
  { name: 'this', dir: here },
  ...(args.compare ? [{ name: 'compare', dir: resolve(args.compare) }] : []),
];

// The servers' starts, every scenario's warm-up on each, then rounds of every scenario on each server.
const budgetMs = (servers.length * (only.length * (rounds * (seconds + 1) + warmup + 1) + 30) + 120) * 1000;
const run = boundedRun(budgetMs, log);

/** utime + stime of a process, in ms (/proc, Linux: 100 ticks a second). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

let sent = 0;
/** A customer of about 300 bytes of JSON; `valid: false` only makes its e-mail address invalid. */
function customerBody(valid: boolean): string {
  const n = ++sent;
  return JSON.stringify({
    email: valid ? `nieuw.${process.pid}.${n}@example.nl` : `nieuw.${process.pid}.${n} at example.nl`,
    type: 'business',
    name: `Eva de Boer ${n}`,
    phone: '+31 6 12345678',
    address: 'Dorpsstraat 12',
    city: 'Utrecht',
    postal_code: '3511 AB',
    country: 'NL',
    company_name: 'De Boer Installatietechniek B.V.',
    vat_number: 'NL123456789B01',
    coc_number: '12345678',
  });
}

function load(scenario: Scenario, key: string): { requests: autocannon.Request[]; expect: number } {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  if (scenario === 'get') return { expect: 200, requests: [{ method: 'GET', path: '/api/v1/me', headers }] };
  const post = (valid: boolean, keyed: boolean): autocannon.Request => ({
    method: 'POST',
    setupRequest: (r) => ({
      ...r,
      method: 'POST',
      path: '/api/v1/customers',
      headers: keyed ? { ...headers, 'idempotency-key': `body-read-${process.pid}-${sent + 1}` } : headers,
      body: customerBody(valid),
    }),
  });
  if (scenario === 'refused') return { expect: 422, requests: [post(false, false)] };
  return { expect: 201, requests: [post(true, scenario === 'keyed')] };
}

type Phase = { reqPerSec: number; cpuMicrosPerRequest: number; p50: number; p99: number; unexpected: number };

function cannon(url: string, scenario: Scenario, key: string, duration: number): Promise<autocannon.Result> {
  const { requests } = load(scenario, key);
  return new Promise((done, fail) =>
    autocannon({ url, connections, duration, requests, timeout: 10 }, (error, result) =>
      error ? fail(error) : done(result),
    ),
  );
}

async function phase(child: Child, scenario: Scenario, key: string, duration: number): Promise<Phase> {
  const url = `http://127.0.0.1:${child.port}`;
  const { expect } = load(scenario, key);
  // One by hand first: it must answer as expected before it is measured.
  const first = load(scenario, key).requests[0];
  const request = first.setupRequest ? (first.setupRequest as (r: object) => autocannon.Request)({}) : first;
  const res = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: request.body as string | undefined,
  });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`${scenario}: ${res.status}, not ${expect}: ${text.slice(0, 300)}`);
  const pid = child.process.pid as number;
  const cpuBefore = cpuMs(pid);
  const result = await cannon(url, scenario, key, duration);
  const cpu = cpuMs(pid) - cpuBefore;
  const expected = result['2xx'] + (expect === 422 ? result['4xx'] : 0);
  return {
    reqPerSec: Math.round(result.requests.average),
    cpuMicrosPerRequest: Math.round((cpu * 1000) / Math.max(1, result.requests.total)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    unexpected: result.requests.total - expected + result.errors + result.timeouts,
  };
}

try {
  const { url } = await benchDatabase('body', run.cleanups, log);
  const { db, sql } = createDb(url, 2);
  run.cleanups.push({ name: 'pool', run: () => sql.end({ timeout: 5 }) });
  const company = await createCompany(db, { name: 'Body Read BV' });
  const { key } = await createKey(db, {
    companyId: company.id,
    name: 'bench',
    scopes: [...ALL_SCOPES],
    expiresIn: 'never',
  });
  log(
    `${rounds} round(s) × ${servers.map((s) => s.name).join(' + ')} × ${only.join(', ')}: ${connections} connections, ${warmup} s warm-up + ${seconds} s each`,
  );
  const profileArgs = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(here, 'bench-results/profiles')}`] : [];
  const children = new Map<string, Child>();
  for (const server of servers) {
    const child = await startChild(join(server.dir, 'scripts/bench/serve-api.ts'), { DATABASE_URL: url }, profileArgs);
    run.cleanups.push({ name: `${server.name} server`, run: child.stop });
    children.set(server.name, child);
  }
  // Every server answers every scenario for the warm-up first (compiled code, open connections, cached key).
  for (const server of servers) {
    for (const scenario of only) await phase(children.get(server.name) as Child, scenario, key, warmup);
  }
  const results = new Map<string, Phase[]>();
  for (let round = 0; round < rounds && !run.interrupted; round++) {
    for (const scenario of only) {
      // The servers of one scenario one right after the other (the machine's load drifts), in alternating order.
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        const measured = await phase(children.get(server.name) as Child, scenario, key, seconds);
        results.set(`${server.name} ${scenario}`, [...(results.get(`${server.name} ${scenario}`) ?? []), measured]);
        log(
          `round ${round + 1} ${server.name.padEnd(7)} ${scenario.padEnd(7)} ${String(measured.reqPerSec).padStart(6)} req/s ` +
            `${String(measured.cpuMicrosPerRequest).padStart(5)} µs CPU/req  p50 ${measured.p50} ms  p99 ${measured.p99} ms` +
            (measured.unexpected ? `  ${measured.unexpected} unexpected answers/errors` : ''),
        );
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const scenario of only) {
    const of = (name: string) => results.get(`${name} ${scenario}`) ?? [];
    const line = servers
      .map((s) => {
        const phases = of(s.name);
        return `${s.name}: median ${median(phases.map((p) => p.reqPerSec))} req/s, ${median(phases.map((p) => p.cpuMicrosPerRequest))} µs CPU/req (req/s ${phases.map((p) => p.reqPerSec).join(' / ')}; µs ${phases.map((p) => p.cpuMicrosPerRequest).join(' / ')})`;
      })
      .join(' | ');
    log(`${scenario}: ${line}`);
    if (servers.length === 2) {
      // Each round's two phases ran back to back: their ratio is the comparison least moved by the machine's drift.
      const [a, b] = [of('this'), of('compare')];
      const cpu = a.map((p, i) => Math.round((p.cpuMicrosPerRequest / b[i].cpuMicrosPerRequest) * 100) / 100);
      const rate = a.map((p, i) => Math.round((p.reqPerSec / b[i].reqPerSec) * 100) / 100);
      log(
        `${scenario}: this ÷ compare per round: CPU/req ${cpu.join(' / ')} (median ${median(cpu)}); req/s ${rate.join(' / ')} (median ${median(rate)})`,
      );
    }
  }
} finally {
  await run.finish();
}
