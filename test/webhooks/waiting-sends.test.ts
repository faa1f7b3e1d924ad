// Messages of a delivery job that wait for their turn behind a slow receiver (16 in flight per endpoint) are sent
// with the endpoint as it is when their turn comes (src/webhooks/endpoint-rereads.ts): not at all once it was deleted
// or disabled, to its new URL after an update.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DeliverOutcome, deliverBatch } from '../../src/webhooks/delivery-attempts.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { fanoutEvents } from '../../src/webhooks/fanout.ts';
import {
  deliveriesOf,
  holdingReceiver,
  insertEndpoint,
  jobsOf,
  LOCAL_SENDING,
  receiver,
  recordCustomerEvents,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

// The worker's delivery state, fresh for each test.
let state: DeliveryState;
beforeEach(() => {
  state = new DeliveryState(api.db, api.config.publicUrl);
});

/** 40 pending first attempts to one endpoint of a receiver that holds each request 1.2 s, being sent. */
async function slowBatch() {
  const { companyId, key } = await api.tenant();
  const slow = await holdingReceiver('slow', 1_200);
  const endpoint = await insertEndpoint(api, companyId, { url: slow.url });
  const eventIds = await recordCustomerEvents(api, companyId, 40, 'wachtrij@example.nl');
  // Without a sender the fan-out queues every first attempt for delivery jobs.
  await fanoutEvents(state, companyId, eventIds);
  const deliveryIds = (await jobsOf(api, companyId)).flatMap((j) => (j.payload.deliveryIds as string[]) ?? []);
  expect(deliveryIds).toHaveLength(40);
  const outcomes = deliverBatch(state, { companyId, deliveryIds, trigger: 'scheduled' }, LOCAL_SENDING);
  // The first 16 are in flight; the other 24 wait for their turn.
  while (slow.stats.ids.length < 16) await sleep(10);
  return { companyId, key, slow, endpoint, outcomes };
}

const count = (outcomes: DeliverOutcome[], outcome: DeliverOutcome) => outcomes.filter((o) => o === outcome).length;

describe('messages waiting for their turn', () => {
  it('are not sent once the endpoint is deleted', async () => {
    const { key, slow, endpoint, outcomes } = await slowBatch();
    const deleted = await api.call('deleteWebhookEndpoint', { key, params: { endpoint: endpoint.id } });
    expect(deleted.status).toBe(200);
    // Every delivery went with the endpoint: those in flight are answered, then found gone.
    expect(await outcomes).toEqual(Array(40).fill('gone'));
    expect(slow.stats.ids).toHaveLength(16);
  });

  it('are not sent once the endpoint is disabled, and stay failed', async () => {
    const { key, slow, endpoint, outcomes } = await slowBatch();
    const disabled = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: endpoint.id },
      body: { status: 'disabled' },
    });
    expect(disabled.status).toBe(200);
    const answered = await outcomes;
    // The 16 in flight were delivered (and are recorded so); the 24 waiting were not sent.
    expect(count(answered, 'succeeded')).toBe(16);
    expect(count(answered, 'skipped')).toBe(24);
    expect(slow.stats.ids).toHaveLength(16);
    const log = await deliveriesOf(api, endpoint.id);
    expect(log.filter((d) => d.status === 'failed')).toHaveLength(24);
    expect(log.filter((d) => d.status === 'succeeded')).toHaveLength(16);
  });

  it("are not sent once a key that cannot read them chose the endpoint's events again, and fail", async () => {
    const { companyId, slow, endpoint, outcomes } = await slowBatch();
    const { key: dealsOnly } = await api.key(companyId, { scopes: ['deals.read', 'webhooks.manage'] });
    const moved = await receiver();
    const narrowed = await api.call('updateWebhookEndpoint', {
      key: dealsOnly,
      params: { endpoint: endpoint.id },
      body: { events: ['*'], url: moved.url },
    });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    const answered = await outcomes;
    // The 16 in flight were delivered to the old URL; the 24 waiting customer events went nowhere.
    expect(count(answered, 'succeeded')).toBe(16);
    expect(count(answered, 'skipped')).toBe(24);
    expect(moved.requests).toHaveLength(0);
    expect(slow.stats.ids).toHaveLength(16);
    expect((await deliveriesOf(api, endpoint.id)).filter((d) => d.status === 'failed')).toHaveLength(24);
  });

  it('go to the new URL once the endpoint is pointed elsewhere', async () => {
    const { key, slow, endpoint, outcomes } = await slowBatch();
    const moved = await receiver();
    const updated = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: endpoint.id },
      body: { url: moved.url },
    });
    expect(updated.status).toBe(200);
    expect(count(await outcomes, 'succeeded')).toBe(40);
    expect(slow.stats.ids).toHaveLength(16);
    expect(moved.requests).toHaveLength(24);
    // Each attempt records the address it was posted to.
    const [{ n }] = await api.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_attempts where endpoint_id = ${endpoint.id} and url = ${moved.url}`;
    expect(n).toBe(24);
  });
});
