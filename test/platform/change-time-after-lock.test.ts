// A change that waited for a record's row lock takes its time after the lock (src/db/change-time.ts), for the
// records whose lock is a drizzle FOR UPDATE subquery or lockWithChangeTime and that had no test of it: orders,
// tasks, conversations and work orders (deals, customers, notes and endpoints: test/features/deals/change-time).
// The change is seen waiting for the lock (pg_stat_activity) before the lock is released, so a slow machine makes
// the test slower, never weaker: its transaction started before the release, and only a time taken after the lock
// is later than the release.
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationOf } from '../features/conversations/fixtures.ts';
import { orderOf } from '../features/orders/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { waitsForLock } from '../harness/locks.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

/**
 * Holds the row lock of `table`'s row `id` from another connection until `change` is seen waiting for it; answers
 * the change's result and the database time at which the lock was released (milliseconds since the epoch).
 */
async function behindALock<T>(table: string, id: string, change: () => Promise<T>) {
  let pending: Promise<T> | undefined;
  const [{ released }] = await api.sql.begin(async (tx) => {
    await tx`select 1 from ${tx(table)} where id = ${id} for update`;
    pending = change();
    await until(() => waitsForLock(api.sql, `%${table}%`), `the change waits for the lock of ${table}`, 60_000);
    return tx<{ released: number }[]>`select (extract(epoch from clock_timestamp()) * 1000)::float8 as released`;
  });
  if (!pending) throw new Error('the change never started');
  return { result: await pending, released };
}

/** updated_at at or after the release (milliseconds kept: at most the millisecond of the release, truncated). */
const afterRelease = (updatedAt: string, released: number) =>
  expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Math.floor(released) - 1);

describe('the time of a change that waited for the lock', () => {
  it('an order’s status change', async () => {
    const order = await orderOf(api, companyId);
    const { result, released } = await behindALock('orders', order, () =>
      api.call('changeOrderStatus', { key, params: { order }, body: { status: 'processing' } }),
    );
    expect(result.status).toBe(200);
    afterRelease(result.body.data.updated_at, released);
  });

  it('a task update', async () => {
    const created = await api.call('createTask', { key, body: { title: 'Offerte nabellen' } });
    expect(created.status).toBe(201);
    const task = created.body.data.id;
    const { result, released } = await behindALock('tasks', task, () =>
      api.call('updateTask', { key, params: { task }, body: { title: 'Na het wachten' } }),
    );
    expect(result.status).toBe(200);
    afterRelease(result.body.data.updated_at, released);
  });

  it('a conversation closed', async () => {
    const conversation = (await conversationOf(api, companyId)).id;
    const { result, released } = await behindALock('conversations', conversation, () =>
      api.call('closeConversation', { key, params: { conversation } }),
    );
    expect(result.status).toBe(200);
    afterRelease(result.body.data.updated_at, released);
  });

  it('a work order update', async () => {
    const customer = await api.call('createCustomer', {
      key,
      body: { name: 'Jan Jansen', email: `${crypto.randomUUID()}@example.nl` },
    });
    const created = await api.call('createWorkOrder', { key, body: { customer_id: customer.body.data.id } });
    expect(created.status).toBe(201);
    const workOrder = created.body.data.id;
    const { result, released } = await behindALock('work_orders', workOrder, () =>
      api.call('updateWorkOrder', {
        key,
        params: { work_order: workOrder },
        body: { work_performed: 'Na het wachten' },
      }),
    );
    expect(result.status).toBe(200);
    afterRelease(result.body.data.updated_at, released);
  });
});
