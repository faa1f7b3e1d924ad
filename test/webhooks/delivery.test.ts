// Delivery to real receivers on 127.0.0.1: the Standard Webhooks message (verified with the
// `standardwebhooks` library on the raw body), how every kind of failed answer is recorded, subscriptions,
// deletion, and the SSRF guard applied again at delivery time.
import type { LookupAddress } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookSender } from '../../src/webhooks/send.ts';
import { newSecret } from '../../src/webhooks/sign.ts';
import {
  createCustomer,
  deliveriesOf,
  insertEndpoint,
  jobsOf,
  LOCAL_SENDING,
  latestEventId,
  receiver,
  runDueJobs,
  signatureHeaders,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

// Each test has its own sender (parsed URLs, decoded secrets, shared lookups, connections).
let sender: WebhookSender;
beforeEach(() => {
  sender = new WebhookSender();
});

/** A company with a full-access key and one endpoint on a fresh receiver. */
async function setup(answer?: Parameters<typeof receiver>[0], endpoint: { events?: string[] } = {}) {
  const { companyId, key } = await api.tenant();
  const hook = await receiver(answer);
  const { id, secret } = await insertEndpoint(api, companyId, { url: hook.url, ...endpoint });
  return { companyId, key, hook, endpointId: id, secret };
}

const attemptsOf = (deliveryId: string) =>
  api.sql`select attempt_number, trigger, status, status_code, duration_ms, error, response_body, url
          from webhook_attempts where delivery_id = ${deliveryId} order by attempt_number`;

describe('the message', () => {
  it('is the event as GET /events/{id} shows it, signed per Standard Webhooks, with the contract headers', async () => {
    const { companyId, key, hook, secret, endpointId } = await setup();
    const customer = await createCustomer(api, key, { name: 'Jansen Installatie' });
    const eventId = await latestEventId(api, customer.id);
    const before = Math.floor(Date.now() / 1000);

    expect(await runDueJobs(api, companyId)).toEqual(['succeeded']);

    expect(hook.requests).toHaveLength(1);
    const [message] = hook.requests;
    // The library throws unless a v1 signature over id.timestamp.raw-body matches and the time is recent.
    expect(() => new Webhook(secret).verify(message.body, signatureHeaders(message))).not.toThrow();
    expect(message.headers['webhook-id']).toBe(eventId);
    expect(Number(message.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(message.headers['webhook-timestamp'])).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(message.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(message.headers['content-type']).toBe('application/json');
    expect(message.headers['user-agent']).toBe('Service-Webhooks/1.0');

    const event = await api.call('getEvent', { key, params: { event: eventId } });
    expect(event.status).toBe(200);
    expect(JSON.parse(message.body)).toEqual(event.body.data);
    expect(JSON.parse(message.body)).toMatchObject({ type: 'customer.created', data: { object: customer } });

    const [delivery] = await deliveriesOf(api, endpointId);
    expect(delivery).toMatchObject({ event_id: eventId, status: 'succeeded', attempt_count: 1, next_attempt_at: null });
    expect(await attemptsOf(delivery.id)).toEqual([
      {
        attempt_number: 1,
        trigger: 'scheduled',
        status: 'succeeded',
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        response_body: 'ok',
        url: hook.url,
      },
    ]);
  });

  it('fails verification when the body was changed or another secret is used', async () => {
    const { companyId, key, hook, secret } = await setup();
    await createCustomer(api, key);
    await runDueJobs(api, companyId);
    const [message] = hook.requests;
    const headers = signatureHeaders(message);
    expect(() => new Webhook(secret).verify(message.body, headers)).not.toThrow();
    expect(() => new Webhook(secret).verify(message.body.replace('lead', 'LEAD'), headers)).toThrow();
    const other = (await insertEndpoint(api, (await api.tenant()).companyId, { url: hook.url })).secret;
    expect(() => new Webhook(other).verify(message.body, headers)).toThrow();
  });
});

describe('failed attempts are recorded, never followed or waited for beyond the limit', () => {
  it('a redirect is a failure and is not followed', async () => {
    const target = await receiver();
    const { companyId, key, endpointId } = await setup(() => ({ status: 307, headers: { location: target.url } }));
    await createCustomer(api, key);
    expect(await runDueJobs(api, companyId)).toEqual(['retrying']);
    expect(target.requests).toHaveLength(0);
    const [delivery] = await deliveriesOf(api, endpointId);
    expect(delivery.status).toBe('pending');
    expect(await attemptsOf(delivery.id)).toEqual([
      expect.objectContaining({ status: 'failed', status_code: 307, error: 'redirect' }),
    ]);
  });

  it('an answer slower than the timeout is a failure (timeout, no status code)', async () => {
    const { companyId, key, endpointId, hook } = await setup(() => ({ delayMs: 1500 }));
    await createCustomer(api, key);
    const started = Date.now();
    expect(await runDueJobs(api, companyId, { timeoutMs: 200 })).toEqual(['retrying']);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(hook.requests).toHaveLength(1);
    const [delivery] = await deliveriesOf(api, endpointId);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ status: 'failed', status_code: null, error: 'timeout', response_body: null });
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(190);
  });

  it('a non-2xx answer is http_status with its code and the first 4 KiB of its body', async () => {
    const { companyId, key, endpointId } = await setup(() => ({ status: 503, body: 'x'.repeat(10_000) }));
    await createCustomer(api, key);
    await runDueJobs(api, companyId);
    const [delivery] = await deliveriesOf(api, endpointId);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ status: 'failed', status_code: 503, error: 'http_status' });
    expect(attempt.response_body).toBe('x'.repeat(4096));
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
  });

  it('a closed port is connection_refused', async () => {
    const { companyId, key } = await api.tenant();
    const closed = await receiver();
    await closed.close();
    const { id } = await insertEndpoint(api, companyId, { url: closed.url });
    await createCustomer(api, key);
    await runDueJobs(api, companyId);
    const [delivery] = await deliveriesOf(api, id);
    expect(await attemptsOf(delivery.id)).toEqual([
      expect.objectContaining({ status: 'failed', status_code: null, error: 'connection_refused' }),
    ]);
  });
});

describe('what an endpoint receives', () => {
  it('an endpoint subscribed to customer.created only gets no customer.updated', async () => {
    const { companyId, key, hook, endpointId } = await setup(undefined, { events: ['customer.created'] });
    const customer = await createCustomer(api, key);
    const updated = await api.call('updateCustomer', {
      key,
      params: { customer: customer.id },
      body: { name: 'Nieuw' },
    });
    expect(updated.status).toBe(200);
    await runDueJobs(api, companyId);
    expect(hook.requests.map((r) => JSON.parse(r.body).type)).toEqual(['customer.created']);
    expect(await deliveriesOf(api, endpointId)).toHaveLength(1);
  });

  it('a deleted endpoint receives nothing more: neither its pending retry nor later events', async () => {
    const { companyId, key, hook, endpointId } = await setup(() => ({ status: 500 }));
    await createCustomer(api, key);
    expect(await runDueJobs(api, companyId)).toEqual(['retrying']);
    expect(hook.requests).toHaveLength(1);
    const retry = await jobsOf(api, companyId);
    expect(retry).toHaveLength(1);

    const deleted = await api.call('deleteWebhookEndpoint', { key, params: { endpoint: endpointId } });
    expect(deleted.status).toBe(200);
    await createCustomer(api, key);
    // The retry comes due; it and anything the new event queued find no endpoint.
    await runDueJobs(api, companyId, { now: new Date(retry[0].runAt.getTime() + 1000) });
    expect(hook.requests).toHaveLength(1);
    expect(await deliveriesOf(api, endpointId)).toHaveLength(0);
  });
});

describe('the SSRF guard again at delivery', () => {
  async function disabledWith(companyId: string, endpointId: string) {
    const [row] = await api.sql`
      select status, disabled_reason, disabled_at from webhook_endpoints
      where company_id = ${companyId} and id = ${endpointId}`;
    return row;
  }

  it('an address changed to the metadata service is refused: url_not_allowed, endpoint disabled', async () => {
    const { companyId, key, endpointId } = await setup();
    await api.sql`insert into users (company_id, name, email, role) values (${companyId}, 'Beheer', 'beheer@example.nl', 'administrator')`;
    await api.sql`update webhook_endpoints set url = 'http://169.254.169.254/latest/meta-data/' where id = ${endpointId}`;
    await createCustomer(api, key);
    expect(await runDueJobs(api, companyId)).toEqual(['retrying']);
    const [delivery] = await deliveriesOf(api, endpointId);
    expect(await attemptsOf(delivery.id)).toEqual([
      expect.objectContaining({ status: 'failed', status_code: null, error: 'url_not_allowed', duration_ms: 0 }),
    ]);
    expect(await disabledWith(companyId, endpointId)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'url_not_allowed',
      disabled_at: expect.any(String),
    });
    // Disabling fails what was pending and tells the administrators.
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({ status: 'failed', next_attempt_at: null });
    const emails = await api.sql`select "to", kind from outbound_emails where company_id = ${companyId}`;
    expect(emails).toEqual([{ to: ['beheer@example.nl'], kind: 'webhook_endpoint_disabled' }]);
  });

  it('a host name that now also resolves to 10.0.0.1 is refused, and nothing is sent to its other address', async () => {
    const { companyId, key, hook, endpointId } = await setup();
    await api.sql`update webhook_endpoints set url = ${`http://hooks.dekker.example:${hook.port}/hook`} where id = ${endpointId}`;
    const resolvesTo =
      (...addresses: string[]) =>
      async (): Promise<LookupAddress[]> =>
        addresses.map((address) => ({ address, family: 4 }));

    // Control: resolving to the receiver only, the message arrives through the host name.
    await createCustomer(api, key);
    expect(await runDueJobs(api, companyId, { lookup: resolvesTo('127.0.0.1') })).toEqual(['succeeded']);
    expect(hook.requests).toHaveLength(1);

    await createCustomer(api, key);
    expect(await runDueJobs(api, companyId, { lookup: resolvesTo('127.0.0.1', '10.0.0.1') })).toEqual(['retrying']);
    expect(hook.requests).toHaveLength(1);
    const deliveries = await deliveriesOf(api, endpointId);
    expect(await attemptsOf(deliveries[1].id)).toEqual([
      expect.objectContaining({ error: 'url_not_allowed', status_code: null }),
    ]);
    expect(await disabledWith(companyId, endpointId)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'url_not_allowed',
    });
  });
});

describe('the 10-second limit', () => {
  const slowLookup = (ms: number) => (): Promise<LookupAddress[]> =>
    new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), ms));
  const message = { id: 'evt_limit', body: '{"id":"evt_limit"}' };
  const endpointOn = (port: number) => ({
    url: `http://hooks.dekker.example:${port}/hook`,
    secret: newSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
  });

  it('covers a DNS lookup that does not answer: a timeout, nothing sent', async () => {
    const hook = await receiver();
    const started = Date.now();
    const result = await sender.send(endpointOn(hook.port), message, {
      now: new Date(),
      policy: LOCAL_SENDING.policy,
      lookup: () => new Promise<LookupAddress[]>(() => {}),
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(hook.requests).toHaveLength(0);
  });

  it('the request gets what the lookup left: a slow lookup plus a slow answer time out together', async () => {
    const hook = await receiver(() => ({ delayMs: 300 }));
    const opts = { policy: LOCAL_SENDING.policy, now: new Date(), timeoutMs: 500 };
    // Each alone fits in the limit…
    expect(await sender.send(endpointOn(hook.port), message, { ...opts, lookup: slowLookup(0) })).toMatchObject({
      error: null,
    });
    // …together they do not.
    const started = Date.now();
    const result = await sender.send(endpointOn(hook.port), message, { ...opts, lookup: slowLookup(300) });
    expect(result).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('DNS lookups at delivery', () => {
  const endpointOn = (port: number) => ({
    url: `http://hooks.dekker.example:${port}/hook`,
    secret: newSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
  });
  const opts = { policy: LOCAL_SENDING.policy, now: new Date() };

  it('sends to one host that start during its lookup share that lookup; the next send looks up again', async () => {
    const hook = await receiver();
    const asked: string[] = [];
    const lookup = (host: string): Promise<LookupAddress[]> => {
      asked.push(host);
      return new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 50));
    };
    const endpoint = endpointOn(hook.port);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sender.send(endpoint, { id: `evt_dns${i}`, body: '{}' }, { ...opts, lookup }),
      ),
    );
    expect(results.map((r) => r.error)).toEqual(Array(20).fill(null));
    expect(hook.requests).toHaveLength(20);
    expect(asked).toEqual(['hooks.dekker.example']);

    // Nothing is kept once the answer is in.
    expect(await sender.send(endpoint, { id: 'evt_dns_later', body: '{}' }, { ...opts, lookup })).toMatchObject({
      error: null,
    });
    expect(asked).toHaveLength(2);
  });

  it('a failed lookup is shared by the sends waiting for it, and not kept for the next', async () => {
    const hook = await receiver();
    let calls = 0;
    const lookup = (): Promise<LookupAddress[]> => {
      calls += 1;
      if (calls === 1) {
        return new Promise((_, reject) =>
          setTimeout(() => reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })), 30),
        );
      }
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    const endpoint = endpointOn(hook.port);
    const first = await Promise.all(
      [1, 2, 3].map((i) => sender.send(endpoint, { id: `evt_nx${i}`, body: '{}' }, { ...opts, lookup })),
    );
    expect(first.map((r) => r.error)).toEqual(['dns_failure', 'dns_failure', 'dns_failure']);
    expect(calls).toBe(1);
    expect(await sender.send(endpoint, { id: 'evt_nx4', body: '{}' }, { ...opts, lookup })).toMatchObject({
      error: null,
    });
    expect(calls).toBe(2);
    expect(hook.requests).toHaveLength(1);
  });
});
