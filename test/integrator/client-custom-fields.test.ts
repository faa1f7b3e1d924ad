// Both clients (the SDK `Crm` and the typed `createCrmClient`) send `filter[custom_fields]` as the service reads it:
// customFieldFilter's exact values, any-of lists and `gte`/`lte` ranges reach the lists of customers as the filters
// they say (issue 51), against the service on a real database (the clients' fetch is the app's).
import { beforeAll, describe, expect, it } from 'vitest';
import { Crm, createCrmClient, customFieldFilter, ok } from '../../src/client/index.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;
const BASE = 'http://api.test/api/v1';

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const options = ['gold', 'silver', 'bronze'].map((k) => ({ key: k, labels: { en: k } }));
  for (const body of [
    { key: 'employees', type: 'number' },
    { key: 'since', type: 'date' },
    { key: 'vip', type: 'boolean' },
    { key: 'level', type: 'single_select', options },
  ]) {
    const res = await api.call('createCustomField', {
      key,
      body: { resource: 'customers', labels: { en: 'F' }, ...body },
    });
    expect(res.status).toBe(201);
  }
  const customers = {
    anna: { employees: 5, since: '2020-01-15', vip: true, level: 'gold' },
    bert: { employees: 50, since: '2023-06-01', vip: false, level: 'silver' },
    cees: { employees: 500, since: '2025-12-31', level: 'bronze' },
  };
  for (const [name, custom_fields] of Object.entries(customers)) {
    const res = await api.call('createCustomer', { key, body: { email: `${name}@c.example.nl`, name, custom_fields } });
    expect(res.status).toBe(201);
  }
});

describe('customFieldFilter', () => {
  it('writes each kind of condition as the parameter object', () => {
    expect(
      customFieldFilter({
        employees: { gte: 10, lte: 100 },
        level: ['gold', 'silver'],
        vip: true,
        since: '2020-01-15',
      }),
    ).toEqual({
      'employees[gte]': '10',
      'employees[lte]': '100',
      level: 'gold,silver',
      vip: 'true',
      since: '2020-01-15',
    });
  });
});

describe('the clients send it as the service reads it', () => {
  const cases: [string, Parameters<typeof customFieldFilter>[0], string[]][] = [
    ['a range of a number', { employees: { gte: 10 } }, ['bert', 'cees']],
    ['a closed range', { employees: { gte: 6, lte: 50 } }, ['bert']],
    ['a range of a date', { since: { lte: '2023-06-01' } }, ['anna', 'bert']],
    ['any of two options', { level: ['gold', 'bronze'] }, ['anna', 'cees']],
    ['a boolean and a number together', { vip: false, employees: 50 }, ['bert']],
  ];

  it.each(cases)('the SDK: %s', async (_, conditions, expected) => {
    const crm = new Crm({ apiKey: key, baseUrl: BASE, fetch: async (input, init) => api.app.request(input, init) });
    const names: string[] = [];
    for await (const customer of crm.customers.list({ 'filter[custom_fields]': customFieldFilter(conditions) })) {
      names.push(customer.name ?? '');
    }
    expect(names.sort()).toEqual(expected);
  });

  it.each(cases)('the typed client: %s', async (_, conditions, expected) => {
    const client = createCrmClient({ apiKey: key, baseUrl: BASE, fetch: async (request) => api.app.request(request) });
    const page = ok(
      await client.GET('/customers', { params: { query: { 'filter[custom_fields]': customFieldFilter(conditions) } } }),
    );
    expect(page.data.map((c) => c.name ?? '').sort()).toEqual(expected);
  });
});
