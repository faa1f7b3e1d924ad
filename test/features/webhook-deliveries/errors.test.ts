// Error answers of the delivery-log operations: unknown or foreign ids (404), a disabled endpoint (409), the
// recovery window (422), and the scope (403: webhooks.manage).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import {
  createCustomer,
  deliveriesOf,
  insertEndpoint,
  jobsOf,
  latestEventId,
  receiver,
  runDueJobs,
} from './support.ts';

let api: TestApi;
let key: string;
let companyId: string;
let endpointId: string;
let deliveryId: string;
let eventId: string;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  ({ key, companyId } = await api.tenant());
  endpointId = (await insertEndpoint(api, companyId, { url: (await receiver()).url })).id;
  const customer = await createCustomer(api, key);
  eventId = await latestEventId(api, customer.id);
  await runDueJobs(api, companyId);
  [{ id: deliveryId }] = await deliveriesOf(api, endpointId);
});

const DAY = 24 * 3600_000;

describe('404 not_found', () => {
  it('for an unknown endpoint, delivery or event', async () => {
    const missingEndpoint = { endpoint: 'we_missing', delivery: deliveryId };
    const missingDelivery = { endpoint: endpointId, delivery: 'wd_missing' };
    const answers = [
      await api.call('listWebhookEndpointDeliveries', { key, params: { endpoint: 'we_missing' } }),
      await api.call('getWebhookDelivery', { key, params: missingEndpoint }),
      await api.call('getWebhookDelivery', { key, params: missingDelivery }),
      await api.call('listWebhookDeliveryAttempts', { key, params: missingDelivery }),
      await api.call('resendWebhookDelivery', { key, params: missingDelivery }),
      await api.call('resendWebhookDelivery', { key, params: missingEndpoint }),
      await api.call('recoverWebhookEndpoint', {
        key,
        params: { endpoint: 'we_missing' },
        body: { since: new Date(Date.now() - DAY).toISOString() },
      }),
      await api.call('listEventDeliveries', { key, params: { event: 'evt_missing' } }),
    ];
    expect(answers.map((a) => [a.status, a.body.code])).toEqual(answers.map(() => [404, 'not_found']));
  });

  it("for a delivery under another endpoint and for another company's ids", async () => {
    const other = (await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook' })).id;
    const wrongParent = await api.call('getWebhookDelivery', {
      key,
      params: { endpoint: other, delivery: deliveryId },
    });
    expect(wrongParent.status).toBe(404);

    const stranger = (await api.tenant()).key;
    const answers = [
      await api.call('listWebhookEndpointDeliveries', { key: stranger, params: { endpoint: endpointId } }),
      await api.call('getWebhookDelivery', { key: stranger, params: { endpoint: endpointId, delivery: deliveryId } }),
      await api.call('resendWebhookDelivery', {
        key: stranger,
        params: { endpoint: endpointId, delivery: deliveryId },
      }),
      await api.call('listEventDeliveries', { key: stranger, params: { event: eventId } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
  });
});

describe('409 conflict for a disabled endpoint', () => {
  it('refuses resend and recovery, and queues nothing', async () => {
    const { companyId: c, key: k } = await api.tenant();
    const { id } = await insertEndpoint(api, c, { url: 'http://127.0.0.1:9/hook' });
    await createCustomer(api, k);
    await runDueJobs(api, c, { timeoutMs: 500 });
    const [delivery] = await deliveriesOf(api, id);
    await api.sql`update webhook_endpoints set status = 'disabled' where id = ${id}`;
    await api.sql`delete from graphile_worker._private_jobs where payload->>'companyId' = ${c}`;

    const resend = await api.call('resendWebhookDelivery', { key: k, params: { endpoint: id, delivery: delivery.id } });
    expect([resend.status, resend.body.code]).toEqual([409, 'conflict']);
    const recover = await api.call('recoverWebhookEndpoint', {
      key: k,
      params: { endpoint: id },
      body: { since: new Date(Date.now() - DAY).toISOString() },
    });
    expect([recover.status, recover.body.code]).toEqual([409, 'conflict']);
    expect(await jobsOf(api, c)).toEqual([]);
  });
});

describe('422 for the recovery window', () => {
  const recover = (body: unknown) =>
    api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body });

  it('since more than 30 days ago, since in the future, until not after since, or no since', async () => {
    const now = Date.now();
    const cases: [unknown, string, string][] = [
      [{ since: new Date(now - 31 * DAY).toISOString() }, '/since', 'too_small'],
      [{ since: new Date(now + DAY).toISOString() }, '/since', 'too_big'],
      [
        { since: new Date(now - DAY).toISOString(), until: new Date(now - 2 * DAY).toISOString() },
        '/until',
        'too_small',
      ],
      [{ since: '2026-03-01' }, '/since', 'invalid_format'],
      [{}, '/since', 'required'],
    ];
    for (const [body, pointer, code] of cases) {
      const res = await recover(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer, code })]);
    }
  });

  it('accepts since just within 30 days and an explicit until, echoing the window', async () => {
    const since = new Date(Date.now() - 30 * DAY + 60_000).toISOString();
    const until = new Date(Date.now() - DAY).toISOString();
    const res = await recover({ since, until });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ object: 'webhook_recovery', endpoint_id: endpointId, since, until, queued: 0 });
  });
});

describe('403 insufficient_scope', () => {
  it('needs webhooks.manage, even with every other scope', async () => {
    const { key: readAll } = await api.key(companyId, { scopes: ['customers.read', 'deals.read', 'events.read'] });
    const answers = [
      await api.call('listWebhookEndpointDeliveries', { key: readAll, params: { endpoint: endpointId } }),
      await api.call('getWebhookDelivery', { key: readAll, params: { endpoint: endpointId, delivery: deliveryId } }),
      await api.call('listWebhookDeliveryAttempts', {
        key: readAll,
        params: { endpoint: endpointId, delivery: deliveryId },
      }),
      await api.call('resendWebhookDelivery', { key: readAll, params: { endpoint: endpointId, delivery: deliveryId } }),
      await api.call('listEventDeliveries', { key: readAll, params: { event: eventId } }),
    ];
    expect(answers.map((a) => [a.status, a.body.required_scope])).toEqual(answers.map(() => [403, 'webhooks.manage']));
  });
});
