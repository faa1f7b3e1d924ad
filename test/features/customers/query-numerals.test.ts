// Numbers in query strings are plain decimal numerals: "0x10", "1e3", " 7 " and "1.5" (for an integer) are
// refused, not read as 16, 1000, 7 or 1.
import { beforeAll, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
});

it.each(['0x10', '1e3', ' 7 ', '1.5', ''])('limit=%j answers 422 on the parameter limit', async (limit) => {
  const res = await api.call('listCustomers', { key, query: { limit } });
  expect(res.status).toBe(422);
  expect(res.body.errors[0]).toMatchObject({ parameter: 'limit', pointer: null });
});

it('limit=7 is read as 7', async () => {
  const res = await api.call('listCustomers', { key, query: { limit: '7' } });
  expect(res.status).toBe(200);
  expect(res.body.meta.limit).toBe(7);
});
