import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import { createCompany, FEATURES, setFeatures, setRateLimits } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { type SlowUpload, slowUpload } from '../../test/harness/slow-upload.ts';
import { benchDatabase } from '../bench/database.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import {
  drillTenant,
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
    'quiet-seconds': { type: 'string', default: '20' },
    'attack-seconds': { type: 'string', default: '30' },
    rate: { type: 'string', default: '20' },
  },
});
const QUIET_MS = Number(args['quiet-seconds']) * 1000;
const ATTACK_MS = Number(args['attack-seconds']) * 1000;
const RATE = Number(args.rate);
const begun = Date.now();
const log = (line: string) => console.error(`[drill +${((Date.now() - begun) / 1000).toFixed(0)} s] ${line}`);

const run = boundedRun(QUIET_MS + ATTACK_MS + 5 * 60_000, log);
let code = 1;
try {
  const { url } = await benchDatabase('noisy', run.cleanups, log);
  const a = await drillTenant(url, run.cleanups, [...ALL_SCOPES]);
  await setFeatures(a.db, a.companyId, [...FEATURES]);
  const bCompany = await createCompany(a.db, { name: 'Lawaai BV', features: [...FEATURES] });
  const bKey = (await createKey(a.db, { companyId: bCompany.id, name: 'noisy', scopes: [...ALL_SCOPES] })).key;
  // The rate limits are not what this drill is about: neither company is held back by them.
  for (const id of [a.companyId, bCompany.id])
    await setRateLimits(a.db, id, { perMinute: 1_000_000, perHour: 1_000_000 });

  // B's webhook receiver answers after 9 s.
  await webhookReceiver(
    a.db,
    bCompany.id,
    (req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(204).end(), 9_000);
    },
    run.cleanups,
  );

  const env = { DATABASE_URL: url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'warn' };
  const api = await startService('api', env, run.cleanups);
  await startService('worker', env, run.cleanups);
  const base = api.base;
  const post = (key: string, path: string, body: unknown) =>
    request(`${base}${path}`, { key, method: 'POST', body: JSON.stringify(body), timeoutMs: 60_000 });
  const get = (key: string, path: string) => request(`${base}${path}`, { key, timeoutMs: 60_000 });
  const json = async (key: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: Record<string, unknown> };
  };

  // A: a customer to read and update, and a small quote for its PDF. B: its largest quote, sent, for its public link.
  const aCustomer = (await json(a.key, '/customers', { email: 'eva@deboer.example.nl', name: 'Eva de Boer' })).data;
  const aQuote = (
    await json(a.key, '/quotes', {
      customer_id: aCustomer.id,
      title: 'Kozijnen',
      items: [{ name: 'Kozijn schilderen', quantity: 2, unit_price: 120, tax_rate: 21 }],
    })
  ).data;
  const bCustomer = (await json(bKey, '/customers', { email: 'inkoop@groot.example.nl', name: 'Groot BV' })).data;
  const long = 'Levering en montage volgens bestek, inclusief afvoer van oud materiaal en eindschoonmaak. '.repeat(10);
  const bQuote = (
    await json(bKey, '/quotes', {
      customer_id: bCustomer.id,
      title: 'Renovatie kantoorpand',
      items: Array.from({ length: 200 }, (_, i) => ({
        name: `Post ${i + 1}`,
        description: long,
        quantity: 1 + (i % 7),
        unit_price: 95 + i,
        tax_rate: 21,
      })),
    })
  ).data;
  const sent = (await json(bKey, `/quotes/${bQuote.id}/send`, {})).data;
  const publicPdf = `${String(sent.public_url)}/pdf`;
  log(`API ${api.pid}; B's quote of 200 lines sent: ${publicPdf}`);

  // A's steady load: RATE requests a second of each kind in turn, and one small PDF a second.
  type Timed = Outcome & { phase: 'quiet' | 'attack'; kind: string };
  const aOutcomes: Timed[] = [];
  let phase: 'quiet' | 'attack' = 'quiet';
  let aRunning = true;
  let n = 0;
  const aKinds: Array<[string, () => Promise<Outcome>]> = [
    ['get', () => get(a.key, `/customers/${aCustomer.id}`)],
    ['list', () => get(a.key, '/customers?limit=25')],
    ['create', () => post(a.key, '/customers', { email: `a${n}.${Date.now()}@example.nl`, name: `Klant ${n}` })],
    ['me', () => get(a.key, '/me')],
  ];
  const aInFlight = new Set<Promise<void>>();
  const aLoad = (async () => {
    let nextPdf = Date.now();
    while (aRunning && !run.interrupted) {
      const [kind, send] = aKinds[n++ % aKinds.length];
      const at = phase;
      const p = send().then((o) => void aOutcomes.push({ ...o, phase: at, kind }));
      aInFlight.add(p);
      void p.finally(() => aInFlight.delete(p));
      if (Date.now() >= nextPdf) {
        nextPdf += 1000;
        const q = get(a.key, `/quotes/${aQuote.id}/pdf`).then(
          (o) => void aOutcomes.push({ ...o, phase: at, kind: 'pdf' }),
        );
        aInFlight.add(q);
        void q.finally(() => aInFlight.delete(q));
      }
      await sleep(1000 / RATE);
    }
    await Promise.all(aInFlight);
  })();

  await sleep(QUIET_MS);
  log(`quiet phase done (${aOutcomes.length} answers); B attacks for ${ATTACK_MS / 1000} s`);
  phase = 'attack';

  // B's attack, each part looping until the attack ends.
  const bOutcomes: Array<Outcome & { kind: string }> = [];
  let attacking = true;
  const loop = async (kind: string, send: () => Promise<Outcome>) => {
    while (attacking && !run.interrupted) {
      const o = await send();
      bOutcomes.push({ ...o, kind });
      if (o.status === 429 || o.status === 503) await sleep(Math.min(1000, Number(o.retryAfter ?? 1) * 1000));
    }
  };
  const uploads: SlowUpload[] = Array.from({ length: 25 }, () =>
    slowUpload(`${base}/quotes/${bQuote.id}/attachments`, bKey, { budget: 100_000 }),
  );
  const publicRender = async (): Promise<Outcome> => {
    const started = performance.now();
    try {
      const res = await fetch(publicPdf, { signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - started, retryAfter: res.headers.get('retry-after') };
    } catch (error) {
      return { status: 0, ms: performance.now() - started, retryAfter: null, error: String(error) };
    }
  };
  let batchNo = 0;
  const batch = () =>
    post(bKey, '/customers/batch', {
      items: Array.from({ length: 100 }, (_, i) => ({ email: `b${batchNo++}.${i}@example.nl`, name: `Lid ${i}` })),
    });
  let created = 0;
  const attack = [
    ...Array.from({ length: 8 }, () => loop('public_pdf', publicRender)),
    ...Array.from({ length: 2 }, () => loop('batch', batch)),
    ...Array.from({ length: 50 }, () => loop('search', () => get(bKey, '/customers?q=lid&limit=25'))),
    loop('webhook_create', () => post(bKey, '/customers', { email: `w${created++}@example.nl`, name: 'Webhook' })),
  ];
  await sleep(ATTACK_MS);
  attacking = false;
  aRunning = false;
  const uploadResults = await Promise.all(
    uploads.map(async (u) => {
      if (!u.answered()) u.abort();
      return u.result;
    }),
  );
  await Promise.all([...attack, aLoad]);
  const load = loadavg().map((l) => round(l, 2));

  const stats = (outcomes: Outcome[]) => {
    const ms = outcomes.map((o) => o.ms);
    return {
      requests: outcomes.length,
      p50Ms: round(percentile(ms, 50)),
      p99Ms: round(percentile(ms, 99)),
      errors: outcomes.filter((o) => o.status === 0 || o.status >= 400).length,
    };
  };
  const quiet = stats(aOutcomes.filter((o) => o.phase === 'quiet'));
  const underAttack = stats(aOutcomes.filter((o) => o.phase === 'attack'));
  const bStatuses: Record<string, Record<string, number>> = {};
  for (const o of bOutcomes) {
    const byStatus = bStatuses[o.kind] ?? {};
    byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    bStatuses[o.kind] = byStatus;
  }
  bStatuses.slow_upload = {};
  for (const r of uploadResults) {
    const status = r === 'aborted' ? 'aborted by the drill' : String(r.status);
    bStatuses.slow_upload[status] = (bStatuses.slow_upload[status] ?? 0) + 1;
  }
  const bareFiveXx = bOutcomes.filter((o) => o.status >= 500 && !o.retryAfter).length;
  const limitedWithout = bOutcomes.filter((o) => (o.status === 429 || o.status === 503) && !o.retryAfter).length;
  const aErrors = aOutcomes.filter((o) => o.status === 0 || o.status >= 400);
  const summary = { A: { quiet, underAttack }, B: bStatuses, loadAverage: load };
  console.log(JSON.stringify(summary, null, 2));
  for (const e of aErrors.slice(0, 5)) log(`A error: ${e.kind} ${e.status} ${e.error ?? ''}`);

  const failures: string[] = [];
  if (underAttack.p99Ms > 2 * quiet.p99Ms) failures.push(`A's p99 ${quiet.p99Ms} → ${underAttack.p99Ms} ms (over 2×)`);
  if (aErrors.length) failures.push(`${aErrors.length} errors for A`);
  if (bareFiveXx) failures.push(`${bareFiveXx} × 5xx for B without Retry-After`);
  if (limitedWithout) failures.push(`${limitedWithout} × 429/503 for B without Retry-After`);
  code = verdict(
    'drill:noisy-neighbour',
    failures,
    `A's p99 ${quiet.p99Ms} → ${underAttack.p99Ms} ms, 0 errors; B limited with Retry-After; load ${load.join(' ')}`,
  );
} catch (error) {
  console.error(error);
  console.log(`drill:noisy-neighbour fails: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await run.finish();
}
process.exit(code);
