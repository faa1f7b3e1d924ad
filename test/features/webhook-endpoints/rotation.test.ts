// Secret rotation, checked on real messages: during the overlap both secrets verify with standardwebhooks;
// without overlap, or once it is over, only the new one does.
import { Webhook } from 'standardwebhooks';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { header, type Received, signatureHeaders, startReceiver } from './receiver.ts';

let api: TestApi;
let key: string;
let companyId: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;
const HOUR = 3600 * 1000;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  receiver = await startReceiver();
});

beforeEach(async () => {
  ({ key, companyId } = await api.tenant());
  receiver.reset();
});

async function endpoint() {
  const res = await api.call('createWebhookEndpoint', {
    key,
    body: { url: receiver.url(), description: 'ERP', events: ['customer.created', 'deal.won'] },
  });
  expect(res.status).toBe(201);
  return res.body.data;
}

const rotate = (id: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
  api.call('rotateWebhookEndpointSecret', { key, params: { endpoint: id }, ...opts });

/** Sends a ping and returns the message the receiver got. */
async function pinged(id: string): Promise<Received> {
  receiver.reset();
  const res = await api.call('testWebhookEndpoint', { key, params: { endpoint: id } });
  expect(res.body.data.success).toBe(true);
  expect(receiver.received).toHaveLength(1);
  return receiver.received[0];
}

const verifies = (secret: string, message: Received) => {
  try {
    new Webhook(secret).verify(message.rawBody, signatureHeaders(message));
    return true;
  } catch {
    return false;
  }
};

const entries = (message: Received) => header(message, 'webhook-signature').split(' ');

describe('rotateWebhookEndpointSecret', () => {
  it('returns the endpoint with a new secret; the old one keeps signing for the overlap, next to the new one', async () => {
    const created = await endpoint();
    const res = await rotate(created.id, { body: { overlap: '1h' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    const data = res.body.data;
    expect(data).toEqual({
      ...created,
      secret: expect.stringMatching(SECRET),
      previous_secret_expires_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(data.secret).not.toBe(created.secret);
    expect(Date.parse(data.previous_secret_expires_at) - Date.parse(data.updated_at)).toBe(HOUR);

    // Reading it shows the overlap, never a secret.
    const read = await api.call('getWebhookEndpoint', { key, params: { endpoint: created.id } });
    expect(read.body.data.previous_secret_expires_at).toBe(data.previous_secret_expires_at);
    expect(read.body.data).not.toHaveProperty('secret');

    const message = await pinged(created.id);
    expect(entries(message)).toHaveLength(2);
    for (const entry of entries(message)) expect(entry).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifies(created.secret, message)).toBe(true);
    expect(verifies(data.secret, message)).toBe(true);
  });

  it('without a body the overlap is 24 hours; 7d is a week', async () => {
    const a = await endpoint();
    const day = (await rotate(a.id)).body.data;
    expect(Date.parse(day.previous_secret_expires_at) - Date.parse(day.updated_at)).toBe(24 * HOUR);
    const b = await endpoint();
    const week = (await rotate(b.id, { body: { overlap: '7d' } })).body.data;
    expect(Date.parse(week.previous_secret_expires_at) - Date.parse(week.updated_at)).toBe(7 * 24 * HOUR);
  });

  it('overlap none: only the new secret signs, at once', async () => {
    const created = await endpoint();
    const res = await rotate(created.id, { body: { overlap: 'none' } });
    expect(res.status).toBe(200);
    expect(res.body.data.previous_secret_expires_at).toBeNull();
    const message = await pinged(created.id);
    expect(entries(message)).toHaveLength(1);
    expect(verifies(res.body.data.secret, message)).toBe(true);
    expect(verifies(created.secret, message)).toBe(false);
  });

  it('once the overlap is over, only the new secret signs and the endpoint shows no overlap', async () => {
    const created = await endpoint();
    const rotated = (await rotate(created.id, { body: { overlap: '1h' } })).body.data;
    // As if the hour had passed.
    await api.sql`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second'
      where company_id = ${companyId} and id = ${created.id}`;
    const read = await api.call('getWebhookEndpoint', { key, params: { endpoint: created.id } });
    expect(read.body.data.previous_secret_expires_at).toBeNull();
    const message = await pinged(created.id);
    expect(entries(message)).toHaveLength(1);
    expect(verifies(rotated.secret, message)).toBe(true);
    expect(verifies(created.secret, message)).toBe(false);
  });

  it('rotating again during an overlap drops the oldest secret at once', async () => {
    const created = await endpoint();
    const second = (await rotate(created.id, { body: { overlap: '7d' } })).body.data;
    const third = (await rotate(created.id, { body: { overlap: '1h' } })).body.data;
    expect(Date.parse(third.previous_secret_expires_at) - Date.parse(third.updated_at)).toBe(HOUR);
    const message = await pinged(created.id);
    expect(entries(message)).toHaveLength(2);
    expect(verifies(third.secret, message)).toBe(true);
    expect(verifies(second.secret, message)).toBe(true);
    expect(verifies(created.secret, message)).toBe(false);
  });

  it('with an Idempotency-Key a repeat replays the same new secret instead of rotating twice', async () => {
    const created = await endpoint();
    const headers = { 'Idempotency-Key': 'rotate-1' };
    const first = await rotate(created.id, { body: { overlap: '1h' }, headers });
    const again = await rotate(created.id, { body: { overlap: '1h' }, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe('"2"');
    const [row] = await api.sql`select secret, previous_secret, version from webhook_endpoints
      where company_id = ${companyId} and id = ${created.id}`;
    expect(row).toEqual({ secret: first.body.data.secret, previous_secret: created.secret, version: 2 });
  });

  it('If-Match: a stale ETag answers 412 and keeps the secret; the current one rotates', async () => {
    const created = await endpoint();
    await api.call('updateWebhookEndpoint', { key, params: { endpoint: created.id }, body: { description: 'v2' } });
    const stale = await rotate(created.id, { headers: { 'If-Match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('precondition_failed');
    const message = await pinged(created.id);
    expect(entries(message)).toHaveLength(1);
    expect(verifies(created.secret, message)).toBe(true);
    const fresh = await rotate(created.id, { headers: { 'If-Match': '"2"' }, body: { overlap: 'none' } });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).toBe('"3"');
  });

  it('works on a disabled endpoint, which stays disabled', async () => {
    const created = await endpoint();
    await api.call('updateWebhookEndpoint', { key, params: { endpoint: created.id }, body: { status: 'disabled' } });
    const res = await rotate(created.id, { body: { overlap: 'none' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'disabled_by_user' });
    expect(verifies(res.body.data.secret, await pinged(created.id))).toBe(true);
  });

  it('an unknown overlap or field answers 422', async () => {
    const created = await endpoint();
    const bad = await rotate(created.id, { body: { overlap: '2d' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: '/overlap', code: 'invalid_enum' })]);
    const extra = await rotate(created.id, { body: { secret: created.secret } });
    expect(extra.status).toBe(422);
    expect(extra.body.code).toBe('unknown_field');
    const read = await api.call('getWebhookEndpoint', { key, params: { endpoint: created.id } });
    expect(read.headers.get('etag')).toBe('"1"');
  });
});
