// The test message through a real receiver on 127.0.0.1: signed (checked with the standardwebhooks library
// on the raw body), sent at once also to a disabled endpoint, never logged, retried or counted as health.
import { Webhook } from 'standardwebhooks';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { header, signatureHeaders, startReceiver } from './receiver.ts';

let api: TestApi;
let key: string;
let companyId: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVT = /^evt_[0-9A-Za-z]{22}$/;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  receiver = await startReceiver();
});

beforeEach(async () => {
  ({ key, companyId } = await api.tenant());
  receiver.reset();
});

async function endpoint(path = '/hooks') {
  const res = await api.call('createWebhookEndpoint', {
    key,
    body: { url: receiver.url(path), events: ['customer.created'] },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string; url: string };
}

const ping = (id: string) => api.call('testWebhookEndpoint', { key, params: { endpoint: id } });

async function logCounts() {
  const [row] = await api.sql`select
    (select count(*)::int from webhook_deliveries where company_id = ${companyId}) as deliveries,
    (select count(*)::int from webhook_attempts where company_id = ${companyId}) as attempts,
    (select count(*)::int from events where company_id = ${companyId}) as events`;
  return row;
}

describe('testWebhookEndpoint', () => {
  it('posts one signed ping that standardwebhooks verifies on the raw body, and reports success', async () => {
    const ep = await endpoint('/crm/hooks?token=abc');
    const before = Date.now();
    const res = await ping(ep.id);
    expect(res.status).toBe(200);
    const result = res.body.data;
    expect(result).toEqual({
      object: 'webhook_test',
      endpoint_id: ep.id,
      event_id: expect.stringMatching(EVT),
      url: ep.url,
      success: true,
      status_code: 204,
      duration_ms: expect.any(Number),
      error: null,
      response_body: '',
      created_at: expect.stringMatching(ISO_Z),
    });
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    expect(result.duration_ms).toBeLessThan(10_000);
    expect(Date.parse(result.created_at)).toBeGreaterThanOrEqual(before - 1000);

    expect(receiver.received).toHaveLength(1);
    const [message] = receiver.received;
    expect(message.method).toBe('POST');
    expect(message.path).toBe('/crm/hooks?token=abc');
    expect(header(message, 'content-type')).toBe('application/json');
    expect(header(message, 'user-agent')).toBe('Service-Webhooks/1.0');
    expect(header(message, 'webhook-id')).toBe(result.event_id);
    const timestamp = Number(header(message, 'webhook-timestamp'));
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(10);
    expect(header(message, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    // Verified before parsing, on the raw body, with the secret from the creation response.
    const payload = new Webhook(ep.secret).verify(message.rawBody, signatureHeaders(message));
    expect(payload).toEqual({
      object: 'event',
      id: result.event_id,
      type: 'ping',
      created_at: result.created_at,
      data: {
        object: { object: 'ping', webhook_endpoint_id: ep.id, message: 'Test message for this webhook endpoint.' },
      },
    });
    // A wrong secret or a changed body does not verify.
    expect(() =>
      new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(message.rawBody, signatureHeaders(message)),
    ).toThrow();
    expect(() => new Webhook(ep.secret).verify(`${message.rawBody} `, signatureHeaders(message))).toThrow();
  });

  it('writes nothing: no event, no delivery, no attempt, no health or version change', async () => {
    const ep = await endpoint();
    receiver.answerWith(500, 'boom');
    await ping(ep.id);
    receiver.answerWith(200, 'ok');
    await ping(ep.id);
    expect(receiver.received).toHaveLength(2);
    // Each ping is a message of its own.
    expect(header(receiver.received[0], 'webhook-id')).not.toBe(header(receiver.received[1], 'webhook-id'));
    expect(await logCounts()).toEqual({ deliveries: 0, attempts: 0, events: 0 });
    const after = await api.call('getWebhookEndpoint', { key, params: { endpoint: ep.id } });
    expect(after.headers.get('etag')).toBe('"1"');
    expect(after.body.data).toMatchObject({ last_success_at: null, last_failure_at: null, status: 'active' });
    const [row] =
      await api.sql`select failing_since from webhook_endpoints where company_id = ${companyId} and id = ${ep.id}`;
    expect(row.failing_since).toBeNull();
  });

  it('a failing receiver: success false with its status and an excerpt of its answer, sent once', async () => {
    const ep = await endpoint();
    receiver.answerWith(500, '{"error":"database unavailable"}');
    const res = await ping(ep.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      success: false,
      status_code: 500,
      error: 'http_status',
      response_body: '{"error":"database unavailable"}',
    });
    // Never retried.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(1);
  });

  it('a redirect is a failure and is not followed', async () => {
    const ep = await endpoint();
    receiver.answerWith(302, 'moved');
    const res = await ping(ep.id);
    expect(res.body.data).toMatchObject({ success: false, status_code: 302, error: 'redirect' });
    expect(receiver.received).toHaveLength(1);
  });

  it('only the first 4 KiB of a long answer are kept', async () => {
    const ep = await endpoint();
    receiver.answerWith(200, 'x'.repeat(10_000));
    const res = await ping(ep.id);
    expect(res.body.data.success).toBe(true);
    expect(res.body.data.response_body).toBe('x'.repeat(4096));
  });

  it('no answer at all: status_code and response_body null, the error says why', async () => {
    const res = await api.call('createWebhookEndpoint', {
      key,
      // Port 9 (discard) on loopback: nothing listens there.
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
    });
    const result = (await ping(res.body.data.id)).body.data;
    expect(result).toMatchObject({
      success: false,
      status_code: null,
      error: 'connection_refused',
      response_body: null,
    });
  });

  it('a disabled endpoint still gets the ping, and stays disabled', async () => {
    const ep = await endpoint();
    await api.call('updateWebhookEndpoint', { key, params: { endpoint: ep.id }, body: { status: 'disabled' } });
    const res = await ping(ep.id);
    expect(res.body.data.success).toBe(true);
    expect(receiver.received).toHaveLength(1);
    new Webhook(ep.secret).verify(receiver.received[0].rawBody, signatureHeaders(receiver.received[0]));
    const after = await api.call('getWebhookEndpoint', { key, params: { endpoint: ep.id } });
    expect(after.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'disabled_by_user' });
  });

  it('at most 10 tests per endpoint per minute: the 11th answers 429 with Retry-After and sends nothing', async () => {
    const ep = await endpoint();
    for (let i = 0; i < 10; i++) expect((await ping(ep.id)).status).toBe(200);
    const res = await ping(ep.id);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(receiver.received).toHaveLength(10);
    // Another endpoint has its own allowance.
    const other = await endpoint('/other');
    expect((await ping(other.id)).status).toBe(200);
  });
});

describe('the private-URL switch', () => {
  it('allows only loopback: private, link-local and mapped addresses stay refused', async () => {
    for (const url of [
      'http://10.0.0.1:8080/',
      'http://169.254.169.254/latest/meta-data',
      'https://192.168.0.1/',
      'http://[::ffff:127.0.0.1]:8080/',
    ]) {
      const res = await api.call('createWebhookEndpoint', { key, body: { url, events: ['*'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer: '/url', code: 'url_not_allowed' });
    }
  });
});
