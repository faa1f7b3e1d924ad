// npm run bench:import [-- --customers 100000 --batch 100 --connections 4 --no-endpoint]
//
// Issue 41's import: N customers sent through POST /customers/batch (the real service in its own process:
// authentication, row-level security, validation, events and — with a webhook endpoint, the default — their
// fan-out jobs), then the same rows inserted by SQL as the table owner (multi-row INSERTs of the same size, over
// as many connections) into another company. Prints both rates and the ratio. The target is 5 000 customers per
// second through the API. Database: DATABASE_URL's server (a database of its own, dropped after) or an embedded
// PostgreSQL. See README.md.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import { createDb } from '../../src/db/client.ts';
import * as schema from '../../src/db/schema/index.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { prefixedId } from '../../src/ids.ts';
import { createCompany } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import { startChild } from './child.ts';
import { benchDatabase } from './database.ts';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '100' },
    connections: { type: 'string', default: '4' },
    'no-endpoint': { type: 'boolean', default: false },
  },
});
const total = Number(args.customers);
const batchSize = Number(args.batch);
const connections = Number(args.connections);
const withEndpoint = !args['no-endpoint'];
const log = (line: string) => console.log(`[bench:import] ${line}`);

const CITIES = ['Amsterdam', 'Rotterdam', 'Utrecht', 'Delft', 'Gouda', 'Zwolle', 'Breda', 'Leiden'];
/** The i-th customer of the import: realistic field sizes, every email distinct. */
const customerAt = (i: number) => ({
  email: `klant.${i}@import.example.nl`,
  name: `Klant ${i}`,
  phone: `+31 6 ${String(10_000_000 + i).slice(-8)}`,
  city: CITIES[i % CITIES.length] ?? null,
  country: 'NL',
  type: i % 3 === 0 ? ('business' as const) : ('individual' as const),
  company_name: i % 3 === 0 ? `Bedrijf ${i} B.V.` : null,
});

function batches(): ReturnType<typeof customerAt>[][] {
  const out: ReturnType<typeof customerAt>[][] = [];
  for (let start = 0; start < total; start += batchSize) {
    out.push(Array.from({ length: Math.min(batchSize, total - start) }, (_, k) => customerAt(start + k)));
  }
  return out;
}

/** Runs `work` over the batches with `connections` at once; seconds taken. */
async function timed(all: unknown[][], work: (batch: unknown[]) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < all.length) {
        const batch = all[next++];
        if (batch) await work(batch);
      }
    }),
  );
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function main() {
  const run = boundedRun(30 * 60 * 1000, log);
  try {
    const { url, pgVersion } = await benchDatabase('import', run.cleanups, log);
    const owner = createDb(url, connections + 1);
    run.cleanups.push({ name: 'owner pool', run: () => owner.sql.end({ timeout: 5 }) });
    const company = await createCompany(owner.db, { name: 'Import B.V.' });
    const { key } = await createKey(owner.db, { companyId: company.id, name: 'bench', scopes: [...ALL_SCOPES] });
    if (withEndpoint) {
      await withTenant(owner.db, company.id, (tx) =>
        tx.insert(schema.webhookEndpoints).values({
          companyId: company.id,
          id: prefixedId('we'),
          url: 'https://hooks.example.nl/crm',
          secret: newSecret(),
          events: ['*'],
          scopes: ['customers.read'],
        }),
      );
    }
    const api = await startChild(resolve('scripts/bench/serve-api.ts'), { DATABASE_URL: url, LOG_LEVEL: 'warn' });
    run.cleanups.push({ name: 'API server', run: api.stop });
    const all = batches();
    log(
      `${total} customers in ${all.length} batches of ${batchSize}, ${connections} at once; PostgreSQL ${pgVersion.split(' ')[1]}`,
    );
    log(`webhook endpoint: ${withEndpoint ? 'yes (a fan-out job per event is queued; no worker runs)' : 'no'}`);

    let failed = 0;
    const apiSeconds = await timed(all, async (items) => {
      const res = await fetch(`http://127.0.0.1:${api.port}/api/v1/customers/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items }),
      });
      const body = (await res.json()) as { counts?: { created: number } };
      if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${JSON.stringify(body)}`);
      failed += items.length - (body.counts?.created ?? 0);
    });
    const [counts] = await owner.sql<{ customers: number; events: number; jobs: number }[]>`
      select (select count(*)::int from customers where company_id = ${company.id}) as customers,
             (select count(*)::int from events where company_id = ${company.id}) as events,
             (select count(*)::int from graphile_worker._private_jobs j
               where j.payload->>'companyId' = ${company.id}) as jobs`;
    if (failed > 0 || counts?.customers !== total || counts?.events !== total) {
      throw new Error(`expected ${total} customers and events, got ${JSON.stringify(counts)} (${failed} not created)`);
    }

    // The same rows by SQL as the table owner: no security, no validation, no events; same statement size.
    const other = await createCompany(owner.db, { name: 'Owner SQL B.V.' });
    const sqlSeconds = await timed(all, async (items) => {
      await owner.sql`
        insert into customers (company_id, id, email, name, phone, city, country, type, company_name)
        select ${other.id}, gen_random_uuid(), email, name, phone, city, country, type, company_name
        from jsonb_to_recordset(${JSON.stringify(items)}::jsonb)
          as x(email text, name text, phone text, city text, country text, type text, company_name text)`;
    });
    const apiRate = total / apiSeconds;
    const sqlRate = total / sqlSeconds;
    log(
      `API batch upsert: ${apiSeconds.toFixed(1)} s, ${Math.round(apiRate)} customers/s (events ${counts.events}, fan-out jobs ${counts.jobs})`,
    );
    log(`owner SQL insert: ${sqlSeconds.toFixed(1)} s, ${Math.round(sqlRate)} customers/s`);
    log(
      `ratio API ÷ owner SQL: ${(apiRate / sqlRate).toFixed(2)}; target ≥ 5000/s through the API: ${apiRate >= 5000 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await run.finish();
  }
}

await main();
