import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
});

describe('smoke', () => {
  it('creates, reads and lists a customer', async () => {
    const me = await api.call('getMe', { key });
    expect(me.status).toBe(200);
    const created = await api.call('createCustomer', { key, body: { email: 'jan@example.nl', name: 'Jan' } });
    expect(created.status).toBe(201);
    const got = await api.call('getCustomer', { key, params: { customer: created.body.data.id } });
    expect(got.body.data.email).toBe('jan@example.nl');
    const list = await api.call('listCustomers', { key });
    expect(list.body.data).toHaveLength(1);
  });
});
