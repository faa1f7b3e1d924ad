// Many HTTP clients send `Content-Type: application/json` on every POST, also without a body. Where the
// contract lets the body be left out, an empty body is no body; where a body is required it is malformed
// JSON (422 invalid_json), as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  ({ key } = await api.tenant());
});

const JSON_TYPE = { 'content-type': 'application/json' };

async function endpointId(): Promise<string> {
  const res = await api.call('createWebhookEndpoint', {
    key,
    body: { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('an operation whose body may be left out (rotateWebhookEndpointSecret)', () => {
  it.each([
    ['an empty body', ''],
    ['a body of JSON whitespace only', ' \r\n\t'],
  ])('takes %s with Content-Type application/json as no body', async (_, rawBody) => {
    const id = await endpointId();
    const res = await api.call('rotateWebhookEndpointSecret', {
      key,
      params: { endpoint: id },
      rawBody,
      headers: JSON_TYPE,
    });
    expect(res.status).toBe(200);
    // The contract's default overlap applied, as without a body.
    const overlap = Date.parse(res.body.data.previous_secret_expires_at) - Date.parse(res.body.data.updated_at);
    expect(overlap).toBe(24 * 3600_000);
  });

  it('takes no body and no Content-Type, as before', async () => {
    const res = await api.call('rotateWebhookEndpointSecret', { key, params: { endpoint: await endpointId() } });
    expect(res.status).toBe(200);
  });

  it('an empty body repeated with the same Idempotency-Key is the same request as no body', async () => {
    const id = await endpointId();
    const headers = { 'Idempotency-Key': `rotate-empty-${id}` };
    const first = await api.call('rotateWebhookEndpointSecret', {
      key,
      params: { endpoint: id },
      rawBody: '',
      headers: { ...headers, ...JSON_TYPE },
    });
    expect(first.status).toBe(200);
    const again = await api.call('rotateWebhookEndpointSecret', { key, params: { endpoint: id }, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('still refuses a body that is not JSON', async () => {
    const res = await api.call('rotateWebhookEndpointSecret', {
      key,
      params: { endpoint: await endpointId() },
      rawBody: '{',
      headers: JSON_TYPE,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '', code: 'invalid_json' })]);
  });
});

describe('an operation whose body is required', () => {
  it.each([
    ['an empty body', ''],
    ['a body of whitespace only', ' \n'],
  ])('answers %s with 422 invalid_json', async (_, rawBody) => {
    const customer = await api.call('createCustomer', { key, rawBody, headers: JSON_TYPE });
    const recover = await api.call('recoverWebhookEndpoint', {
      key,
      params: { endpoint: await endpointId() },
      rawBody,
      headers: JSON_TYPE,
    });
    for (const res of [customer, recover]) {
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '', code: 'invalid_json' })]);
    }
  });
});
