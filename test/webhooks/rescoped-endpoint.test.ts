// A key without customers.read may choose an endpoint's events again (narrowing the endpoint to what it may read)
// and point it at its own URL. The endpoint's earlier deliveries of customer events must not follow it there:
// not by a resend (409), not by a recovery (left out), not by a scheduled retry (not sent, failed).
import { beforeAll, describe, expect, it } from 'vitest';
import { dealOf, pipelineOf } from '../features/deals/fixtures.ts';
import { deliveriesOf, insertEndpoint, receiver, runDueJobs } from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

const MINUTE = 60_000;

/** A company with a full key, a key that may manage webhooks and read deals but not customers, and a pipeline. */
async function company() {
  const { companyId, key } = await api.tenant();
  const { key: dealsOnly } = await api.key(companyId, {
    scopes: ['deals.read', 'deals.write', 'events.read', 'webhooks.manage'],
  });
  await pipelineOf(api, companyId);
  return { companyId, key, dealsOnly };
}

/** The deal key chooses the endpoint's events again and points it at its own receiver. */
async function redirect(dealsOnly: string, endpointId: string, url: string, extra: Record<string, unknown> = {}) {
  const res = await api.call('updateWebhookEndpoint', {
    key: dealsOnly,
    params: { endpoint: endpointId },
    body: { events: ['*'], url, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const typesOf = (hook: Awaited<ReturnType<typeof receiver>>) => hook.requests.map((r) => JSON.parse(r.body).type);

/** The endpoint's deliveries by event type (one customer.created and one deal.created here). */
async function byType(endpointId: string) {
  const rows = await api.sql<{ id: string; type: string; status: string }[]>`
    select d.id, e.type, d.status from webhook_deliveries d join events e on e.id = d.event_id
    where d.endpoint_id = ${endpointId}`;
  return Object.fromEntries(rows.map((r) => [r.type, r]));
}

describe('an endpoint whose events a key without customers.read chose again', () => {
  it('does not resend a customer event (409 conflict) but still resends a deal event', async () => {
    const { companyId, key, dealsOnly } = await company();
    const first = await receiver();
    const stolen = await receiver();
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: first.url });
    await dealOf(api, key);
    await runDueJobs(api, companyId);
    expect(typesOf(first).sort()).toEqual(['customer.created', 'deal.created']);

    await redirect(dealsOnly, endpointId, stolen.url);
    const deliveries = await byType(endpointId);
    const refused = await api.call('resendWebhookDelivery', {
      key: dealsOnly,
      params: { endpoint: endpointId, delivery: deliveries['customer.created'].id },
      headers: { 'accept-language': 'en' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.detail).toMatch(/may no longer receive this event/);
    // The full key cannot resend it there either: the endpoint decides, not the caller.
    const byOwner = await api.call('resendWebhookDelivery', {
      key,
      params: { endpoint: endpointId, delivery: deliveries['customer.created'].id },
    });
    expect(byOwner.status).toBe(409);

    const resent = await api.call('resendWebhookDelivery', {
      key: dealsOnly,
      params: { endpoint: endpointId, delivery: deliveries['deal.created'].id },
    });
    expect(resent.status).toBe(202);
    await runDueJobs(api, companyId);
    expect(typesOf(stolen)).toEqual(['deal.created']);
  });

  it('leaves customer events out of a recovery', async () => {
    const { companyId, key, dealsOnly } = await company();
    const stolen = await receiver();
    // Disabled: the events become failed deliveries without attempts, for a recovery to send later.
    const { id: endpointId } = await insertEndpoint(api, companyId, {
      url: 'http://127.0.0.1:9/hook',
      status: 'disabled',
    });
    await dealOf(api, key);
    await runDueJobs(api, companyId);
    expect(Object.values(await byType(endpointId)).map((d) => d.status)).toEqual(['failed', 'failed']);

    await redirect(dealsOnly, endpointId, stolen.url, { status: 'active' });
    const recovered = await api.call('recoverWebhookEndpoint', {
      key: dealsOnly,
      params: { endpoint: endpointId },
      body: { since: new Date(Date.now() - 10 * MINUTE).toISOString() },
    });
    expect(recovered.status).toBe(202);
    expect(recovered.body.data.queued).toBe(1);
    await runDueJobs(api, companyId);
    expect(typesOf(stolen)).toEqual(['deal.created']);
    const after = await byType(endpointId);
    expect([after['customer.created'].status, after['deal.created'].status]).toEqual(['failed', 'succeeded']);
  });

  it('does not send a scheduled retry of a customer event there: the delivery fails instead', async () => {
    const { companyId, key, dealsOnly } = await company();
    const failing = await receiver(() => ({ status: 500 }));
    const stolen = await receiver();
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: failing.url });
    await dealOf(api, key);
    await runDueJobs(api, companyId);
    expect(Object.values(await byType(endpointId)).map((d) => d.status)).toEqual(['pending', 'pending']);

    await redirect(dealsOnly, endpointId, stolen.url);
    // The first retry is due 5 seconds after the first attempt.
    await runDueJobs(api, companyId, { now: new Date(Date.now() + MINUTE) });
    expect(typesOf(stolen)).toEqual(['deal.created']);
    const after = await byType(endpointId);
    expect([after['customer.created'].status, after['deal.created'].status]).toEqual(['failed', 'succeeded']);
    expect(await deliveriesOf(api, endpointId)).toHaveLength(2);
  });
});

describe('an endpoint that now receives only deal events, pointed elsewhere by a key without customers.read', () => {
  it('may be (the key reads all it receives) and keeps only the key’s scopes: its earlier customer event stays behind', async () => {
    const { companyId, key, dealsOnly } = await company();
    const first = await receiver();
    const stolen = await receiver();
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: first.url });
    await dealOf(api, key);
    await runDueJobs(api, companyId);
    expect(typesOf(first).sort()).toEqual(['customer.created', 'deal.created']);
    // The full key narrows the events; the endpoint keeps that key's scopes (customers and deals).
    const narrowed = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: endpointId },
      body: { events: ['deal.created'] },
    });
    expect(narrowed.status).toBe(200);

    const moved = await api.call('updateWebhookEndpoint', {
      key: dealsOnly,
      params: { endpoint: endpointId },
      body: { url: stolen.url },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ url: stolen.url, events: ['deal.created'] });
    const [row] = await api.sql`select scopes from webhook_endpoints where id = ${endpointId}`;
    expect(row.scopes).toEqual(['deals.read']);

    const deliveries = await byType(endpointId);
    const refused = await api.call('resendWebhookDelivery', {
      key,
      params: { endpoint: endpointId, delivery: deliveries['customer.created'].id },
    });
    expect(refused.status).toBe(409);
    const resent = await api.call('resendWebhookDelivery', {
      key,
      params: { endpoint: endpointId, delivery: deliveries['deal.created'].id },
    });
    expect(resent.status).toBe(202);
    await dealOf(api, key);
    await runDueJobs(api, companyId);
    expect(typesOf(stolen)).toEqual(['deal.created', 'deal.created']);
  });
});
