import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { definerBypassesRls, definerCallPlans } from '../../harness/definer-plans.ts';

let api: TestApi;
let a: { key: string; companyId: string };
let b: { key: string; companyId: string };
const mine: Record<string, string> = {};

const define = (key: string, body: Record<string, unknown>) =>
  api.call('createCustomField', { key, body: { resource: 'customers', labels: { en: 'F' }, ...body } });

const options = [
  { key: 'goud', labels: { nl: 'Goud', en: 'Gold' } },
  { key: 'zilver', labels: { nl: 'Zilver', en: 'Silver', de: 'Silber' } },
];

/** The ids of every page of the search, following next_cursor. */
async function searchAll(key: string, q: string, limit = 25) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await api.call('listCustomers', { key, query: { q, limit, cursor } });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((c: { id: string }) => c.id));
    cursor = res.body.meta.next_cursor ?? undefined;
    if (!cursor) return ids;
  }
}

beforeAll(async () => {
  api = await setupApi();
  a = await api.tenant();
  b = await api.tenant();
  for (const [key, type] of [
    ['branch', 'text'],
    ['notes', 'long_text'],
    ['billing_email', 'email'],
    ['site', 'url'],
    ['mobile', 'phone'],
    ['since', 'date'],
    ['revenue', 'money'],
  ]) {
    expect((await define(a.key, { key, type })).status).toBe(201);
  }
  expect((await define(a.key, { key: 'tier', type: 'single_select', options })).status).toBe(201);
  expect((await define(a.key, { key: 'badges', type: 'multi_select', options })).status).toBe(201);
  expect((await define(b.key, { key: 'branch', type: 'text' })).status).toBe(201);
  const people: Record<string, Record<string, unknown>> = {
    branch: { branch: 'Vestiging Kralingen' },
    notes: { notes: 'Belt liever op dinsdag.\nSleutel bij de buren' },
    email: { billing_email: 'Facturen@Zeeburg.example' },
    site: { site: 'https://www.molenwiek.example/contact' },
    mobile: { mobile: '+31612398765' },
    dated: { since: '2019-07-04', revenue: '4321.00' },
    tier: { tier: 'zilver' },
    badges: { badges: ['goud'] },
  };
  for (const [label, custom_fields] of Object.entries(people)) {
    const res = await api.call('createCustomer', {
      key: a.key,
      body: { email: `${label}@klant.example`, name: `Klant ${label}`, custom_fields },
    });
    expect(res.status).toBe(201);
    mine[label] = res.body.data.id;
    // A month old: behind the first rows a search reads, so a rare term is asked of the index.
    await api.sql`update customers set created_at = now() - interval '30 days' where id = ${mine[label]}`;
  }
  const theirs = await api.call('createCustomer', {
    key: b.key,
    body: { email: 'x@b.example', name: 'B', custom_fields: { branch: 'Vestiging Kralingen' } },
  });
  expect(theirs.status).toBe(201);
  // 600 newer customers with custom values that match none of the terms (dates in strings among them).
  await api.sql`
    insert into customers (company_id, id, type, status, name, email, custom_fields, created_at, updated_at)
    select ${a.companyId}, gen_random_uuid(), 'individual', 'lead', 'Vulling ' || g, 'vulling' || g || '@x.example',
           jsonb_build_object('branch', 'Filiaal ' || g, 'since', '2024-01-' || lpad((g % 28 + 1)::text, 2, '0')),
           now() - make_interval(mins => g), now() - make_interval(mins => g)
    from generate_series(1, 600) g`;
  await api.sql`vacuum analyze customers`;
});

describe('q in custom fields', () => {
  it.each([
    ['kralingen', 'branch', 'a text field, other case'],
    ['sleutel bij', 'notes', 'a long text, on its second line'],
    ['facturen@zee', 'email', 'an email field'],
    ['molenwiek.example/con', 'site', 'a URL field'],
    ['612398', 'mobile', 'a phone field'],
    ['6-1239 8765', 'mobile', 'the digits of a phone field written otherwise'],
    ['zilver', 'tier', "a single select's option key"],
    ['silber', 'tier', "a single select's option label in another language"],
    ['gold', 'badges', "a multi-select's option label"],
  ])('%s finds the customer by %s (%s)', async (q, label) => {
    expect(await searchAll(a.key, q)).toEqual([mine[label]]);
  });

  it('dates and money are not searched; a term in no field finds nothing', async () => {
    expect(await searchAll(a.key, '2019-07')).toEqual([]);
    expect(await searchAll(a.key, '4321')).toEqual([]);
    expect(await searchAll(a.key, 'xylofoon')).toEqual([]);
  });

  it('a common term is answered by the scan and still exact', async () => {
    const found = await searchAll(a.key, 'filiaal 1', 100);
    // Filiaal 1, 10–19, 100–199: 111 customers.
    expect(found).toHaveLength(111);
  });

  it("never another company's customer, and another company's fields are not searched", async () => {
    const [{ id }] = await api.sql`select id from customers where company_id = ${b.companyId}`;
    expect(await searchAll(b.key, 'kralingen')).toEqual([id]);
    expect(await searchAll(a.key, 'kralingen')).toEqual([mine.branch]);
    const { key: c } = await api.tenant();
    expect(await searchAll(c, 'kralingen')).toEqual([]);
  });
});

describe('the index', () => {
  it('app_search_customer_fields, called as app_api, looks its tenant up in customers_custom_field_search', async (ctx) => {
    if (!(await definerBypassesRls(api, 'app_search_customer_fields'))) ctx.skip();
    const { rows, logged } = await definerCallPlans(
      api,
      a.companyId,
      (tx) => tx`select app_search_customer_fields('{%kralingen%}'::text[], 1001) as id`,
    );
    expect(rows.map((r) => r.id)).toEqual([mine.branch]);
    const inner = logged.find((message) => message.includes('FROM public.customers c'));
    expect(inner, logged.join('\n---\n')).toBeDefined();
    expect(inner).toMatch(/Bitmap Index Scan on customers_custom_field_search\b/);
    expect(inner).not.toMatch(/Seq Scan/);
  });

  it('the function proposes nothing without app.company_id', async () => {
    const rows = await api.sql.begin(async (tx) => {
      await tx`select set_config('role', 'app_api', true)`;
      return tx`select app_search_customer_fields('{%}'::text[], 100) as id`;
    });
    expect(rows).toEqual([]);
  });
});
