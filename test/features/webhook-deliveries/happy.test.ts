// The delivery log through the API: deliveries of an endpoint and of an event (newest first, filters,
// cursors), one delivery, and its attempts.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { createCustomer, insertEndpoint, latestEventId, receiver, runDueJobs } from './support.ts';

let api: TestApi;
let key: string;
let companyId: string;
let endpointId: string;
let otherEndpointId: string;
const eventIds: string[] = [];

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  ({ key, companyId } = await api.tenant());
  // Answers 503 to the second message only.
  const hook = await receiver((n) => (n === 2 ? { status: 503, body: 'later please' } : {}));
  endpointId = (await insertEndpoint(api, companyId, { url: hook.url })).id;
  otherEndpointId = (
    await insertEndpoint(api, companyId, { url: (await receiver()).url, events: ['customer.updated'] })
  ).id;
  for (let i = 0; i < 3; i++) {
    const customer = await createCustomer(api, key);
    eventIds.push(await latestEventId(api, customer.id));
    await runDueJobs(api, companyId);
  }
  const customer = await createCustomer(api, key);
  await api.call('updateCustomer', { key, params: { customer: customer.id }, body: { name: 'Gewijzigd' } });
  eventIds.push(await latestEventId(api, customer.id));
  await runDueJobs(api, companyId);
});

const list = (query: Record<string, string | number> = {}) =>
  api.call('listWebhookEndpointDeliveries', { key, params: { endpoint: endpointId }, query });

describe('listWebhookEndpointDeliveries', () => {
  it('lists the deliveries of the endpoint newest first, in the contract shape', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    // 4 customer.created + 1 customer.updated; the other endpoint's delivery is not in this log.
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data.every((d: { endpoint_id: string }) => d.endpoint_id === endpointId)).toBe(true);
    const created = res.body.data.map((d: { created_at: string }) => d.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(res.body.data[0]).toMatchObject({
      object: 'webhook_delivery',
      event_id: eventIds[3],
      event_type: 'customer.updated',
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
      last_status_code: 200,
    });
    const asc = await list({ sort: 'created_at' });
    expect(asc.body.data.map((d: { id: string }) => d.id)).toEqual(
      res.body.data.map((d: { id: string }) => d.id).reverse(),
    );
  });

  it('filters by status, event type and creation time', async () => {
    const pending = await list({ 'filter[status]': 'pending' });
    expect(pending.body.data).toHaveLength(1);
    expect(pending.body.data[0]).toMatchObject({
      event_id: eventIds[1],
      status: 'pending',
      last_status_code: 503,
      next_attempt_at: expect.any(String),
      last_attempt_at: expect.any(String),
    });
    const updated = await list({ 'filter[event_type]': 'customer.updated' });
    expect(updated.body.data.map((d: { event_id: string }) => d.event_id)).toEqual([eventIds[3]]);
    const all = (await list({ sort: 'created_at' })).body.data;
    const since = await list({ 'filter[created_since]': all[3].created_at });
    expect(since.body.data.map((d: { id: string }) => d.id)).toEqual([all[4].id, all[3].id]);
  });

  it('pages with cursors', async () => {
    const first = await list({ limit: 2 });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta.next_cursor).toEqual(expect.any(String));
    const second = await list({ limit: 2, cursor: first.body.meta.next_cursor });
    const third = await list({ limit: 2, cursor: second.body.meta.next_cursor });
    const ids = [...first.body.data, ...second.body.data, ...third.body.data].map((d: { id: string }) => d.id);
    expect(ids).toEqual((await list()).body.data.map((d: { id: string }) => d.id));
    expect(third.body.meta.next_cursor).toBeNull();
  });
});

describe('getWebhookDelivery and listWebhookDeliveryAttempts', () => {
  it('answers one delivery and its attempts, newest first', async () => {
    const [pending] = (await list({ 'filter[status]': 'pending' })).body.data;
    const got = await api.call('getWebhookDelivery', {
      key,
      params: { endpoint: endpointId, delivery: pending.id },
    });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(pending);

    // A second, scheduled attempt succeeds.
    await runDueJobs(api, companyId, { now: new Date(Date.now() + 60_000) });
    const attempts = await api.call('listWebhookDeliveryAttempts', {
      key,
      params: { endpoint: endpointId, delivery: pending.id },
    });
    expect(attempts.status).toBe(200);
    expect(attempts.body.data).toEqual([
      expect.objectContaining({ attempt_number: 2, status: 'succeeded', status_code: 200, error: null }),
      expect.objectContaining({
        object: 'webhook_attempt',
        delivery_id: pending.id,
        endpoint_id: endpointId,
        event_id: eventIds[1],
        attempt_number: 1,
        trigger: 'scheduled',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hook$/),
        status: 'failed',
        status_code: 503,
        duration_ms: expect.any(Number),
        error: 'http_status',
        response_body: 'later please',
      }),
    ]);
    const oldestFirst = await api.call('listWebhookDeliveryAttempts', {
      key,
      params: { endpoint: endpointId, delivery: pending.id },
      query: { sort: 'created_at', limit: 1 },
    });
    expect(oldestFirst.body.data.map((a: { attempt_number: number }) => a.attempt_number)).toEqual([1]);
    expect(oldestFirst.body.meta.next_cursor).toEqual(expect.any(String));
  });
});

describe('listEventDeliveries', () => {
  it("lists the event's deliveries to every endpoint, with webhooks.manage alone", async () => {
    const manageOnly = (await api.key(companyId, { scopes: ['webhooks.manage'] })).key;
    const res = await api.call('listEventDeliveries', { key: manageOnly, params: { event: eventIds[3] } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { endpoint_id: string }) => d.endpoint_id).sort()).toEqual(
      [endpointId, otherEndpointId].sort(),
    );
    const failedOnly = await api.call('listEventDeliveries', {
      key,
      params: { event: eventIds[3] },
      query: { 'filter[status]': 'failed' },
    });
    expect(failedOnly.body.data).toEqual([]);
  });

  it('answers an empty list for an event no endpoint received', async () => {
    const { companyId: lonely, key: lonelyKey } = await api.tenant();
    const customer = await createCustomer(api, lonelyKey);
    const res = await api.call('listEventDeliveries', {
      key: lonelyKey,
      params: { event: await latestEventId(api, customer.id) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { limit: 50, next_cursor: null, prev_cursor: null } });
    expect(lonely).not.toBe(companyId);
  });
});
