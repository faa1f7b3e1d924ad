// GET /me: the key in use with every field, the rate-limit windows and headers, and no scope needed.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

const DAY_MS = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let api: TestApi;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  companyId = (await api.company({ name: 'Installatiebedrijf Van Dijk' })).id;
});

describe('getMe', () => {
  it('answers the key in use with every field', async () => {
    const before = Date.now();
    const { key, id } = await api.key(companyId, { scopes: ['customers.read', 'customers.write', 'invoices.read'] });
    const res = await api.call('getMe', { key });
    expect(res.status).toBe(200);
    const me = res.body.data;
    expect(Object.keys(me).sort()).toEqual(
      ['company', 'created_at', 'expires_at', 'id', 'name', 'object', 'prefix', 'rate_limits', 'scopes'].sort(),
    );
    expect(me.object).toBe('api_key');
    expect(me.id).toBe(id);
    expect(me.id).toMatch(/^key_[0-9A-Za-z]+$/);
    expect(me.name).toBe('Test key');
    expect(me.prefix).toBe(key.slice(0, me.prefix.length));
    expect(me.prefix).toMatch(/^svc_.{4}$/);
    expect(me.scopes).toEqual(['customers.read', 'customers.write', 'invoices.read']);
    expect(me.created_at).toMatch(ISO);
    expect(Date.parse(me.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(me.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
    // Default expiry: 365 days after creation.
    expect(me.expires_at).toMatch(ISO);
    expect(Math.abs(Date.parse(me.expires_at) - Date.parse(me.created_at) - 365 * DAY_MS)).toBeLessThan(60_000);
    expect(me.company).toEqual({ object: 'company', id: companyId, name: 'Installatiebedrijf Van Dijk' });
    expect(me.rate_limits).toEqual([
      { name: 'minute', limit: 600, window_seconds: 60 },
      { name: 'hour', limit: 20000, window_seconds: 3600 },
    ]);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]+$/);
  });

  it('answers expires_at null for a key that never expires, and the chosen term otherwise', async () => {
    const never = await api.key(companyId, { expiresIn: 'never' });
    const res = await api.call('getMe', { key: never.key });
    expect(res.status).toBe(200);
    expect(res.body.data.expires_at).toBeNull();

    const short = await api.key(companyId, { expiresIn: '30d' });
    const me = (await api.call('getMe', { key: short.key })).body.data;
    expect(Math.abs(Date.parse(me.expires_at) - Date.parse(me.created_at) - 30 * DAY_MS)).toBeLessThan(60_000);
  });

  it('needs no scope: works with a key whose scopes are unrelated or empty', async () => {
    const reviews = await api.key(companyId, { scopes: ['reviews.read'] });
    const res = await api.call('getMe', { key: reviews.key });
    expect(res.status).toBe(200);
    expect(res.body.data.scopes).toEqual(['reviews.read']);

    const none = await api.key(companyId, { scopes: [] });
    const empty = await api.call('getMe', { key: none.key });
    expect(empty.status).toBe(200);
    expect(empty.body.data.scopes).toEqual([]);
  });

  it("shows each key's own company", async () => {
    const other = await api.company({ name: 'Dakdekker Jansen' });
    const { key } = await api.key(other.id);
    const res = await api.call('getMe', { key });
    expect(res.body.data.company).toEqual({ object: 'company', id: other.id, name: 'Dakdekker Jansen' });
  });

  it('sends RateLimit-Policy and RateLimit as IETF structured fields; r counts down per request', async () => {
    const { key } = await api.key(companyId);
    const first = await api.call('getMe', { key });
    expect(first.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60, "hour";q=20000;w=3600');
    const pattern = /^"minute";r=(\d+);t=(\d+)$/;
    const m1 = first.headers.get('ratelimit')?.match(pattern);
    expect(m1).toBeTruthy();
    expect(Number(m1?.[1])).toBe(599);
    expect(Number(m1?.[2])).toBeGreaterThan(0);
    expect(Number(m1?.[2])).toBeLessThanOrEqual(60);

    const second = await api.call('getMe', { key });
    const m2 = second.headers.get('ratelimit')?.match(pattern);
    expect(Number(m2?.[1])).toBe(598);
    expect(second.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60, "hour";q=20000;w=3600');
  });

  it('counts requests per key', async () => {
    const a = await api.key(companyId);
    const b = await api.key(companyId);
    await api.call('getMe', { key: a.key });
    await api.call('getMe', { key: a.key });
    const res = await api.call('getMe', { key: b.key });
    expect(res.headers.get('ratelimit')).toMatch(/^"minute";r=599;t=\d+$/);
  });
});
