// Ranges on custom fields through the ordered side table (issue 51, drizzle/0051): custom_field_values follows every
// insert, change and delete of a record's values, holds only its own company's rows, is looked up through its btree
// under row-level security, and the range filter answers the same whether its candidates are few (read by id) or many
// (the ordered scan).
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { definerBypassesRls, definerCallPlans } from '../../harness/definer-plans.ts';

let api: TestApi;
let a: { companyId: string; key: string };
let b: { companyId: string; key: string };

const define = (k: string, body: Record<string, unknown>) =>
  api.call('createCustomField', { key: k, body: { resource: 'customers', labels: { en: 'F' }, ...body } });

let n = 0;
const createCustomer = async (k: string, custom_fields: Record<string, unknown>) => {
  const res = await api.call('createCustomer', { key: k, body: { email: `r${n++}@range.example.nl`, custom_fields } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};

/** The side table's rows of one record, as the superuser sees them (past row-level security). */
const sideRows = (recordId: string) => api.sql`
  select company_id::text, resource, key, num::text, day::text from custom_field_values
  where record_id = ${recordId} order by key`;

/** Runs `work` as the API does: app_api with the company as tenant. */
const asTenant = <T>(companyId: string, work: (tx: postgres.TransactionSql) => Promise<T>) =>
  api.sql.begin(async (tx) => {
    await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true)`;
    return work(tx);
  }) as Promise<T>;

const rangeIds = async (k: string, query: Record<string, string>, limit = 100) => {
  const res = await api.call('listCustomers', { key: k, query: { limit, ...query } });
  expect(res.status).toBe(200);
  return res.body.data.map((c: { id: string }) => c.id).sort();
};

beforeAll(async () => {
  api = await setupApi();
  a = await api.tenant();
  b = await api.tenant();
  for (const t of [a, b]) {
    await define(t.key, { key: 'employees', type: 'number' });
    await define(t.key, { key: 'revenue', type: 'money' });
    await define(t.key, { key: 'since', type: 'date' });
    await define(t.key, { key: 'code', type: 'text' });
  }
  await api.call('createCustomField', {
    key: a.key,
    body: { resource: 'deals', key: 'size', type: 'number', decimals: 0, labels: { en: 'Size' } },
  });
  // 600 customers of a (more than the 500 candidates read by id) with employees 1000–1599, written past the API
  // (the triggers fill the side table all the same), and the same values for b.
  for (const t of [a, b]) {
    await api.sql`
      insert into customers (company_id, id, email, custom_fields)
      select ${t.companyId}, gen_random_uuid(), 'bulk' || i || '@range.example.nl',
             jsonb_build_object('employees', 1000 + i, 'since', to_char(date '2020-01-01' + i, 'YYYY-MM-DD'))
      from generate_series(0, 599) i`;
  }
});

describe('custom_field_values', () => {
  it('follows a record: numbers, money and dates on insert, changed and removed values, a delete', async () => {
    const id = await createCustomer(a.key, { employees: 12, revenue: '1250.50', since: '2024-02-29', code: 'AMS' });
    expect(await sideRows(id)).toEqual([
      { company_id: a.companyId, resource: 'customers', key: 'employees', num: '12', day: null },
      { company_id: a.companyId, resource: 'customers', key: 'revenue', num: '1250.50', day: null },
      { company_id: a.companyId, resource: 'customers', key: 'since', num: null, day: '2024-02-29' },
    ]);
    const patch = (body: Record<string, unknown>) =>
      api.call('updateCustomer', { key: a.key, params: { customer: id }, body });
    expect((await patch({ custom_fields: { employees: 40, since: null } })).status).toBe(200);
    expect((await sideRows(id)).map((r) => [r.key, r.num ?? r.day])).toEqual([
      ['employees', '40'],
      ['revenue', '1250.50'],
    ]);
    // A write that leaves the values alone leaves the rows alone (the trigger's WHEN clause skips it).
    const [before] =
      await api.sql`select xmin::text from custom_field_values where record_id = ${id} and key = 'employees'`;
    expect((await patch({ name: 'Renamed' })).status).toBe(200);
    const [after] =
      await api.sql`select xmin::text from custom_field_values where record_id = ${id} and key = 'employees'`;
    expect(after).toEqual(before);
    await asTenant(a.companyId, (tx) => tx`delete from customers where id = ${id}`);
    expect(await sideRows(id)).toEqual([]);
  });

  it('holds deals as deals, and no row for a value without order or an impossible date', async () => {
    const customer = await createCustomer(a.key, { code: '2026-02-30' });
    expect(await sideRows(customer)).toEqual([]);
    const deal = await api.call('createDeal', {
      key: a.key,
      body: { customer_id: customer, title: 'Groot', custom_fields: { size: 7 } },
    });
    expect(deal.status).toBe(201);
    expect(await sideRows(deal.body.data.id)).toEqual([
      { company_id: a.companyId, resource: 'deals', key: 'size', num: '7', day: null },
    ]);
  });

  it('shows a tenant its own rows only, and none without one', async () => {
    const companies = await asTenant(
      a.companyId,
      (tx) => tx`select distinct company_id::text from custom_field_values`,
    );
    expect(companies).toEqual([{ company_id: a.companyId }]);
    const none = await api.sql.begin(async (tx) => {
      await tx`select set_config('role', 'app_api', true)`;
      return tx`select 1 from custom_field_values`;
    });
    expect(none).toEqual([]);
    await expect(
      asTenant(
        a.companyId,
        (tx) => tx`insert into custom_field_values (company_id, resource, record_id, key, num)
                                        values (${b.companyId}, 'customers', ${randomUUID()}, 'employees', 1)`,
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it('app_custom_field_range_ids, called as app_api, looks a rare range up in its btree', async (ctx) => {
    if (!(await definerBypassesRls(api, 'app_custom_field_range_ids'))) ctx.skip();
    const { rows, logged } = await definerCallPlans(
      api,
      a.companyId,
      (tx) => tx`select app_custom_field_range_ids('customers', 'employees', 1595, null, null, null, 501) as id`,
    );
    expect(rows).toHaveLength(5);
    const inner = logged.find((message) => message.includes('FROM public.custom_field_values v'));
    expect(inner, logged.join('\n---\n')).toBeDefined();
    expect(inner).toMatch(/Index (Only )?Scan using custom_field_values_num\b/);
    expect(inner).toMatch(/Index Cond: .*num >= /);
    expect(inner).not.toMatch(/Seq Scan/);
  });

  it('the function proposes nothing without app.company_id', async () => {
    const rows = await api.sql.begin(async (tx) => {
      await tx`select set_config('role', 'app_api', true)`;
      return tx`select app_custom_field_range_ids('customers', 'employees', null, null, null, null, 100) as id`;
    });
    expect(rows).toEqual([]);
  });
});

describe('the range filter', () => {
  const expected = async (companyId: string, condition: string) =>
    (
      await api.sql.unsafe(`select id::text from customers where company_id = $1 and ${condition} order by id`, [
        companyId,
      ])
    )
      .map((r) => r.id as string)
      .sort();

  it('finds a rare range (candidates by id) and only the company’s own records', async () => {
    const found = await rangeIds(a.key, { 'filter[custom_fields.employees][gte]': '1595' });
    expect(found).toHaveLength(5);
    expect(found).toEqual(await expected(a.companyId, `(custom_fields->>'employees')::numeric >= 1595`));
    const between = await rangeIds(a.key, {
      'filter[custom_fields.employees][gte]': '1100',
      'filter[custom_fields.employees][lte]': '1102',
      'filter[custom_fields.since][gte]': '2020-04-11',
    });
    expect(between).toEqual(
      await expected(a.companyId, `(custom_fields->>'employees')::numeric between 1101 and 1102`),
    );
    expect(between).toHaveLength(2);
  });

  it('a common range (past the candidates) pages through the same records', async () => {
    const query = { 'filter[custom_fields.employees][gte]': '1050' };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api.call('listCustomers', {
        key: b.key,
        query: { limit: 100, ...query, ...(cursor ? { cursor } : {}) },
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(await expected(b.companyId, `(custom_fields->>'employees')::numeric >= 1050`));
    expect(seen).toHaveLength(550);
  });

  it("takes a rare range's candidates from the side table (a record missing there is not proposed)", async () => {
    const query = { 'filter[custom_fields.employees][gte]': '1595' };
    const [gone] = await api.sql`
      delete from custom_field_values where company_id = ${a.companyId} and key = 'employees' and num = 1599
      returning company_id, resource, record_id, key, num`;
    try {
      expect(await rangeIds(a.key, query)).toHaveLength(4);
    } finally {
      await api.sql`insert into custom_field_values ${api.sql(gone)}`;
    }
    expect(await rangeIds(a.key, query)).toHaveLength(5);
  });
});
