// Track and trace (allowed states, a change emails once, the same values change nothing), notes (internal or
// emailed to the customer, oldest first) and the list's filters.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { MISSING, orderOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'en' }));
});

const kindsOf = async (orderId: string) =>
  (
    await api.sql<{ kind: string }[]>`
      select e.kind from outbound_emails e join orders o on o.company_id = e.company_id and e."to"[1] = o.buyer_email
      where o.id = ${orderId} order by e.created_at, e.id`
  ).map((r) => r.kind);

describe('updateOrderTracking', () => {
  it('sets code and link, adds notes and emails once; the same values again change nothing', async () => {
    const order = await orderOf(api, companyId, { status: 'processing' });
    const body = { tracking_code: '3SDEVC1', tracking_url: 'https://jouw.postnl.nl/track/3SDEVC1' };
    const first = await api.call('updateOrderTracking', { key, params: { order }, body });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      tracking_code: '3SDEVC1',
      tracking_url: body.tracking_url,
      status: 'processing',
    });
    expect(first.body.data.notes.map((n: { type: string }) => n.type)).toEqual(['tracking', 'email']);
    const again = await api.call('updateOrderTracking', { key, params: { order }, body });
    expect(again.status).toBe(200);
    expect(again.body.data.notes).toHaveLength(2);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await kindsOf(order)).toEqual(['order_tracking']);
    // A new code emails again; notify_customer false does not.
    await api.call('updateOrderTracking', { key, params: { order }, body: { tracking_code: '3SDEVC2' } });
    const quiet = await api.call('updateOrderTracking', {
      key,
      params: { order },
      body: { tracking_code: '3SDEVC3', notify_customer: false },
    });
    expect(quiet.body.data.tracking_url).toBeNull();
    expect(await kindsOf(order)).toEqual(['order_tracking', 'order_tracking']);
  });

  for (const status of ['pending_payment', 'delivered', 'cancelled', 'refunded'] as const) {
    it(`is refused with 409 for a ${status} order`, async () => {
      const order = await orderOf(api, companyId, { status });
      const res = await api.call('updateOrderTracking', { key, params: { order }, body: { tracking_code: 'X1' } });
      expect(res.status).toBe(409);
      expect(await kindsOf(order)).toEqual([]);
    });
  }
});

describe('order notes', () => {
  it('an internal note is not emailed; a customer note is, and both are listed oldest first', async () => {
    const order = await orderOf(api, companyId);
    const internal = await api.call('createOrderNote', { key, params: { order }, body: { content: 'Bel eerst.' } });
    expect(internal.status).toBe(201);
    expect(internal.body.data).toMatchObject({ type: 'note', is_internal: true, content: 'Bel eerst.' });
    const visible = await api.call('createOrderNote', {
      key,
      params: { order },
      body: { content: 'Your parcel is delayed by a day.', is_internal: false },
    });
    expect(visible.body.data.is_internal).toBe(false);
    expect(await kindsOf(order)).toEqual(['order_note']);
    const list = await api.call('listOrderNotes', { key, params: { order } });
    expect(list.body.data.map((n: { type: string }) => n.type)).toEqual(['note', 'note', 'email']);
    const newest = await api.call('listOrderNotes', {
      key,
      params: { order },
      query: { sort: '-created_at', limit: 1 },
    });
    expect(newest.body.data[0].type).toBe('email');
    expect(newest.body.meta.next_cursor).not.toBeNull();
    const got = await api.call('getOrder', { key, params: { order } });
    expect(got.headers.get('etag')).toBe('"3"');
  });

  it('notes of an unknown order are 404', async () => {
    expect((await api.call('listOrderNotes', { key, params: { order: MISSING } })).status).toBe(404);
    expect(
      (await api.call('createOrderNote', { key, params: { order: MISSING }, body: { content: 'x' } })).status,
    ).toBe(404);
  });
});

describe('listOrders', () => {
  it('filters by status and customer and sorts by creation', async () => {
    const { key: k, companyId: c } = await api.tenant();
    const a = await orderOf(api, c, { status: 'shipped', created_at: '2026-01-01T10:00:00Z' });
    const b = await orderOf(api, c, { status: 'paid', created_at: '2026-01-02T10:00:00Z' });
    const all = await api.call('listOrders', { key: k });
    expect(all.body.data.map((o: { id: string }) => o.id)).toEqual([b, a]);
    expect(all.body.data[0].items).toHaveLength(2);
    const oldest = await api.call('listOrders', { key: k, query: { sort: 'created_at' } });
    expect(oldest.body.data.map((o: { id: string }) => o.id)).toEqual([a, b]);
    const shipped = await api.call('listOrders', { key: k, query: { 'filter[status]': 'shipped' } });
    expect(shipped.body.data.map((o: { id: string }) => o.id)).toEqual([a]);
    const customer = all.body.data[0].customer_id;
    const mine = await api.call('listOrders', { key: k, query: { 'filter[customer_id]': customer } });
    expect(mine.body.data.map((o: { id: string }) => o.id)).toEqual([b]);
  });
});
