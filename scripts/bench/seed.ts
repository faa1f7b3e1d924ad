// Seeds a benchmark database fast, as the superuser (past row-level security), with set-based INSERT …
// SELECT over generate_series: companies with an API key each, customers with realistic-looking names,
// e-mail addresses, phone numbers and company names spread over two years, a note for about every other
// customer, a pipeline stage (unless the company has its default pipeline) and a deal for every fifth customer (when the deals table exists); then VACUUM ANALYZE.
import type postgres from 'postgres';
import { ALL_SCOPES } from '../../src/auth/scopes.ts';
import type { Db } from '../../src/db/client.ts';
import { createCompany } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';

const FIRST = [
  'Jan',
  'Anna',
  'Pieter',
  'Sanne',
  'Mohamed',
  'Fatima',
  'Lucas',
  'Emma',
  'Daan',
  'Julia',
  'Sem',
  'Sophie',
  'Noah',
  'Lotte',
  'Thomas',
  'Eva',
  'Bram',
  'Lisa',
  'Ruben',
  'Femke',
  'Hendrik',
  'Marieke',
  'Kees',
  'Ingrid',
  'Youssef',
  'Naima',
  'Lars',
  'Anouk',
  'Jeroen',
  'Saskia',
  'Willem',
  'Ilse',
  'Stefan',
  'Claire',
  'Mark',
  'Linda',
  'Bart',
  'Esther',
  'Tim',
  'Nicole',
  'Hans',
];
const LAST = [
  'de Jong',
  'Jansen',
  'de Vries',
  'van den Berg',
  'van Dijk',
  'Bakker',
  'Janssen',
  'Visser',
  'Smit',
  'Meijer',
  'de Boer',
  'Mulder',
  'de Groot',
  'Bos',
  'Vos',
  'Peters',
  'Hendriks',
  'van Leeuwen',
  'Dekker',
  'Brouwer',
  'de Wit',
  'Dijkstra',
  'Smits',
  'de Graaf',
  'van der Meer',
  'van der Linden',
  'Kok',
  'Jacobs',
  'de Haan',
  'Vermeulen',
  'van den Heuvel',
  'van der Veen',
  'van den Broek',
  'de Bruijn',
  'de Bruin',
  'van der Heijden',
  'Schouten',
  'Bergman',
  'Wolters',
];
const BUSINESS = [
  'Installatiebedrijf',
  'Bouwbedrijf',
  'Schildersbedrijf',
  'Loodgietersbedrijf',
  'Dakdekkersbedrijf',
  'Hoveniersbedrijf',
  'Elektrotechniek',
  'Klimaattechniek',
  'Timmerbedrijf',
  'Tegelzetter',
  'Glasbedrijf',
];
const CITIES = [
  'Amsterdam',
  'Rotterdam',
  'Den Haag',
  'Utrecht',
  'Eindhoven',
  'Groningen',
  'Tilburg',
  'Almere',
  'Breda',
  'Nijmegen',
  'Apeldoorn',
  'Haarlem',
  'Arnhem',
  'Enschede',
  'Amersfoort',
  'Zwolle',
  'Leiden',
  'Maastricht',
];
const DOMAINS = ['gmail.com', 'hotmail.com', 'outlook.com', 'ziggo.nl', 'kpnmail.nl', 'xs4all.nl', 'live.nl'];

/** Shares of the customers per company: one large tenant (the one benchmarked), two smaller ones. */
const SHARES = [0.5, 0.3, 0.2];

export type Seeded = {
  companies: { id: string; customers: number }[];
  key: string;
  counts: Record<string, number>;
  seconds: number;
};

const array = (values: string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`;

export async function seed(sql: postgres.Sql, db: Db, totalCustomers: number): Promise<Seeded> {
  const started = performance.now();
  const companies: Seeded['companies'] = [];
  for (const [i, share] of SHARES.entries()) {
    const company = await createCompany(db, { name: `Bench ${['Installaties', 'Bouw', 'Klimaat'][i]} BV` });
    companies.push({ id: company.id, customers: Math.round(totalCustomers * share) });
  }
  const { key } = await createKey(db, {
    companyId: companies[0].id,
    name: 'bench',
    scopes: [...ALL_SCOPES],
    expiresIn: 'never',
  });

  // g counts the customers of a company; created_at goes back from now, one customer every ~5 minutes.
  const insertCustomers = `
    insert into customers (company_id, id, type, status, name, email, phone, company_name, address, postal_code,
                           city, country, created_at, updated_at)
    select $1::uuid, gen_random_uuid(),
           case when g % 3 = 0 then 'business' else 'individual' end,
           case when g % 4 = 0 then 'customer' else 'lead' end,
           f.first || ' ' || l.last,
           lower(f.first) || '.' || replace(lower(l.last), ' ', '') || '.' || g || '@' ||
             (${array(DOMAINS)})[1 + g % ${DOMAINS.length}],
           '+31 6 ' || lpad(((g::bigint * 7919) % 100000000)::text, 8, '0'),
           case when g % 3 = 0 then (${array(BUSINESS)})[1 + (g / 7) % ${BUSINESS.length}] || ' ' || l.last end,
           'Dorpsstraat ' || (1 + g % 180),
           lpad((1000 + g % 8999)::text, 4, '0') || ' AB',
           (${array(CITIES)})[1 + (g / 3) % ${CITIES.length}],
           'NL',
           date_trunc('milliseconds', now() - make_interval(secs => g * 317.0)),
           date_trunc('milliseconds', now() - make_interval(secs => g * 317.0))
    from generate_series(1, $2::int) g,
         lateral (select (${array(FIRST)})[1 + g % ${FIRST.length}] as first) f,
         lateral (select (${array(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] as last) l`;
  // The trigram index (fastupdate off) would be updated row by row: dropped for the bulk load and built again
  // from its own definition, as CREATE INDEX on a filled table does (60 s -> 15 s for 200k customers).
  const [search] = await sql<{ indexdef: string }[]>`
    select indexdef from pg_indexes where schemaname = 'public' and indexname = 'customers_search'`;
  if (search) await sql`drop index customers_search`;
  for (const company of companies) await sql.unsafe(insertCustomers, [company.id, company.customers]);
  if (search) await sql.unsafe(search.indexdef);

  await sql.unsafe(`
    insert into notes (company_id, id, parent_type, customer_id, content, is_important, created_at, updated_at)
    select company_id, gen_random_uuid(), 'customer', id,
           'Gebeld over de offerte; terugbellen na ' || to_char(created_at + interval '3 days', 'DD-MM-YYYY') || '.',
           (abs(hashtext(id::text)) % 10 = 0), created_at + interval '1 hour', created_at + interval '1 hour'
    from customers where abs(hashtext(id::text)) % 2 = 0`);

  const [{ deals }] = await sql<{ deals: string | null }[]>`select to_regclass('public.deals')::text as deals`;
  if (deals) {
    await sql.unsafe(
      `
      insert into pipeline_stages (company_id, name_nl, name_en, position)
      select id, 'Nieuw', 'New', 1 from companies
      where id = any($1::uuid[]) and not exists (select from pipeline_stages p where p.company_id = companies.id)`,
      [companies.map((c) => c.id)],
    );
    await sql.unsafe(`
      insert into deals (company_id, id, title, value, currency, stage_id, customer_id, source, created_at, updated_at,
                         stage_changed_at)
      select c.company_id, gen_random_uuid(), 'Offerte ' || coalesce(c.company_name, c.name), (abs(hashtext(c.id::text)) % 20000)::numeric,
             'EUR', s.id, c.id, 'api', c.created_at + interval '2 hours', c.created_at + interval '2 hours',
             c.created_at + interval '2 hours'
      from customers c
      join pipeline_stages s on s.id = (select min(p.id) from pipeline_stages p
                                        where p.company_id = c.company_id and p.type = 'open')
                            and s.company_id = c.company_id
      where abs(hashtext(c.id::text)) % 5 = 0`);
  }
  // VACUUM too: a live database is vacuumed; without it autovacuum starts on the fresh rows during the runs.
  // CHECKPOINT: the load's dirty pages are written now, not by a checkpoint in the middle of a scenario.
  await sql.unsafe('vacuum analyze');
  await sql.unsafe('checkpoint');
  const counts: Record<string, number> = {};
  for (const table of ['customers', 'notes', ...(deals ? ['deals'] : [])]) {
    const [{ n }] = await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`);
    counts[table] = n;
  }
  return { companies, key, counts, seconds: (performance.now() - started) / 1000 };
}
