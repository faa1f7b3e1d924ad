// The successful path of the webhook endpoint operations (create, get, list, update, delete), with every
// field of every response checked. Test messages and secret rotation have their own files.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prefixedId } from '../../../src/ids.ts';
import { deliver } from '../../../src/webhooks/delivery-attempts.ts';
import { DeliveryState } from '../../../src/webhooks/delivery-state.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

const ID = /^we_[0-9A-Za-z]{22}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// Public IP literals: accepted without DNS (this machine may have none) and never contacted by these tests.
const URL_A = 'https://1.1.1.1/webhooks/crm';
const URL_B = 'https://8.8.8.8:8443/hooks?source=crm';

beforeAll(async () => {
  api = await setupApi();
});

// A company has at most 10 endpoints: each test starts with a company of its own.
beforeEach(async () => {
  ({ key, companyId } = await api.tenant());
});

async function create(body: Record<string, unknown>, withKey = key) {
  const res = await api.call('createWebhookEndpoint', { key: withKey, body });
  expect(res.status).toBe(201);
  return res;
}

const stored = async (id: string) =>
  (
    await api.sql`select events, scopes, secret, version, failing_since, previous_secret from webhook_endpoints
      where company_id = ${companyId} and id = ${id}`
  )[0];

/** A delivery of an event to the endpoint, with one attempt: what the delivery tasks leave behind. */
async function deliveryFor(endpointId: string, status: 'pending' | 'failed' | 'succeeded') {
  const eventId = prefixedId('evt');
  const deliveryId = prefixedId('wd');
  await api.sql`insert into events (company_id, id, type, scope, data)
    values (${companyId}, ${eventId}, 'customer.created', 'customers.read', '{"object":{}}'::jsonb)`;
  await api.sql`insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, next_attempt_at)
    values (${companyId}, ${deliveryId}, ${endpointId}, ${eventId}, 'customer.created', ${status},
      ${status === 'pending' ? new Date().toISOString() : null})`;
  await api.sql`insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number,
      trigger, url, status, status_code, duration_ms)
    values (${companyId}, ${prefixedId('wa')}, ${deliveryId}, ${endpointId}, ${eventId}, 1, 'scheduled', ${URL_A},
      'failed', 503, 12)`;
  return deliveryId;
}

const deliveryStatus = async (id: string) =>
  (
    await api.sql`select status, next_attempt_at from webhook_deliveries where company_id = ${companyId} and id = ${id}`
  )[0];

describe('createWebhookEndpoint', () => {
  it('creates an active endpoint with every field, its secret shown once, and an ETag', async () => {
    const before = Date.now();
    const res = await create({
      url: URL_A,
      description: 'Koppeling met ons ERP (klanten en deals)',
      events: ['customer.created', 'customer.converted', 'deal.won'],
    });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const data = res.body.data;
    expect(data).toEqual({
      object: 'webhook_endpoint',
      id: expect.stringMatching(ID),
      url: URL_A,
      description: 'Koppeling met ons ERP (klanten en deals)',
      events: ['customer.created', 'customer.converted', 'deal.won'],
      status: 'active',
      disabled_reason: null,
      disabled_at: null,
      previous_secret_expires_at: null,
      last_success_at: null,
      last_failure_at: null,
      metadata: {},
      created_at: expect.stringMatching(ISO_Z),
      updated_at: expect.stringMatching(ISO_Z),
      secret: expect.stringMatching(SECRET),
    });
    expect(data.updated_at).toBe(data.created_at);
    expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(data.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
    // The secret that signs is the one shown; the full key's read scopes bound what the endpoint receives.
    const row = await stored(data.id);
    expect(row.secret).toBe(data.secret);
    expect(row.scopes).toEqual([
      'customers.read',
      'deals.read',
      'tasks.read',
      'messages.read',
      'appointments.read',
      'quotes.read',
      'invoices.read',
      'work_orders.read',
      'orders.read',
      'reviews.read',
    ]);
    expect(row.events).toEqual(['customer.created', 'customer.converted', 'deal.won']);
    expect(row.previous_secret).toBeNull();
  });

  it('with only url and ["*"] leaves the description null; every endpoint has its own secret', async () => {
    const a = await create({ url: URL_B, events: ['*'] });
    const b = await create({ url: URL_B, events: ['*'] });
    expect(a.body.data).toMatchObject({ url: URL_B, description: null, events: ['*'], status: 'active' });
    expect(a.body.data.secret).not.toBe(b.body.data.secret);
    expect(a.body.data.id).not.toBe(b.body.data.id);
  });

  it('a key with only customers.read may choose customer and note events, and the endpoint keeps that scope', async () => {
    const narrow = await api.key(companyId, { scopes: ['webhooks.manage', 'customers.read'] });
    const res = await create({ url: URL_A, events: ['customer.updated', 'note.created', 'note.deleted'] }, narrow.key);
    expect((await stored(res.body.data.id)).scopes).toEqual(['customers.read']);
    const all = await create({ url: URL_A, events: ['*'] }, narrow.key);
    expect((await stored(all.body.data.id)).scopes).toEqual(['customers.read']);
  });

  it('accepts an IPv6 literal and the ports 443, 80 (https) and 8443', async () => {
    for (const url of ['https://[2606:4700:4700::1111]/hook', 'https://1.1.1.1:443/a', 'https://1.1.1.1:80/b']) {
      expect((await create({ url, events: ['deal.lost'] })).body.data.url).toBe(url);
    }
  });

  it('with an Idempotency-Key a repeat replays the same endpoint and secret instead of creating another', async () => {
    const other = await api.tenant();
    const body = { url: URL_A, events: ['deal.created'] };
    const headers = { 'Idempotency-Key': 'create-endpoint-1' };
    const first = await api.call('createWebhookEndpoint', { key: other.key, body, headers });
    const again = await api.call('createWebhookEndpoint', { key: other.key, body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe('"1"');
    expect(again.body).toEqual(first.body);
    const [{ n }] =
      await api.sql`select count(*)::int as n from webhook_endpoints where company_id = ${other.companyId}`;
    expect(n).toBe(1);
  });
});

describe('getWebhookEndpoint', () => {
  it('answers the endpoint without its secret, with its ETag', async () => {
    const created = (await create({ url: URL_A, description: 'ERP', events: ['customer.created'] })).body.data;
    const res = await api.call('getWebhookEndpoint', { key, params: { endpoint: created.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    const { secret: _secret, ...withoutSecret } = created;
    expect(res.body.data).toEqual(withoutSecret);
    expect(res.body.data).not.toHaveProperty('secret');
  });

  it('shows the delivery health the tasks recorded (last_success_at, last_failure_at)', async () => {
    const { id } = (await create({ url: URL_A, events: ['customer.created'] })).body.data;
    await api.sql`update webhook_endpoints set last_success_at = '2026-03-14T09:30:02.123Z',
      last_failure_at = '2026-03-11T22:05:41Z' where company_id = ${companyId} and id = ${id}`;
    const res = await api.call('getWebhookEndpoint', { key, params: { endpoint: id } });
    expect(res.body.data.last_success_at).toBe('2026-03-14T09:30:02.123Z');
    expect(res.body.data.last_failure_at).toBe('2026-03-11T22:05:41.000Z');
  });
});

describe('listWebhookEndpoints', () => {
  let ids: string[];
  let listKey: string;

  beforeAll(async () => {
    const t = await api.tenant();
    listKey = t.key;
    ids = [];
    for (const n of [1, 2, 3]) {
      const res = await api.call('createWebhookEndpoint', {
        key: listKey,
        body: { url: `${URL_A}/${n}`, events: ['*'] },
      });
      ids.push(res.body.data.id);
    }
    await api.call('updateWebhookEndpoint', {
      key: listKey,
      params: { endpoint: ids[1] },
      body: { status: 'disabled' },
    });
  });

  it('lists oldest first, without secrets', async () => {
    const res = await api.call('listWebhookEndpoints', { key: listKey });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(res.body.data.map((e: { url: string }) => e.url)).toEqual([`${URL_A}/1`, `${URL_A}/2`, `${URL_A}/3`]);
    for (const e of res.body.data) expect(e).not.toHaveProperty('secret');
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
  });

  it('pages with cursors and sorts newest first on request', async () => {
    const first = await api.call('listWebhookEndpoints', { key: listKey, query: { limit: 2 } });
    expect(first.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.body.meta.next_cursor).toEqual(expect.any(String));
    const second = await api.call('listWebhookEndpoints', {
      key: listKey,
      query: { limit: 2, cursor: first.body.meta.next_cursor },
    });
    expect(second.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2]]);
    expect(second.body.meta.next_cursor).toBeNull();
    const back = await api.call('listWebhookEndpoints', {
      key: listKey,
      query: { limit: 2, cursor: second.body.meta.prev_cursor },
    });
    expect(back.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    const newest = await api.call('listWebhookEndpoints', { key: listKey, query: { sort: '-created_at' } });
    expect(newest.body.data.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
  });

  it('filters on status', async () => {
    const disabled = await api.call('listWebhookEndpoints', { key: listKey, query: { 'filter[status]': 'disabled' } });
    expect(disabled.body.data.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
    const active = await api.call('listWebhookEndpoints', { key: listKey, query: { 'filter[status]': 'active' } });
    expect(active.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0], ids[2]]);
  });

  it("never shows another company's endpoints", async () => {
    const res = await api.call('listWebhookEndpoints', { key });
    expect(res.body.data.map((e: { id: string }) => e.id)).not.toContain(ids[0]);
  });
});

describe('updateWebhookEndpoint', () => {
  it('changes the fields sent, keeps the others, and moves the ETag on', async () => {
    const created = (await create({ url: URL_A, description: 'ERP', events: ['customer.created'] })).body.data;
    const res = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: created.id },
      headers: { 'If-Match': '"1"' },
      body: { url: URL_B, events: ['customer.created', 'deal.lost'] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toEqual({
      ...created,
      secret: undefined,
      url: URL_B,
      events: ['customer.created', 'deal.lost'],
      updated_at: expect.stringMatching(ISO_Z),
    });
    expect(res.body.data).not.toHaveProperty('secret');
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const cleared = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: created.id },
      body: { description: null },
    });
    expect(cleared.body.data.description).toBeNull();
    expect(cleared.headers.get('etag')).toBe('"3"');
  });

  it('fields sent with their current values change nothing (same ETag)', async () => {
    const created = (await create({ url: URL_A, description: 'ERP', events: ['customer.created'] })).body.data;
    const res = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: created.id },
      body: { url: URL_A, description: 'ERP', events: ['customer.created'], status: 'active' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.data.updated_at).toBe(created.updated_at);
  });

  it('choosing events again takes the visibility of the key that chose them', async () => {
    const created = (await create({ url: URL_A, events: ['customer.created'] })).body.data;
    const narrow = await api.key(companyId, { scopes: ['webhooks.manage', 'customers.read'] });
    await api.call('updateWebhookEndpoint', {
      key: narrow.key,
      params: { endpoint: created.id },
      body: { events: ['customer.created', 'note.created'] },
    });
    expect((await stored(created.id)).scopes).toEqual(['customers.read']);
    // A description change by the narrow key does not touch what the endpoint may receive.
    const other = (await create({ url: URL_A, events: ['deal.won'] })).body.data;
    await api.call('updateWebhookEndpoint', {
      key: narrow.key,
      params: { endpoint: other.id },
      body: { description: 'x' },
    });
    expect((await stored(other.id)).scopes).toEqual([
      'customers.read',
      'deals.read',
      'tasks.read',
      'messages.read',
      'appointments.read',
      'quotes.read',
      'invoices.read',
      'work_orders.read',
      'orders.read',
      'reviews.read',
    ]);
  });

  it('disabling sets disabled_by_user and disabled_at, and turns pending deliveries into failed ones', async () => {
    const { id } = (await create({ url: URL_A, events: ['customer.created'] })).body.data;
    const pending = await deliveryFor(id, 'pending');
    const succeeded = await deliveryFor(id, 'succeeded');
    const res = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: id },
      body: { status: 'disabled' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'disabled_by_user' });
    expect(res.body.data.disabled_at).toBe(res.body.data.updated_at);
    expect(await deliveryStatus(pending)).toEqual({ status: 'failed', next_attempt_at: null });
    expect((await deliveryStatus(succeeded)).status).toBe('succeeded');
    // Its queued job then sends nothing.
    expect(
      await deliver(
        new DeliveryState(api.db, api.config.publicUrl),
        { companyId, deliveryId: pending, trigger: 'scheduled' },
        { policy: { allowPrivate: false } },
      ),
    ).toBe('skipped');
    // Disabling again changes nothing.
    const again = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: id },
      body: { status: 'disabled' },
    });
    expect(again.headers.get('etag')).toBe('"2"');
    expect(again.body.data.disabled_at).toBe(res.body.data.disabled_at);
  });

  it('re-enabling clears disabled_reason and disabled_at and starts the failure count again', async () => {
    const { id } = (await create({ url: URL_A, events: ['customer.created'] })).body.data;
    // As the delivery task leaves an endpoint it disabled after 5 days of failures.
    await api.sql`update webhook_endpoints set status = 'disabled', disabled_reason = 'failing_for_5_days',
      disabled_at = now(), failing_since = now() - interval '5 days', last_failure_at = now()
      where company_id = ${companyId} and id = ${id}`;
    const before = await api.call('getWebhookEndpoint', { key, params: { endpoint: id } });
    expect(before.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'failing_for_5_days' });
    const res = await api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { status: 'active' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', disabled_reason: null, disabled_at: null });
    expect(res.body.data.last_failure_at).toBe(before.body.data.last_failure_at);
    expect((await stored(id)).failing_since).toBeNull();
  });
});

describe('deleteWebhookEndpoint', () => {
  it('deletes the endpoint with its deliveries and attempts; a queued delivery then finds nothing', async () => {
    const { id } = (await create({ url: URL_A, events: ['customer.created'] })).body.data;
    const keep = (await create({ url: URL_B, events: ['customer.created'] })).body.data.id;
    const pending = await deliveryFor(id, 'pending');
    await deliveryFor(id, 'failed');
    const kept = await deliveryFor(keep, 'pending');

    const res = await api.call('deleteWebhookEndpoint', {
      key,
      params: { endpoint: id },
      headers: { 'If-Match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { object: 'webhook_endpoint', id, deleted: true } });

    expect((await api.call('getWebhookEndpoint', { key, params: { endpoint: id } })).status).toBe(404);
    const [counts] = await api.sql`select
      (select count(*)::int from webhook_deliveries where company_id = ${companyId} and endpoint_id = ${id}) as deliveries,
      (select count(*)::int from webhook_attempts where company_id = ${companyId} and endpoint_id = ${id}) as attempts`;
    expect(counts).toEqual({ deliveries: 0, attempts: 0 });
    expect(
      await deliver(
        new DeliveryState(api.db, api.config.publicUrl),
        { companyId, deliveryId: pending, trigger: 'scheduled' },
        { policy: { allowPrivate: false } },
      ),
    ).toBe('gone');
    // Another endpoint's log is untouched.
    expect((await deliveryStatus(kept)).status).toBe('pending');
    // The second delete finds nothing.
    expect((await api.call('deleteWebhookEndpoint', { key, params: { endpoint: id } })).status).toBe(404);
  });
});
