// filter[updated_since] accepts every RFC 3339 date-time the contract allows, also those PostgreSQL cannot
// parse as text (year 0000) or JavaScript cannot print (years past 9999), without a 500.
import { beforeAll, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  await api.call('createCustomer', { key, body: { email: 'bounds@example.nl' } });
});

it.each([
  ['0000-01-01T00:00:00Z', 1],
  ['9999-12-31T23:59:59-14:00', 0],
])('filter[updated_since]=%s answers 200 with %i customers', async (since, count) => {
  const res = await api.call('listCustomers', { key, query: { 'filter[updated_since]': since } });
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(count);
});
