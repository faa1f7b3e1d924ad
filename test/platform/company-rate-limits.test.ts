// Per-key rate limits an operator sets for a company (CLI `company limits`): shown in GET /me and the RateLimit
// headers, enforced with 429, and in force on the next request without a restart — also in a process that
// cached the company's keys, which learns of the change by NOTIFY (companies_changed), like a suspension.
import { beforeAll, describe, expect, it } from 'vitest';
import { setRateLimits } from '../../src/services/companies.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { eventually } from '../harness/async.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

const DEFAULT_POLICY = '"minute";q=600;w=60, "hour";q=20000;w=3600';

describe('a company’s rate limits', () => {
  it('are shown in GET /me and the headers, enforced with 429, and back to the defaults on request', async () => {
    const { key, companyId } = await api.tenant();
    const other = await api.tenant();
    // Cached first: the change must reach the key cache.
    expect((await api.call('getMe', { key })).headers.get('ratelimit-policy')).toBe(DEFAULT_POLICY);

    await setRateLimits(api.db, companyId, { perMinute: 4, perHour: 50 });
    const me = await api.call('getMe', { key });
    expect(me.body.data.rate_limits).toEqual([
      { name: 'minute', limit: 4, window_seconds: 60 },
      { name: 'hour', limit: 50, window_seconds: 3600 },
    ]);
    expect(me.headers.get('ratelimit-policy')).toBe('"minute";q=4;w=60, "hour";q=50;w=3600');
    // The request before the change counted too: 2 of 4 used.
    expect(me.headers.get('ratelimit')).toMatch(/^"minute";r=2;t=\d+$/);
    expect((await api.call('getMe', { key })).status).toBe(200);
    expect((await api.call('getMe', { key })).status).toBe(200);
    const limited = await api.call('getMe', { key });
    expect({ status: limited.status, code: limited.body.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Other companies keep the defaults.
    expect((await api.call('getMe', { key: other.key })).headers.get('ratelimit-policy')).toBe(DEFAULT_POLICY);

    // Only the hour changed back: the minute keeps its limit.
    await setRateLimits(api.db, companyId, { perHour: null });
    const back = await api.call('getMe', { key });
    expect(back.status).toBe(429);
    expect(back.headers.get('ratelimit-policy')).toBe('"minute";q=4;w=60, "hour";q=20000;w=3600');
    await setRateLimits(api.db, companyId, { perMinute: null });
    const defaults = await api.call('getMe', { key });
    expect(defaults.status).toBe(200);
    expect(defaults.body.data.rate_limits.map((w: { limit: number }) => w.limit)).toEqual([600, 20000]);
  });

  it('count in another API process without a restart: its key cache learns of the change by NOTIFY', async () => {
    const { key, companyId } = await api.tenant();
    const second = await api.otherProcess();
    expect((await second.call('getMe', { key })).headers.get('ratelimit-policy')).toBe(DEFAULT_POLICY);
    // As the CLI does it, from outside this process: only the NOTIFY tells the caches.
    await api.sql`update companies set rate_limit_per_minute = 7 where id = ${companyId}`;
    await eventually(async () => {
      const res = await second.call('getMe', { key });
      expect(res.headers.get('ratelimit-policy')).toBe('"minute";q=7;w=60, "hour";q=20000;w=3600');
      expect(res.body.data.rate_limits[0]).toEqual({ name: 'minute', limit: 7, window_seconds: 60 });
    });
  });

  it('are whole numbers from 1 (the database refuses others)', async () => {
    const { companyId } = await api.tenant();
    await expect(setRateLimits(api.db, companyId, { perMinute: 0 })).rejects.toThrow();
  });
});
