// Admission details found in an audit of the cross-cutting behaviour: which requests count against a key's rate
// limit, the language of a refused key, header names in problems, forms sent to JSON operations, q-weights,
// idempotency keys past 24 hours, a bodyless request where a body is required.
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/services/keys.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi(
    { TRUSTED_PROXIES: '127.0.0.1' },
    {
      keyWindows: [{ name: 'minute', limit: 50, windowSeconds: 60 }],
      authFailureWindows: [{ name: 'auth', limit: 50, windowSeconds: 60 }],
    },
  );
});

const remaining = (headers: Headers) => Number(headers.get('ratelimit')?.match(/;r=(\d+);/)?.[1]);

describe('the key rate limit', () => {
  it('does not count requests refused for the address: a leaked key elsewhere cannot use up its owner’s limit', async () => {
    const { id: companyId } = await api.company();
    const { key } = await api.key(companyId, { allowedIps: ['10.1.2.0/24'] });
    const owner = { 'X-Forwarded-For': '10.1.2.3' };
    const first = await api.call('getMe', { key, headers: owner });
    expect(first.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const elsewhere = await api.call('getMe', { key, headers: { 'X-Forwarded-For': '198.51.100.7' } });
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body.code).toBe('ip_not_allowed');
      // Counted per client address, as a failed authentication.
      expect(elsewhere.headers.get('ratelimit')).toMatch(/^"auth";/);
    }
    const next = await api.call('getMe', { key, headers: owner });
    expect(remaining(next.headers)).toBe(remaining(first.headers) - 1);
  });
});

describe('a refused key', () => {
  it('is answered in its company’s language', async () => {
    const { id: companyId } = await api.company({ language: 'nl' });
    const { key, id } = await api.key(companyId);
    await revokeKey(api.db, id);
    const res = await api.call('getMe', { key, headers: { 'X-Forwarded-For': '203.0.113.99' } });
    expect(res.body.code).toBe('api_key_revoked');
    expect(res.headers.get('content-language')).toBe('nl');
  });
});

describe('requests', () => {
  it('a problem names a header as the contract does (Idempotency-Key)', async () => {
    const { key } = await api.tenant();
    const res = await api.call('createCustomer', {
      key,
      body: { email: 'kop@example.nl' },
      headers: { 'Idempotency-Key': 'x'.repeat(300) },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: null, parameter: 'Idempotency-Key' })]);
  });

  it('a problem lists the invalid inputs of every part of the request, not only of the first part that fails', async () => {
    const { key } = await api.tenant();
    const res = await api.call('createCustomer', {
      key,
      query: { zz: '1' },
      headers: { 'Idempotency-Key': 'x'.repeat(300) },
      body: { email: 'geen-adres', bogus: 1 },
    });
    expect(res.status).toBe(422);
    const found = res.body.errors.map((e: { pointer: string | null; parameter: string | null; code: string }) => [
      e.parameter ?? e.pointer,
      e.code,
    ]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['zz', 'unknown_parameter'],
        ['Idempotency-Key', 'too_long'],
        ['/email', 'invalid_format'],
        ['/bogus', 'unknown_field'],
      ]),
    );
  });

  it('JSON under any Content-Type spelling RFC 9110 allows is JSON (it answered 500)', async () => {
    const { key } = await api.tenant();
    for (const [i, type] of [
      'application/json;',
      'application/json ; charset=utf-8',
      'application/json; charset',
    ].entries()) {
      const res = await api.call('createCustomer', {
        key,
        rawBody: JSON.stringify({ email: `type${i}@example.nl` }),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(201);
    }
  });

  it('a form sent to a JSON operation answers 415, not 500', async () => {
    const { key } = await api.tenant();
    const form = new FormData();
    form.set('email', 'formulier@example.nl');
    const res = await api.call('createCustomer', { key, rawBody: form });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('a PATCH without any body, where the contract requires one, is refused (415) and changes nothing', async () => {
    const { key } = await api.tenant();
    const created = await api.call('createCustomer', { key, body: { email: 'leeg@example.nl' } });
    const res = await api.call('updateCustomer', { key, params: { customer: created.body.data.id } });
    expect(res.status).toBe(415);
    const now = await api.call('getCustomer', { key, params: { customer: created.body.data.id } });
    expect(now.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('a value that misses a pattern says so, naming the pattern (not "a valid regex")', async () => {
    const { key } = await api.tenant();
    const res = await api.call('listCustomers', { key, query: { limit: '1.0' } });
    expect(res.status).toBe(422);
    const [error] = res.body.errors;
    expect(error).toMatchObject({ parameter: 'limit', code: 'invalid_format' });
    expect(error.detail).toMatch(/^Must match the pattern /);
  });

  it('a 401 names the scheme it needs (WWW-Authenticate, RFC 9110)', async () => {
    const res = await api.call('getMe', {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('the contract is compressed, and varies with Accept-Language', async () => {
    const res = await api.app.request('http://api.test/api/v1/openapi.json', {
      headers: { 'Accept-Encoding': 'gzip', 'Accept-Language': 'de' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
    expect(res.headers.get('content-language')).toBe('de');
  });

  it('Accept-Language weights are read whatever the case of q', async () => {
    const res = await api.call('getMe', { headers: { 'Accept-Language': 'nl;q=0.3, fr;Q=0.2' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-language')).toBe('nl');
  });

  it('an Idempotency-Key older than 24 hours is free again (the purge may not have run yet)', async () => {
    const { key, companyId } = await api.tenant();
    const headers = { 'Idempotency-Key': `oud-${Date.now()}` };
    const first = await api.call('createCustomer', { key, headers, body: { email: 'eerste@example.nl' } });
    expect(first.status).toBe(201);
    await api.sql`update idempotency_keys set created_at = now() - interval '25 hours' where company_id = ${companyId}`;
    // Another request under the same key is a new request now, not a reuse (422) nor a replay.
    const second = await api.call('createCustomer', { key, headers, body: { email: 'tweede@example.nl' } });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.email).toBe('tweede@example.nl');
    const again = await api.call('createCustomer', { key, headers, body: { email: 'tweede@example.nl' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(second.body.data.id);
  });
});
