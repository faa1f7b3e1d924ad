// Drill: Mollie webhooks with duplicates and reordering (issue 52). The service (`npm start`: API and worker, a
// child of this script) and a fake of Mollie's API (test/harness/mollie.ts) run on 127.0.0.1; a company connects
// Mollie with the CLI's service function, `--invoices` invoices are sent and each is paid through "pay now" (its
// pay_url, 303 to the fake's checkout). Then `--webhooks` webhooks are posted, `--concurrency` at a time, in a
// shuffled order: a fifth of them while the payments are still open, the rest after every payment was paid,
// each payment named several times. With `--outage` Mollie answers 503 for the first half of the second wave:
// those webhooks are answered 200 `queued` and the worker's invoice_payment_sync jobs record them later.
// Verdicts: every invoice is `paid` with exactly one payment (its Mollie payment id) and exactly one
// `invoice.paid` event; no webhook was answered other than 200; `recorded` answers plus job recordings equal the
// invoices. One JSON summary on stdout; exit 1 when a verdict fails.
//
//   npm run drill:payments [-- --invoices 200 --webhooks 1000 --concurrency 32 --outage]
import { type ChildProcess, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.ts';
import { paymentSecretBox } from '../../src/payments/secret-box.ts';
import { createCompany } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { setPaymentProvider } from '../../src/services/payment-providers.ts';
import { startFakeMollie } from '../../test/harness/mollie.ts';
import { freePort, SERVICE_COMMAND } from '../../test/harness/processes.ts';
import { benchDatabase } from '../bench/database.ts';
import { boundedRun } from '../lib/bounded-run.ts';

const { values: args } = parseArgs({
  options: {
    invoices: { type: 'string', default: '200' },
    webhooks: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '32' },
    outage: { type: 'boolean', default: false },
  },
});
const INVOICES = Math.min(Number(args.invoices), 2000);
const WEBHOOKS = Math.min(Number(args.webhooks), 20_000);
const CONCURRENCY = Math.min(Number(args.concurrency), 128);
const log = (line: string) => console.error(`[drill] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const run = boundedRun(10 * 60_000, log);
const { url } = await benchDatabase('payments', run.cleanups, log);
const sql = postgres(url, { max: 2, onnotice: () => {} });
run.cleanups.push({ name: 'pool', run: () => sql.end({ timeout: 5 }) });
const db = drizzle(sql);

const mollie = await startFakeMollie();
run.cleanups.push({ name: 'fake Mollie', run: () => mollie.close() });
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const base = `${origin}/api/v1`;
const config = loadConfig({ DATABASE_URL: url, PUBLIC_URL: origin });

const company = await createCompany(db, { name: 'Drill Betalingen BV', language: 'nl' });
const { key } = await createKey(db, {
  companyId: company.id,
  name: 'drill',
  scopes: ['customers.write', 'invoices.write', 'invoices.read'],
});
const connected = await setPaymentProvider(
  db,
  company.id,
  { kind: 'mollie', apiKey: 'test_drillDrillDrillDrillDrillDrill12', baseUrl: mollie.apiUrl },
  await paymentSecretBox(config, sql),
  origin,
);
log(`Mollie connected; webhook ${connected.webhook_url}`);

let service: ChildProcess | undefined;
{
  const [node, ...command] = SERVICE_COMMAND;
  const child = spawn(node as string, [...command, 'start'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      LOG_LEVEL: 'error',
      // Each invoice is paid by a customer of its own: the drill names them in X-Forwarded-For, so that the online
      // pages' window (60 visits a minute per client address) counts them apart, as it would in production.
      TRUSTED_PROXIES: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  service = child;
  const pid = child.pid;
  run.cleanups.push({
    name: `service ${pid}`,
    run: async () => {
      if (!pid || child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
    },
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the service did not become ready within 90 s');
    await sleep(200);
  }
}
log(`service ready on ${origin} (pid ${service.pid})`);

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.data ?? {};
};

/** `count` tasks, `lanes` at a time. */
async function inLanes<T>(count: number, lanes: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, count) }, async () => {
      while (next < count && !run.interrupted) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

try {
  // 1. Invoices, sent, and each one's payment started through pay now.
  const setupStarted = Date.now();
  const invoices = await inLanes(INVOICES, 8, async (i) => {
    const customer = await api('POST', '/customers', { name: `Klant ${i}`, email: `klant-${i}@drill.example.nl` });
    const invoice = await api('POST', '/invoices', {
      customer_id: customer.id,
      title: `Schilderwerk ${i}`,
      items: [{ name: 'Werk', quantity: 1, unit_price: 50 + (i % 37), tax_rate: 21 }],
    });
    // Marked sent in the database: the send's email and PDF are not what this drill is about (and a render per
    // invoice would make the setup take minutes on two cores).
    await sql`update invoices set status = 'sent', sent_at = now() where company_id = ${company.id} and id = ${String(invoice.id)}`;
    const sent = await api('GET', `/invoices/${invoice.id}`);
    const customerAddress = `198.51.${100 + Math.floor(i / 250)}.${(i % 250) + 1}`;
    const pay = await fetch(String(sent.pay_url), {
      redirect: 'manual',
      headers: { 'x-forwarded-for': customerAddress },
    });
    const location = pay.headers.get('location') ?? '';
    if (pay.status !== 303 || !location.startsWith(mollie.origin))
      throw new Error(`pay now answered ${pay.status} ${location}`);
    return { id: String(invoice.id), paymentId: location.split('/').pop() ?? '' };
  });
  log(`${INVOICES} invoices sent and their payments started in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);

  // 2. The webhooks: each payment named several times, the whole list shuffled.
  const names = Array.from({ length: WEBHOOKS }, (_, i) => invoices[i % INVOICES]?.paymentId ?? '');
  const shuffle = <T>(list: T[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [list[i], list[j] as T] = [list[j] as T, list[i] as T];
    }
    return list;
  };
  shuffle(names);
  const early = names.slice(0, Math.floor(WEBHOOKS / 5));
  const late = names.slice(early.length);
  const outcomes = new Map<string, number>();
  const statuses = new Map<number, number>();
  const post = async (paymentId: string) => {
    const res = await fetch(connected.webhook_url ?? '', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id: paymentId }).toString(),
    });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const body = (await res.json().catch(() => ({}))) as { data?: { outcome?: string } };
    const outcome = body.data?.outcome ?? `status ${res.status}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  };
  const webhooksStarted = Date.now();
  await inLanes(early.length, CONCURRENCY, (i) => post(early[i] ?? ''));
  for (const invoice of invoices)
    mollie.settle(invoice.paymentId, 'paid', ['ideal', 'creditcard', 'bancontact'][invoice.id.charCodeAt(35) % 3]);
  if (args.outage) mollie.down('503');
  const half = Math.floor(late.length / 2);
  await inLanes(half, CONCURRENCY, (i) => post(late[i] ?? ''));
  mollie.down('up');
  await inLanes(late.length - half, CONCURRENCY, (i) => post(late[half + i] ?? ''));
  const webhookSeconds = (Date.now() - webhooksStarted) / 1000;
  log(`${WEBHOOKS} webhooks answered in ${webhookSeconds.toFixed(1)} s`);

  // 3. Queued syncs (an outage) are done by the worker: wait until none is left (at most two minutes).
  const settleDeadline = Date.now() + 120_000;
  for (;;) {
    const [{ left }] = await sql<{ left: number }[]>`
    select count(*)::int as left from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'invoice_payment_sync'`;
    const [{ unpaid }] = await sql<{ unpaid: number }[]>`
    select count(*)::int as unpaid from invoices where company_id = ${company.id} and status <> 'paid'`;
    if ((left === 0 && unpaid === 0) || Date.now() > settleDeadline) break;
    await sleep(500);
  }

  // 4. Verdicts, from the database.
  const perInvoice = await sql<
    { id: string; status: string; payments: number; provider_ids: number; paid_events: number }[]
  >`
  select i.id, i.status,
    (select count(*)::int from invoice_payments p where p.company_id = i.company_id and p.invoice_id = i.id) as payments,
    (select count(distinct p.provider_payment_id)::int from invoice_payments p
      where p.company_id = i.company_id and p.invoice_id = i.id and p.provider = 'mollie') as provider_ids,
    (select count(*)::int from events e where e.company_id = i.company_id and e.type = 'invoice.paid'
      and e.data->'object'->>'id' = i.id::text) as paid_events
  from invoices i where i.company_id = ${company.id}`;
  const notPaid = perInvoice.filter((r) => r.status !== 'paid').length;
  const notOnce = perInvoice.filter((r) => r.payments !== 1 || r.provider_ids !== 1).length;
  const eventsNotOnce = perInvoice.filter((r) => r.paid_events !== 1).length;
  const [{ recordedRows }] = await sql<{ recordedRows: number }[]>`
  select count(*)::int as "recordedRows" from provider_payments
  where company_id = ${company.id} and status = 'paid' and invoice_payment_id is not null`;
  const non200 = [...statuses].filter(([status]) => status !== 200).reduce((sum, [, n]) => sum + n, 0);
  const summary = {
    invoices: INVOICES,
    webhooks: WEBHOOKS,
    concurrency: CONCURRENCY,
    outage: args.outage,
    webhook_seconds: Math.round(webhookSeconds * 10) / 10,
    answers_by_status: Object.fromEntries(statuses),
    outcomes: Object.fromEntries(outcomes),
    mollie_calls: mollie.calls.length,
    invoices_not_paid: notPaid,
    invoices_not_paid_exactly_once: notOnce,
    invoices_without_exactly_one_paid_event: eventsNotOnce,
    provider_payments_recorded: recordedRows,
  };
  const holds =
    perInvoice.length === INVOICES &&
    notPaid === 0 &&
    notOnce === 0 &&
    eventsNotOnce === 0 &&
    recordedRows === INVOICES &&
    non200 === 0 &&
    (args.outage || outcomes.get('recorded') === INVOICES);
  console.log(JSON.stringify(summary));
  process.exitCode = holds ? 0 : 1;
  log(
    holds
      ? `holds: ${WEBHOOKS} webhooks (shuffled, duplicated${args.outage ? ', half of them during an outage' : ''}) for ${INVOICES} invoices: every invoice paid exactly once, one invoice.paid each, every answer 200`
      : 'FAILS: see the summary',
  );
} catch (error) {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  // The service and the fake are stopped whatever happened.
  await run.finish();
}
process.exit(process.exitCode ?? 0);
