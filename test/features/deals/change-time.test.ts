// A change that waits for a record's lock takes its time after the lock (src/db/change-time.ts, migration
// 0017): its updated_at and its events come after the change it waited for, never before. Receivers keep the
// version with the later updated_at, and list events in order of occurrence.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, pipelineOf } from './fixtures.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  const tenant = await api.tenant();
  key = tenant.key;
  await pipelineOf(api, tenant.companyId);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds the row lock of `table`'s row `id` from another connection while `change` starts, for `holdMs`; answers
 * the change's result and the database time at which the lock was released.
 */
async function behindALock<T>(
  table: 'deals' | 'customers' | 'notes' | 'webhook_endpoints',
  id: string,
  change: () => Promise<T>,
  holdMs = 200,
) {
  let pending: Promise<T> | undefined;
  const [{ released }] = await api.sql.begin(async (tx) => {
    await tx`select 1 from ${tx(table)} where id = ${id} for update`;
    pending = change();
    await sleep(holdMs);
    return tx<{ released: number }[]>`select (extract(epoch from clock_timestamp()) * 1000)::float8 as released`;
  });
  if (!pending) throw new Error('the change never started');
  return { result: await pending, released };
}

describe('the time of a change that waited for the lock', () => {
  it('a deal update: updated_at and its event are after the lock was released', async () => {
    const deal = await dealOf(api, key, { customer_id: await customerOf(api, key) });
    const { result, released } = await behindALock('deals', deal.id, () =>
      api.call('updateDeal', { key, params: { deal: deal.id }, body: { title: 'Na het wachten' } }),
    );
    expect(result.status).toBe(200);
    const updatedAt = Date.parse(result.body.data.updated_at);
    // Milliseconds are kept: at most the millisecond of the release, truncated.
    expect(updatedAt).toBeGreaterThanOrEqual(released - 1);
    const [event] = (await api.call('listEvents', { key, query: { limit: 1 } })).body.data;
    expect(event).toMatchObject({ type: 'deal.updated', data: { object: { title: 'Na het wachten' } } });
    expect(event.created_at).toBe(result.body.data.updated_at);
  });

  it('a customer update: updated_at is after the lock was released', async () => {
    const customer = await customerOf(api, key);
    const { result, released } = await behindALock('customers', customer, () =>
      api.call('updateCustomer', { key, params: { customer }, body: { name: 'Na het wachten' } }),
    );
    expect(result.status).toBe(200);
    expect(Date.parse(result.body.data.updated_at)).toBeGreaterThanOrEqual(released - 1);
  });

  // A batch locks every row it names in one statement (db/change-time.ts lockRecords): without the fence that keeps
  // the change-time condition above the locking subquery, it ran before the locks and stamped the waiting batch
  // with a time earlier than the change it waited for.
  it('a customers batch upsert: updated_at is after the lock was released', async () => {
    const customer = await customerOf(api, key);
    const { result, released } = await behindALock('customers', customer, () =>
      api.call<'upsertCustomers'>('upsertCustomers', {
        key,
        body: { items: [{ id: customer, name: 'In een batch na het wachten' }] },
      }),
    );
    expect(result.status).toBe(200);
    const [item] = result.body.items;
    if (!item || !('data' in item)) throw new Error(`the batch item failed: ${JSON.stringify(item)}`);
    expect(Date.parse(item.data.updated_at)).toBeGreaterThanOrEqual(released - 1);
  });

  it('a deals batch upsert: updated_at is after the lock was released', async () => {
    const deal = await dealOf(api, key, { customer_id: await customerOf(api, key) });
    const { result, released } = await behindALock('deals', deal.id, () =>
      api.call<'upsertDeals'>('upsertDeals', {
        key,
        body: { items: [{ id: deal.id, title: 'Batch na het wachten' }] },
      }),
    );
    expect(result.status).toBe(200);
    const [item] = result.body.items;
    if (!item || !('data' in item)) throw new Error(`the batch item failed: ${JSON.stringify(item)}`);
    expect(Date.parse(item.data.updated_at)).toBeGreaterThanOrEqual(released - 1);
  });

  it('a note update: updated_at is after the lock was released', async () => {
    const customer = await customerOf(api, key);
    const note = await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'Eerst' } });
    const id = note.body.data.id;
    const { result, released } = await behindALock('notes', id, () =>
      api.call('updateCustomerNote', { key, params: { customer, note: id }, body: { content: 'Na het wachten' } }),
    );
    expect(result.status).toBe(200);
    expect(Date.parse(result.body.data.updated_at)).toBeGreaterThanOrEqual(released - 1);
  });

  it('a webhook endpoint update: updated_at is after the lock was released', async () => {
    const created = await api.call('createWebhookEndpoint', {
      key,
      body: { url: 'https://1.1.1.1/hooks', events: ['*'] },
    });
    const id = created.body.data.id;
    const { result, released } = await behindALock('webhook_endpoints', id, () =>
      api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { description: 'Na het wachten' } }),
    );
    expect(result.status).toBe(200);
    expect(Date.parse(result.body.data.updated_at)).toBeGreaterThanOrEqual(released - 1);
  });

  it('activity that waits behind a customer change never moves the customer back in time', async () => {
    const customer = await customerOf(api, key);
    const { result } = await behindALock('customers', customer, async () => {
      const patched = api.call('updateCustomer', { key, params: { customer }, body: { name: 'Eerst' } });
      // The note's transaction starts while the PATCH waits, and touches the customer after it.
      await sleep(50);
      const noted = api.call('createCustomerNote', { key, params: { customer }, body: { content: 'Daarna' } });
      return { patched: await patched, noted: await noted };
    });
    expect(result.noted.status).toBe(201);
    const now = await api.call('getCustomer', { key, params: { customer } });
    expect(Number(now.headers.get('etag')?.replaceAll('"', ''))).toBe(
      Number(result.patched.headers.get('etag')?.replaceAll('"', '')) + 1,
    );
    expect(Date.parse(now.body.data.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(result.patched.body.data.updated_at),
    );
    // The activity itself happened when the note was made (before the PATCH was applied): that is its time.
    expect(now.body.data.last_activity_at).toBe(result.noted.body.data.created_at);
  });

  it('a change that did not wait keeps the time of its transaction: created and updated together stay equal', async () => {
    const deal = await dealOf(api, key, { customer_id: await customerOf(api, key) });
    expect(deal.updated_at).toBe(deal.created_at);
  });
});
