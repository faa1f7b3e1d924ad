// Fault drill: the API process (`npm run api`, a child of this script) is killed with SIGKILL several times
// while a client makes `--creations` customer creations, each with its own Idempotency-Key, `--concurrency` at a
// time. A request without an answer (the connection died with the process) is sent again, with the same key and
// body, once the API is back — as an integrator's client retries. Afterwards every key is sent once more.
// Verdicts: exactly `--creations` customers exist, none twice (one per key) and none lost; every answer to a key
// names the same customer; every repeat after a success is the stored answer (Idempotent-Replayed: true).
// One JSON summary on stdout; exit 1 when a verdict fails.
//
//   npm run drill:api-kill [-- --creations 1000 --concurrency 16 --kills 4]
import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { createCompany } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { freePort, SERVICE_COMMAND } from '../../test/harness/processes.ts';
import { benchDatabase } from '../bench/database.ts';
import { boundedRun } from '../lib/bounded-run.ts';

const { values: args } = parseArgs({
  options: {
    creations: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '16' },
    kills: { type: 'string', default: '4' },
  },
});
const CREATIONS = Number(args.creations);
const CONCURRENCY = Number(args.concurrency);
const KILLS = Number(args.kills);
const log = (line: string) => console.error(`[drill] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const run = boundedRun(10 * 60_000, log);
const { url } = await benchDatabase('api_kill', run.cleanups, log);
const sql = postgres(url, { max: 2, onnotice: () => {} });
run.cleanups.push({ name: 'pool', run: () => sql.end({ timeout: 5 }) });
const db = drizzle(sql);
const company = await createCompany(db, { name: 'Drill BV' });
const { key } = await createKey(db, {
  companyId: company.id,
  name: 'drill',
  scopes: ['customers.write', 'customers.read'],
});
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;

let api: ChildProcess | undefined;
async function startApi(): Promise<void> {
  const [node, ...command] = SERVICE_COMMAND;
  const child = spawn(node as string, [...command, 'api'], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  api = child;
  const pid = child.pid;
  run.cleanups.push({
    name: `api ${pid}`,
    run: async () => pid && child.exitCode === null && child.signalCode === null && process.kill(pid, 'SIGKILL'),
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error('the API did not become ready within 60 s');
    await sleep(100);
  }
}

type Answer = { status: number; id: string | null; replayed: boolean };
const answers = new Map<number, Answer[]>();
let connectionFailures = 0;
let down = false;

async function create(i: number): Promise<Answer> {
  for (;;) {
    while (down) await sleep(50);
    try {
      const res = await fetch(`${base}/customers`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': `drill-${i}`,
        },
        body: JSON.stringify({ type: 'individual', name: `Klant ${i}`, email: `klant-${i}@drill.example.nl` }),
      });
      const body = (await res.json()) as { data?: { id?: string } };
      const answer = {
        status: res.status,
        id: body.data?.id ?? null,
        replayed: res.headers.get('idempotent-replayed') === 'true',
      };
      if (res.status === 503) {
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      answers.set(i, [...(answers.get(i) ?? []), answer]);
      return answer;
    } catch {
      // No answer: the process died under the request. Send it again, the same key and body.
      connectionFailures++;
      await sleep(50);
    }
  }
}

await startApi();
const started = Date.now();
const killAt = new Set(Array.from({ length: KILLS }, (_, k) => Math.floor(((k + 1) * CREATIONS) / (KILLS + 1))));
let next = 0;
const kills: number[] = [];
async function lane() {
  while (next < CREATIONS && !run.interrupted) {
    const i = next++;
    if (killAt.has(i) && api?.pid) {
      // Mid-stream: other lanes have requests in flight.
      down = true;
      process.kill(api.pid, 'SIGKILL');
      kills.push(i);
      await new Promise((r) => api?.once('exit', r));
      await startApi();
      down = false;
    }
    await create(i);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, lane));
const firstPassMs = Date.now() - started;

// Every key once more: the stored answer.
for (let i = 0; i < CREATIONS; i++) await create(i);

const [{ count }] = await sql<
  { count: number }[]
>`select count(*)::int from customers where company_id = ${company.id}`;
const [{ distinct }] = await sql<{ distinct: number }[]>`
  select count(distinct email)::int as distinct from customers where company_id = ${company.id}`;
let inconsistent = 0;
let notReplayed = 0;
let failed = 0;
/** Keys whose creation committed but whose answer died with the process: the retry got the stored answer. */
let lostAnswersReplayed = 0;
const ids = new Set<string>();
for (let i = 0; i < CREATIONS; i++) {
  const list = answers.get(i) ?? [];
  const created = list.filter((a) => a.status === 201);
  if (created.length === 0) failed++;
  const named = new Set(created.map((a) => a.id));
  if (named.size !== 1) inconsistent++;
  for (const id of named) if (id) ids.add(id);
  if (list.slice(1).some((a) => a.status === 201 && !a.replayed)) notReplayed++;
  if (list[0]?.replayed) lostAnswersReplayed++;
}
const summary = {
  creations: CREATIONS,
  kills: kills.length,
  connection_failures_retried: connectionFailures,
  first_pass_seconds: Math.round(firstPassMs / 100) / 10,
  customers: count,
  distinct_emails: distinct,
  distinct_ids_answered: ids.size,
  keys_without_success: failed,
  keys_with_two_different_answers: inconsistent,
  repeats_not_replayed: notReplayed,
  lost_answers_replayed: lostAnswersReplayed,
};
const holds =
  count === CREATIONS &&
  distinct === CREATIONS &&
  ids.size === CREATIONS &&
  failed === 0 &&
  inconsistent === 0 &&
  notReplayed === 0 &&
  kills.length === KILLS;
console.log(JSON.stringify(summary));
log(
  holds
    ? `holds: ${CREATIONS} creations through ${kills.length} kills -9: ${count} customers, 0 duplicated, 0 lost, every repeat the stored answer`
    : 'FAILS: see the summary',
);
await run.finish();
process.exit(holds ? 0 : 1);
