// `filter[custom_fields.<key>]` on customers and deals (issue 51, point 6): exact values of each kind, any-of for
// selects, [gte]/[lte] ranges for numbers, money and dates, both spellings of the parameter, several keys at once,
// never another company's records, and 422 naming the parameter for an unknown key, a value the field cannot have
// or a range on a type without order.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
const ids: Record<string, string> = {};

const define = (body: Record<string, unknown>, k = key) =>
  api.call('createCustomField', { key: k, body: { resource: 'customers', labels: { en: 'F' }, ...body } });

const list = async (query: Record<string, string>, k = key) => {
  const res = await api.call('listCustomers', { key: k, query: { limit: 100, ...query } });
  return res;
};
const names = async (query: Record<string, string>, k = key) => {
  const res = await list(query, k);
  expect(res.status).toBe(200);
  return res.body.data.map((c: { name: string }) => c.name).sort();
};

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  await define({ key: 'employees', type: 'number' });
  await define({ key: 'revenue', type: 'money' });
  await define({ key: 'since', type: 'date' });
  await define({ key: 'vip', type: 'boolean' });
  await define({ key: 'city_code', type: 'text' });
  const options = ['gold', 'silver', 'bronze'].map((k) => ({ key: k, labels: { en: k } }));
  await define({ key: 'level', type: 'single_select', options });
  await define({ key: 'tags', type: 'multi_select', options });
  await define({ resource: 'deals', key: 'region', type: 'text' });
  const customers = {
    anna: {
      employees: 5,
      revenue: '100.00',
      since: '2020-01-15',
      vip: true,
      city_code: 'AMS',
      level: 'gold',
      tags: ['gold', 'silver'],
    },
    bert: {
      employees: 50,
      revenue: '2500.50',
      since: '2023-06-01',
      vip: false,
      city_code: 'RTD',
      level: 'silver',
      tags: ['bronze'],
    },
    cees: { employees: 500, revenue: '99999.99', since: '2025-12-31', level: 'bronze' },
    dirk: {},
  };
  for (const [name, custom_fields] of Object.entries(customers)) {
    const res = await api.call('createCustomer', { key, body: { email: `${name}@f.example.nl`, name, custom_fields } });
    expect(res.status).toBe(201);
    ids[name] = res.body.data.id;
  }
});

describe('exact filters', () => {
  it('match each kind of value', async () => {
    expect(await names({ 'filter[custom_fields.employees]': '50' })).toEqual(['bert']);
    expect(await names({ 'filter[custom_fields.revenue]': '100.00' })).toEqual(['anna']);
    expect(await names({ 'filter[custom_fields.since]': '2025-12-31' })).toEqual(['cees']);
    expect(await names({ 'filter[custom_fields.vip]': 'false' })).toEqual(['bert']);
    expect(await names({ 'filter[custom_fields.city_code]': 'AMS' })).toEqual(['anna']);
    expect(await names({ 'filter[custom_fields.city_code]': 'ams' })).toEqual([]);
  });

  it('any of a comma list for selects; a multi-select matches when it holds one of them', async () => {
    expect(await names({ 'filter[custom_fields.level]': 'gold,bronze' })).toEqual(['anna', 'cees']);
    expect(await names({ 'filter[custom_fields.tags]': 'silver' })).toEqual(['anna']);
    expect(await names({ 'filter[custom_fields.tags]': 'bronze,silver' })).toEqual(['anna', 'bert']);
  });

  it('several keys all match; the deepObject spelling is the same filter', async () => {
    expect(await names({ 'filter[custom_fields.level]': 'gold,silver', 'filter[custom_fields.vip]': 'true' })).toEqual([
      'anna',
    ]);
    expect(await names({ 'filter[custom_fields][level]': 'silver' })).toEqual(['bert']);
  });
});

describe('ranges', () => {
  it('gte and lte on numbers, money and dates, inclusive', async () => {
    expect(await names({ 'filter[custom_fields.employees][gte]': '50' })).toEqual(['bert', 'cees']);
    expect(
      await names({ 'filter[custom_fields.employees][gte]': '6', 'filter[custom_fields.employees][lte]': '50' }),
    ).toEqual(['bert']);
    expect(await names({ 'filter[custom_fields.revenue][lte]': '2500.50' })).toEqual(['anna', 'bert']);
    expect(await names({ 'filter[custom_fields.since][gte]': '2023-01-01' })).toEqual(['bert', 'cees']);
    expect(await names({ 'filter[custom_fields][since][lte]': '2020-12-31' })).toEqual(['anna']);
  });
});

describe('refusals and tenancy', () => {
  it('422 naming the parameter', async () => {
    const unknown = await list({ 'filter[custom_fields.colour]': 'red' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ parameter: 'filter[custom_fields.colour]', pointer: null });
    const badNumber = await list({ 'filter[custom_fields.employees]': 'many' });
    expect(badNumber.status).toBe(422);
    expect(badNumber.body.errors[0].parameter).toBe('filter[custom_fields.employees]');
    const badOption = await list({ 'filter[custom_fields.level]': 'gold,platinum' });
    expect(badOption.body.errors[0].detail).toContain('gold, silver, bronze');
    const range = await list({ 'filter[custom_fields.level][gte]': 'gold' });
    expect(range.body.errors[0]).toMatchObject({
      parameter: 'filter[custom_fields.level][gte]',
      code: 'invalid_combination',
    });
    const op = await list({ 'filter[custom_fields.employees][gt]': '3' });
    expect(op.status).toBe(422);
  });

  it("another company's key neither uses A's fields nor sees A's records", async () => {
    const { key: other } = await api.tenant();
    const res = await list({ 'filter[custom_fields.level]': 'gold' }, other);
    expect(res.status).toBe(422);
    await define({ key: 'level', type: 'text' }, other);
    expect(await names({ 'filter[custom_fields.level]': 'gold' }, other)).toEqual([]);
  });

  it('deals filter on their own fields; `q` with a filter still applies both', async () => {
    const deal = await api.call('createDeal', {
      key,
      body: { customer_id: ids.anna, title: 'Noord', custom_fields: { region: 'noord' } },
    });
    expect(deal.status).toBe(201);
    const found = await api.call('listDeals', { key, query: { 'filter[custom_fields.region]': 'noord' } });
    expect(found.body.data.map((d: { id: string }) => d.id)).toEqual([deal.body.data.id]);
    expect(await names({ q: 'anna', 'filter[custom_fields.level]': 'gold' })).toEqual(['anna']);
    expect(await names({ q: 'bert', 'filter[custom_fields.level]': 'gold' })).toEqual([]);
  });
});
