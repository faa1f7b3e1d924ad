// Status changes of orders: the contract's table of allowed source states (every pair), the time each records,
// the internal note, the customer's email in the order's language, ETag/If-Match and idempotent retries.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { MISSING, orderOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});

const STATUSES = ['pending_payment', 'paid', 'processing', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
const TARGETS = ['processing', 'shipped', 'delivered', 'cancelled'] as const;
const ALLOWED: Record<(typeof TARGETS)[number], string[]> = {
  processing: ['paid'],
  shipped: ['paid', 'processing'],
  delivered: ['shipped'],
  cancelled: ['pending_payment', 'paid', 'processing'],
};

const emailsOf = (orderId: string) =>
  api.sql<{ to: string[]; subject: string; body: string; kind: string }[]>`
    select e."to", e.subject, e.body, e.kind from outbound_emails e
    join orders o on o.company_id = e.company_id and e."to"[1] = o.buyer_email
    where o.id = ${orderId} order by e.created_at, e.id`;

/** The order.status_changed events of an order, read through the API with a key that may read events and orders only. */
async function eventsOf(orderId: string) {
  const reader = await api.key(companyId, { scopes: ['events.read', 'orders.read'] });
  const res = await api.call('listEvents', {
    key: reader.key,
    query: { 'filter[type]': 'order.status_changed', limit: 100 },
  });
  expect(res.status).toBe(200);
  return (res.body.data as { data: { object: { id: string } } }[]).filter((e) => e.data.object.id === orderId);
}

describe('changeOrderStatus: the state table', () => {
  for (const from of STATUSES) {
    for (const to of TARGETS) {
      const allowed = ALLOWED[to].includes(from);
      it(`${from} → ${to}: ${allowed ? '200' : '409'}`, async () => {
        const order = await orderOf(api, companyId, {
          status: from,
          paid_at: from === 'pending_payment' ? null : '2026-03-10T19:43:55Z',
        });
        const res = await api.call('changeOrderStatus', { key, params: { order }, body: { status: to } });
        const after = await api.call('getOrder', { key, params: { order } });
        if (!allowed) {
          expect(res.status).toBe(409);
          expect(res.body.code).toBe('conflict');
          expect(after.body.data.status).toBe(from);
          expect(after.body.data.notes).toEqual([]);
          expect(await emailsOf(order)).toEqual([]);
          expect(await eventsOf(order)).toEqual([]);
          return;
        }
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const data = res.body.data;
        expect(data.status).toBe(to);
        expect(res.headers.get('etag')).toBe('"2"');
        const timeField = {
          processing: null,
          shipped: 'shipped_at',
          delivered: 'delivered_at',
          cancelled: 'cancelled_at',
        }[to];
        if (timeField) expect(Date.parse(data[timeField])).toBeGreaterThan(Date.now() - 60_000);
        expect(data.notes).toEqual([
          expect.objectContaining({
            type: 'status_change',
            is_internal: true,
            content: expect.stringContaining('klant gemaild'),
          }),
        ]);
        const emails = await emailsOf(order);
        expect(emails).toHaveLength(1);
        expect(emails[0]?.kind).toBe(`order_${to}`);
        expect(emails[0]?.subject).toContain(data.number);
        // order.status_changed, recorded with the change, carries the order as the API returns it.
        const events = await eventsOf(order);
        expect(events).toHaveLength(1);
        expect(events[0]?.data.object).toEqual(data);
      });
    }
  }
});

describe('changeOrderStatus: details', () => {
  it('emails in the order’s language, with the track and trace in the shipped email', async () => {
    const order = await orderOf(api, companyId, {
      language: 'de',
      tracking_code: '3SDEVC1234567',
      tracking_url: 'https://track.example/3SDEVC1234567',
    });
    const res = await api.call('changeOrderStatus', { key, params: { order }, body: { status: 'shipped' } });
    expect(res.status).toBe(200);
    const [email] = await emailsOf(order);
    expect(email?.subject).toMatch(/^Ihre Bestellung WS-.+ wurde versandt$/);
    expect(email?.body).toContain('Sendungsverfolgung: 3SDEVC1234567');
    expect(email?.body).toContain('https://track.example/3SDEVC1234567');
    // The note is in the company's language (nl), not the order's.
    expect(res.body.data.notes[0].content).toBe('Status gewijzigd van Betaald naar Verzonden; klant gemaild.');
  });

  it('a retry with the same Idempotency-Key replays the answer and emails once', async () => {
    const order = await orderOf(api, companyId);
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await api.call('changeOrderStatus', {
      key,
      params: { order },
      body: { status: 'processing' },
      headers,
    });
    const second = await api.call('changeOrderStatus', {
      key,
      params: { order },
      body: { status: 'processing' },
      headers,
    });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await emailsOf(order)).toHaveLength(1);
  });

  it('If-Match with an old version answers 412 and changes nothing', async () => {
    const order = await orderOf(api, companyId);
    const res = await api.call('changeOrderStatus', {
      key,
      params: { order },
      body: { status: 'processing' },
      headers: { 'If-Match': '"7"' },
    });
    expect(res.status).toBe(412);
    expect((await api.call('getOrder', { key, params: { order } })).body.data.status).toBe('paid');
  });

  it('an unknown order is 404', async () => {
    const res = await api.call('changeOrderStatus', { key, params: { order: MISSING }, body: { status: 'shipped' } });
    expect(res.status).toBe(404);
  });

  it('another company’s order is 404', async () => {
    const other = await api.tenant();
    const order = await orderOf(api, other.companyId);
    const res = await api.call('changeOrderStatus', { key, params: { order }, body: { status: 'processing' } });
    expect(res.status).toBe(404);
  });
});
