// filter[updated_since] accepts the ends of the range every date-time of the contract has (years 1 to 9999 in UTC;
// outside it 422, test/platform/calendar-range.test.ts), without a 500.
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
  ['0001-01-01T00:00:00Z', 1],
  ['9999-12-31T23:59:59.999999Z', 0],
])('filter[updated_since]=%s answers 200 with %i customers', async (since, count) => {
  const res = await api.call('listCustomers', { key, query: { 'filter[updated_since]': since } });
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(count);
});
