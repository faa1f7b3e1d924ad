// Rate limits: per key in named windows, reported on every response; 429 with Retry-After past a limit;
// failed authentications limited per client address.
import postgres from 'postgres';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKey } from '../../src/auth/key-format.ts';
import { KeyStore } from '../../src/auth/key-store.ts';
import { type CallResult, setupApi, type TestApi } from '../harness/api.ts';

/** `"name";r=<remaining>;t=<seconds>` → its parts. */
function parseRateLimit(headers: Headers) {
  const match = headers.get('ratelimit')?.match(/^"(\w+)";r=(\d+);t=(\d+)$/);
  expect(match, headers.get('ratelimit') ?? '(none)').toBeTruthy();
  const [, name, r, t] = match as RegExpMatchArray;
  return { name, r: Number(r), t: Number(t) };
}

function expectRateLimited(result: CallResult) {
  expect({ status: result.status, code: result.body.code }).toEqual({ status: 429, code: 'rate_limited' });
  const retryAfter = result.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  expect(result.headers.get('x-request-id')).toMatch(/^req_/);
  return Number(retryAfter);
}

describe('the production windows', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await setupApi();
  });

  it('are reported on every response and by GET /me', async () => {
    const { key } = await api.tenant();
    const me = await api.call('getMe', { key });
    expect(me.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60, "hour";q=20000;w=3600');
    expect(parseRateLimit(me.headers)).toMatchObject({ name: 'minute', r: 599 });
    expect(me.body.data.rate_limits).toEqual([
      { name: 'minute', limit: 600, window_seconds: 60 },
      { name: 'hour', limit: 20000, window_seconds: 3600 },
    ]);
    const problem = await api.call('getCustomer', {
      key,
      params: { customer: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30' },
    });
    expect(problem.status).toBe(404);
    expect(parseRateLimit(problem.headers)).toMatchObject({ name: 'minute', r: 598 });
  });

  it("are reported on answers no key's window counted too (no operation, another method): the address's window", async () => {
    const { key } = await api.tenant();
    const auth = { authorization: `Bearer ${key}` };
    const answers = [
      await api.app.request('/api/v1/nothing-here', { headers: auth }),
      await api.app.request('/api/v1/me', { method: 'DELETE', headers: auth }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 405]);
    for (const res of answers) {
      expect(res.headers.get('ratelimit-policy')).toBe('"auth";q=60;w=60');
      // Read, not counted: the address's whole window is left.
      expect(parseRateLimit(res.headers)).toMatchObject({ name: 'auth', r: 60 });
    }
  });

  it('an address window that cannot be read leaves the headers out, not the answer', async () => {
    const peek = vi.spyOn(api.deps.authFailureLimits, 'peek').mockRejectedValue(new Error('store gone'));
    try {
      const res = await api.app.request('/api/v1/nothing-here');
      expect(res.status).toBe(404);
      expect(res.headers.get('ratelimit')).toBeNull();
    } finally {
      peek.mockRestore();
    }
  });

  it('limit failed authentications to 60 a minute per client address: then 429 instead of 401', async () => {
    const { key } = await api.tenant();
    expect((await api.call('getMe', { key })).status).toBe(200);
    const bad = generateKey(); // well formed, unknown
    for (let i = 59; i >= 0; i--) {
      const result = await api.call('getMe', { key: bad });
      expect(result.body.code).toBe('invalid_api_key');
      expect(result.headers.get('ratelimit-policy')).toBe('"auth";q=60;w=60');
      expect(parseRateLimit(result.headers)).toMatchObject({ name: 'auth', r: i });
    }
    expectRateLimited(await api.call('getMe', { key: bad }));
    expectRateLimited(await api.call('getMe')); // no key at all counts the same
    // A valid key this process knows, from the same address, is not a failed authentication and is served.
    expect((await api.call('getMe', { key })).status).toBe(200);
  });
});

describe('a tight window', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await setupApi(
      { TRUSTED_PROXIES: '127.0.0.1' },
      {
        keyWindows: [
          { name: 'minute', limit: 5, windowSeconds: 60 },
          { name: 'hour', limit: 100, windowSeconds: 3600 },
        ],
        authFailureWindows: [{ name: 'auth', limit: 3, windowSeconds: 60 }],
      },
    );
  });

  it('counts down r, then answers 429 rate_limited with Retry-After and r=0', async () => {
    const { key, companyId } = await api.tenant();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await api.call('getMe', { key });
      expect(result.status).toBe(200);
      expect(result.headers.get('ratelimit-policy')).toBe('"minute";q=5;w=60, "hour";q=100;w=3600');
      const limit = parseRateLimit(result.headers);
      expect(limit.name).toBe('minute');
      expect(limit.t).toBeGreaterThanOrEqual(1);
      expect(limit.t).toBeLessThanOrEqual(60);
      remaining.push(limit.r);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const limited = await api.call('getMe', { key });
    const retryAfter = expectRateLimited(limited);
    expect(parseRateLimit(limited.headers)).toMatchObject({ name: 'minute', r: 0 });
    expect(parseRateLimit(limited.headers).t).toBe(retryAfter);
    // Every operation of the key is limited, including writes, and nothing is written.
    expectRateLimited(await api.call('createCustomer', { key, body: { email: 'jan@example.nl' } }));
    const [{ count }] = await api.sql`select count(*)::int as count from customers where company_id = ${companyId}`;
    expect(count).toBe(0);

    // Another key, even of the same company, has its own counters.
    const other = await api.key(companyId);
    const fromOther = await api.call('getMe', { key: other.key });
    expect(fromOther.status).toBe(200);
    expect(parseRateLimit(fromOther.headers)).toMatchObject({ name: 'minute', r: 4 });
  });

  it('limits failed authentications per client address, not globally', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (const r of [2, 1, 0]) {
      const result = await api.call('getMe', { key: generateKey(), headers: from('192.0.2.10') });
      expect(result.status).toBe(401);
      expect(parseRateLimit(result.headers)).toMatchObject({ name: 'auth', r });
    }
    const blocked = await api.call('getMe', { key: generateKey(), headers: from('192.0.2.10') });
    expectRateLimited(blocked);
    expect(parseRateLimit(blocked.headers)).toMatchObject({ name: 'auth', r: 0 });
    expect(blocked.headers.get('ratelimit-policy')).toBe('"auth";q=3;w=60');
    // Another address has its own counter.
    const other = await api.call('getMe', { headers: from('192.0.2.11') });
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
  });

  it('an address that used up its failed authentications gets no key looked up in the database', async () => {
    // The key store on a client that counts the key lookups it sends to the (real) database.
    let lookups = 0;
    const debug = (_connection: number, query: string) => {
      if (query.includes('api_keys')) lookups++;
    };
    const counting = postgres(api.url, { max: 1, onnotice: () => {}, debug });
    const keys = api.deps.keys;
    api.deps.keys = new KeyStore(counting);
    try {
      const from = { 'X-Forwarded-For': '192.0.2.20' };
      const { companyId, key: known } = await api.tenant();
      expect((await api.call('getMe', { key: known, headers: from })).status).toBe(200);
      for (let i = 0; i < 3; i++)
        expect((await api.call('getMe', { key: generateKey(), headers: from })).status).toBe(401);
      expect(lookups).toBe(4);

      // 20 more well-formed keys (the checksum passes): refused without a lookup (there were 20 before the fix).
      for (let i = 0; i < 20; i++) expectRateLimited(await api.call('getMe', { key: generateKey(), headers: from }));
      // So is a valid key this process has not seen yet: telling it from a guess would take the lookup.
      const unseen = await api.key(companyId);
      expectRateLimited(await api.call('getMe', { key: unseen.key, headers: from }));
      // A key this process knows is served as before, from its cache (also past its 60 s TTL)…
      expect((await api.call('getMe', { key: known, headers: from })).status).toBe(200);
      const loadedAt = Date.now();
      const now = vi.spyOn(Date, 'now').mockReturnValue(loadedAt + 90_000);
      try {
        expect((await api.call('getMe', { key: known, headers: from })).status).toBe(200);
        // …but not past twice the TTL: a revocation whose NOTIFY was missed would otherwise never count.
        now.mockReturnValue(loadedAt + 130_000);
        expectRateLimited(await api.call('getMe', { key: known, headers: from }));
      } finally {
        now.mockRestore();
      }
      expect(lookups).toBe(4);

      // The counter counts: another address's unknown key is looked up.
      const elsewhere = await api.call('getMe', { key: generateKey(), headers: { 'X-Forwarded-For': '192.0.2.21' } });
      expect(elsewhere.status).toBe(401);
      expect(lookups).toBe(5);
    } finally {
      api.deps.keys = keys;
      await counting.end();
    }
  });
});
