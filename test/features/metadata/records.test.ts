// `metadata` on the other records that have it (issue 51): notes (on customers), tasks, appointments, quotes,
// invoices, work orders, orders, conversations and webhook endpoints. Each: stored on creation, merged by PATCH (a removed key, a kept
// key, `{}` changing nothing), refused past 50 keys at /metadata, found by its list's metadata[key]=value, and
// carried by its events where it has any. A document takes a PATCH of its metadata alone in every state; orders
// (imported with it) and conversations (started by customers) have a PATCH of their metadata alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, setupApi, type TestApi } from '../../harness/api.ts';
import { conversationOf } from '../conversations/fixtures.ts';
import { orderOf } from '../orders/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let customer: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  const created = await api.call('createCustomer', { key, body: { email: 'records@metadata.example.nl' } });
  customer = created.body.data.id;
});

const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));

/** The same story for every record: create, merge, no-op, limit, filter. */
async function story(record: {
  create: (
    metadata: Record<string, string> | undefined,
  ) => Promise<{ status: number; body: { data: { id: string; metadata: unknown } } }>;
  update: (id: string, metadata: unknown) => Promise<CallResult>;
  list: (query: Record<string, string>) => Promise<{ body: { data: { id: string }[] } }>;
}) {
  const created = await record.create({ ext_id: 'R-1', stage: 'a' });
  expect(created.status).toBe(201);
  expect(created.body.data.metadata).toEqual({ ext_id: 'R-1', stage: 'a' });
  const id = created.body.data.id;
  const merged = await record.update(id, { stage: null, owner: 'anna' });
  expect(merged.status).toBe(200);
  expect(merged.body.data.metadata).toEqual({ ext_id: 'R-1', owner: 'anna' });
  const version = merged.headers.get('etag');
  const same = await record.update(id, {});
  expect(same.headers.get('etag')).toBe(version);
  const over = await record.update(id, fifty);
  expect(over.status).toBe(422);
  expect(over.body.errors).toEqual([expect.objectContaining({ pointer: '/metadata', code: 'too_big' })]);
  const other = await record.create(undefined);
  expect(other.body.data.metadata).toEqual({});
  expect((await record.list({ 'metadata[ext_id]': 'R-1' })).body.data.map((r) => r.id)).toEqual([id]);
  expect((await record.list({ 'metadata[ext_id]': 'R-1', 'metadata[owner]': 'bob' })).body.data).toEqual([]);
  return id;
}

const eventMetadata = async (type: string, id: string) =>
  (
    await api.sql`select data->'object'->'metadata' as metadata from events where company_id = ${companyId}
                  and type = ${type} and data->'object'->>'id' = ${id} order by created_at desc, id desc limit 1`
  )[0]?.metadata;

describe('records with metadata', () => {
  it('notes on a customer', async () => {
    const id = await story({
      create: (metadata) =>
        api.call('createCustomerNote', { key, params: { customer }, body: { content: 'Belde terug', metadata } }),
      update: (note, metadata) =>
        api.call('updateCustomerNote', { key, params: { customer, note }, body: { metadata } }),
      list: (query) => api.call('listCustomerNotes', { key, params: { customer }, query }),
    });
    expect(await eventMetadata('note.updated', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
  });

  it('tasks, with and without links in the PATCH', async () => {
    const id = await story({
      create: (metadata) => api.call('createTask', { key, body: { title: 'Offerte nabellen', metadata } }),
      update: (task, metadata) => api.call('updateTask', { key, params: { task }, body: { metadata } }),
      list: (query) => api.call('listTasks', { key, query }),
    });
    expect(await eventMetadata('task.updated', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
    // The PATCH that also changes links decides on the locked task: the same merge.
    const linked = await api.call('updateTask', {
      key,
      params: { task: id },
      body: { metadata: { owner: '' }, links: [{ object: 'customer', id: customer }] },
    });
    expect(linked.body.data.metadata).toEqual({ ext_id: 'R-1' });
  });

  it('appointments', async () => {
    let hour = 8;
    const id = await story({
      create: (metadata) =>
        api.call('createAppointment', {
          key,
          body: {
            customer_id: customer,
            title: 'Opname badkamer',
            starts_at: `2030-03-14T${String(hour++).padStart(2, '0')}:00:00+01:00`,
            metadata,
          },
        }),
      update: (appointment, metadata) =>
        api.call('updateAppointment', { key, params: { appointment }, body: { metadata } }),
      list: (query) => api.call('listAppointments', { key, query }),
    });
    expect(await eventMetadata('appointment.updated', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
  });

  const line = { name: 'Schilderwerk', quantity: 1, unit_price: 100 };

  it('quotes: metadata alone changes in every state, other fields only on a draft', async () => {
    const id = await story({
      create: (metadata) =>
        api.call('createQuote', { key, body: { customer_id: customer, title: 'Kozijnen', items: [line], metadata } }),
      update: (quote, metadata) => api.call('updateQuote', { key, params: { quote }, body: { metadata } }),
      list: (query) => api.call('listQuotes', { key, query }),
    });
    expect(await eventMetadata('quote.created', id)).toEqual({ ext_id: 'R-1', stage: 'a' });
    const sent = await api.call('sendQuote', { key, params: { quote: id }, body: {} });
    expect(sent.body.data.status).toBe('sent');
    const changed = await api.call('updateQuote', { key, params: { quote: id }, body: { metadata: { crm: 'Q-9' } } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ status: 'sent', metadata: { ext_id: 'R-1', owner: 'anna', crm: 'Q-9' } });
    expect(changed.body.data.total).toBe(sent.body.data.total);
    const title = await api.call('updateQuote', {
      key,
      params: { quote: id },
      body: { title: 'Anders', metadata: {} },
    });
    expect(title.status).toBe(409);
    // The next event carries what the PATCH set.
    await api.call('acceptQuote', { key, params: { quote: id }, body: {} });
    expect(await eventMetadata('quote.accepted', id)).toEqual({ ext_id: 'R-1', owner: 'anna', crm: 'Q-9' });
  });

  it('invoices: metadata alone changes on a cancelled invoice', async () => {
    const id = await story({
      create: (metadata) =>
        api.call('createInvoice', { key, body: { customer_id: customer, title: 'Factuur', items: [line], metadata } }),
      update: (invoice, metadata) => api.call('updateInvoice', { key, params: { invoice }, body: { metadata } }),
      list: (query) => api.call('listInvoices', { key, query }),
    });
    const cancelled = await api.call('cancelInvoice', { key, params: { invoice: id }, body: {} });
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await eventMetadata('invoice.cancelled', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
    const changed = await api.call('updateInvoice', { key, params: { invoice: id }, body: { metadata: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ status: 'cancelled', metadata: {} });
    const notes = await api.call('updateInvoice', { key, params: { invoice: id }, body: { notes: 'x' } });
    expect(notes.status).toBe(409);
  });

  it('work orders: metadata alone changes on a cancelled work order', async () => {
    const id = await story({
      create: (metadata) =>
        api.call('createWorkOrder', { key, body: { customer_id: customer, title: 'Lekkage', metadata } }),
      update: (work_order, metadata) =>
        api.call('updateWorkOrder', { key, params: { work_order }, body: { metadata } }),
      list: (query) => api.call('listWorkOrders', { key, query }),
    });
    expect(await eventMetadata('work_order.created', id)).toEqual({ ext_id: 'R-1', stage: 'a' });
    const cancelled = await api.call('changeWorkOrderStatus', {
      key,
      params: { work_order: id },
      body: { status: 'cancelled' },
    });
    expect(cancelled.body.data.status).toBe('cancelled');
    const changed = await api.call('updateWorkOrder', {
      key,
      params: { work_order: id },
      body: { metadata: { owner: 'bob' } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.metadata).toEqual({ ext_id: 'R-1', owner: 'bob' });
    const title = await api.call('updateWorkOrder', { key, params: { work_order: id }, body: { title: 'Anders' } });
    expect(title.status).toBe(409);
  });

  it('orders: imported with metadata, changed by PATCH under If-Match, found by the list', async () => {
    const id = await orderOf(api, companyId, { metadata: { shop_order_id: '100234' } });
    const other = await orderOf(api, companyId);
    const read = await api.call('getOrder', { key, params: { order: id } });
    expect(read.body.data.metadata).toEqual({ shop_order_id: '100234' });
    const etag = read.headers.get('etag') ?? '';
    const merged = await api.call('updateOrder', {
      key,
      params: { order: id },
      headers: { 'If-Match': etag },
      body: { metadata: { synced_by: 'zapier' } },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.data.metadata).toEqual({ shop_order_id: '100234', synced_by: 'zapier' });
    const stale = await api.call('updateOrder', {
      key,
      params: { order: id },
      headers: { 'If-Match': etag },
      body: { metadata: { synced_by: null } },
    });
    expect(stale.status).toBe(412);
    const same = await api.call('updateOrder', { key, params: { order: id }, body: { metadata: {} } });
    expect(same.headers.get('etag')).toBe(merged.headers.get('etag'));
    const list = await api.call('listOrders', { key, query: { 'metadata[shop_order_id]': '100234' } });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
    const otherRead = await api.call('getOrder', { key, params: { order: other } });
    expect(otherRead.body.data.metadata).toEqual({});
    const extra = await api.call('updateOrder', {
      key,
      params: { order: id },
      body: { metadata: {}, status: 'shipped' } as never,
    });
    expect(extra.status).toBe(422);
    // The next event carries it.
    await api.call('changeOrderStatus', { key, params: { order: id }, body: { status: 'processing' } });
    expect(await eventMetadata('order.status_changed', id)).toEqual({ shop_order_id: '100234', synced_by: 'zapier' });
  });

  it('conversations: PATCH of the metadata in any status, found by the list', async () => {
    const id = (await conversationOf(api, companyId)).id;
    await conversationOf(api, companyId);
    const closed = await api.call('closeConversation', { key, params: { conversation: id } });
    expect(closed.body.data.metadata).toEqual({});
    const changed = await api.call('updateConversation', {
      key,
      params: { conversation: id },
      body: { metadata: { helpdesk_ticket: 'ZD-1', stage: 'x' } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ status: 'closed', metadata: { helpdesk_ticket: 'ZD-1', stage: 'x' } });
    const removed = await api.call('updateConversation', {
      key,
      params: { conversation: id },
      body: { metadata: { stage: '' } },
    });
    expect(removed.body.data.metadata).toEqual({ helpdesk_ticket: 'ZD-1' });
    const over = await api.call('updateConversation', { key, params: { conversation: id }, body: { metadata: fifty } });
    expect(over.status).toBe(422);
    const list = await api.call('listConversations', { key, query: { 'metadata[helpdesk_ticket]': 'ZD-1' } });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  it('webhook endpoints', async () => {
    let n = 0;
    await story({
      create: (metadata) =>
        api.call('createWebhookEndpoint', {
          key,
          // A public address (never called here): the URL guard resolves nothing for a literal IP.
          body: { url: `https://1.1.1.1/hooks/${n++}`, events: ['customer.created'], metadata },
        }),
      update: (endpoint, metadata) =>
        api.call('updateWebhookEndpoint', { key, params: { endpoint }, body: { metadata } }),
      list: (query) => api.call('listWebhookEndpoints', { key, query }),
    });
  });
});
