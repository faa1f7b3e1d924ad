// A request whose database connection is lost (a restart, a failover: here its backend is terminated while it
// waits for a row lock) answers 503 service_unavailable with Retry-After, not 500: the client may try again,
// and the next request is served on a new connection. Deterministic: connection Z holds the customer's row
// until the request is seen waiting for it.
import { beforeAll, expect, it } from 'vitest';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../src/http/failures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { waitsForLock } from '../harness/locks.ts';

let api: TestApi;
let key: string;
let customer: string;
beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const created = await api.call('createCustomer', { key, body: { email: 'jan@example.nl' } });
  customer = created.body.data.id;
});

it('a request whose connection is lost answers 503 service_unavailable with Retry-After; the next one is served', async () => {
  const z = await api.sql.reserve();
  try {
    await z`begin`;
    await z`select 1 from customers where id = ${customer} for update`;
    const pending = api.call('updateCustomer', {
      key,
      params: { customer },
      body: { name: 'Jan de Vries' },
      headers: { 'accept-language': 'nl' },
    });
    await until(() => waitsForLock(api.sql), 'the request waits for the row', 5000);
    const [waiting] = await api.sql<{ pid: number }[]>`select pid from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    await api.sql`select pg_terminate_backend(${waiting.pid})`;
    const res = await pending; // contract-checked
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'service_unavailable',
      status: 503,
      title: 'Dienst niet beschikbaar',
      type: 'http://api.test/errors/service_unavailable',
    });
    expect(res.body.detail).toContain('Retry-After');
    expect(res.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
  } finally {
    await z`rollback`.catch(() => {});
    z.release();
  }
  const again = await api.call('updateCustomer', { key, params: { customer }, body: { name: 'Jan de Vries' } });
  expect(again.status).toBe(200);
  expect(again.body.data.name).toBe('Jan de Vries');
});
