// Bodies that are empty, optional or not taken at all.
// - Many HTTP clients send `Content-Type: application/json` on every POST, also without a body. Where the
//   contract lets the body be left out, an empty body is no body; where a body is required it is malformed
//   JSON (422 invalid_json), as before.
// - Operations whose contract has no request body (actions, DELETEs) take none: nothing, whitespace or `{}`.
//   Any other body is refused with 422 and nothing is done; it used to be ignored, so a client sending fields
//   there believed they were kept.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LINGER_BYTES } from '../../src/http/lingering-close.ts';
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

async function stillThere(id: string): Promise<boolean> {
  const res = await api.call('getWebhookEndpoint', { key, params: { endpoint: id } });
  return res.status === 200;
}

describe('operations that take no body', () => {
  // A company per test: a company has at most 10 endpoints.
  beforeEach(async () => {
    ({ key } = await api.tenant());
  });

  describe('a DELETE (deleteWebhookEndpoint) with a body', () => {
    it('refuses fields with 422 unknown_field, one error per field, and deletes nothing', async () => {
      const id = await endpointId();
      const res = await api.call('deleteWebhookEndpoint', {
        key,
        params: { endpoint: id },
        rawBody: JSON.stringify({ force: true, 'a/b~c': 1 }),
        headers: JSON_TYPE,
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('unknown_field');
      expect(res.body.errors).toEqual([
        expect.objectContaining({ pointer: '/force', code: 'unknown_field' }),
        expect.objectContaining({ pointer: '/a~1b~0c', code: 'unknown_field' }),
      ]);
      expect(await stillThere(id)).toBe(true);
    });

    it.each([
      ['a JSON array', '[1]', JSON_TYPE],
      ['a JSON string', '"please"', JSON_TYPE],
      ['JSON null', 'null', JSON_TYPE],
      ['a body that is not JSON', 'force=true', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['a body without Content-Type', '{"force":true}', {}],
    ])('refuses %s with 422 (the whole body) and deletes nothing', async (_, rawBody, headers) => {
      const id = await endpointId();
      const res = await api.call('deleteWebhookEndpoint', { key, params: { endpoint: id }, rawBody, headers });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '', code: 'invalid_type' })]);
      expect(res.body.errors[0].detail).toMatch(/takes no request body/);
      expect(await stillThere(id)).toBe(true);
    });

    it('refuses malformed JSON as invalid_json', async () => {
      const id = await endpointId();
      const res = await api.call('deleteWebhookEndpoint', {
        key,
        params: { endpoint: id },
        rawBody: '{',
        headers: JSON_TYPE,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '', code: 'invalid_json' })]);
      expect(await stillThere(id)).toBe(true);
    });

    it.each([
      ['no body', undefined, {}],
      ['an empty JSON object', '{}', JSON_TYPE],
      ['an empty body with Content-Type application/json', '', JSON_TYPE],
      ['JSON whitespace', ' \r\n', JSON_TYPE],
    ])('takes %s', async (_, rawBody, headers) => {
      const id = await endpointId();
      const res = await api.call('deleteWebhookEndpoint', { key, params: { endpoint: id }, rawBody, headers });
      expect(res.status).toBe(200);
      expect(await stillThere(id)).toBe(false);
    });
  });

  describe('an action (testWebhookEndpoint) with a body', () => {
    it('refuses a field in the request language', async () => {
      const res = await api.call('testWebhookEndpoint', {
        key,
        params: { endpoint: await endpointId() },
        rawBody: '{"event":"customer.created"}',
        headers: { ...JSON_TYPE, 'accept-language': 'nl' },
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('unknown_field');
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/event', code: 'unknown_field' })]);
      expect(res.headers.get('content-language')).toBe('nl');
    });

    it('refuses a body larger than the JSON limit without reading it, still as 422', async () => {
      const res = await api.call('testWebhookEndpoint', {
        key,
        params: { endpoint: await endpointId() },
        rawBody: `{"pad":"${'x'.repeat(1024 * 1024)}"}`,
        headers: JSON_TYPE,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '', code: 'invalid_type' })]);
    });
  });
});

describe('a body streamed without Content-Length (chunked)', () => {
  /** 64 MiB in chunks of 64 KiB, counting what the service pulled. */
  function endlessBody() {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = { pulled: 0, body: null as unknown as ReadableStream<Uint8Array> };
    stream.body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (stream.pulled >= 64 * 1024 * 1024) return controller.close();
        stream.pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return stream;
  }

  const send = (path: string, method: string, body: ReadableStream<Uint8Array>, type: string) =>
    api.app.request(`http://api.test/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body,
      duplex: 'half',
    } as RequestInit);

  it.each([
    ['a JSON operation (413)', '/customers', 'POST', 'application/json', 413],
    // Not built yet (501 after the usual checks), but its body is limited like any other.
    [
      'an upload (413)',
      '/quotes/0192f4d3-4c5d-7e6f-8a9b-0c1d2e3f4a5b/attachments',
      'POST',
      'multipart/form-data; boundary=x',
      413,
    ],
    ['an operation without a body (422)', '/webhook-endpoints/we_missing/test', 'POST', 'application/json', 422],
  ])('is refused once it passes the limit, not read whole: %s', async (_, path, method, type, status) => {
    const stream = endlessBody();
    const res = await send(path, method, stream.body, type);
    expect(res.status).toBe(status);
    await res.text(); // a 413 ends once the rest of the body has been discarded, within bounds
    // The upload limit is 11 MiB; JSON's 1 MiB; a 413 discards up to LINGER_BYTES more. Far from the 64 MiB offered.
    const limit = (status === 413 ? LINGER_BYTES : 0) + (path.endsWith('/attachments') ? 11 : 1) * 1024 * 1024;
    expect(stream.pulled).toBeLessThanOrEqual(limit + 2 * 64 * 1024);
  });
});
