// Rate limits shared through Redis: two API processes with the same prefix count against one limit. Needs a
// Redis server (REDIS_URL); without one the tests are skipped, and say so.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RateDecision, RateLimits, type Window } from '../../src/http/rate-limit.ts';
import { startReceiver } from '../features/webhook-endpoints/receiver.ts';
import { setupApi } from '../harness/api.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('REDIS_URL not set: skipping Redis rate-limit tests');

const WINDOWS: Window[] = [{ name: 'minute', limit: 3, windowSeconds: 60 }];

/** `"name";r=<remaining>;t=<seconds>` → remaining. */
function remaining(decision: RateDecision): number {
  const match = decision.headers.RateLimit.match(/^"minute";r=(\d+);t=(\d+)$/);
  expect(match, decision.headers.RateLimit).toBeTruthy();
  return Number(match?.[1]);
}

describe.skipIf(!REDIS_URL)('rate limits in Redis', () => {
  let redis: Redis;
  let other: Redis;
  // A prefix of this run only, so earlier runs' counters (and other users of the server) do not count.
  const prefix = `test-${process.pid}-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    // Each "API process" has its own connection, as createDeps gives it.
    redis = new Redis(REDIS_URL ?? '', { enableOfflineQueue: true, lazyConnect: true });
    other = new Redis(REDIS_URL ?? '', { enableOfflineQueue: true, lazyConnect: true });
    await Promise.all([redis.connect(), other.connect()]);
  });

  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`rl:${prefix}:*`);
      if (keys.length) await redis.del(...keys);
    }
    redis?.disconnect();
    other?.disconnect();
  });

  it('share one counter between two processes: a request on one lowers the remaining count on the other', async () => {
    const one = new RateLimits(WINDOWS, prefix, redis);
    const two = new RateLimits(WINDOWS, prefix, other);
    expect(remaining(await one.consume('key_shared'))).toBe(2);
    expect(remaining(await two.consume('key_shared'))).toBe(1);
    expect(remaining(await one.consume('key_shared'))).toBe(0);
    expect(await redis.exists(`rl:${prefix}:minute:key_shared`)).toBe(1);
  });

  it('enforce the limit across both processes, per subject', async () => {
    const one = new RateLimits(WINDOWS, prefix, redis);
    const two = new RateLimits(WINDOWS, prefix, other);
    const decisions = [
      await one.consume('key_limited'),
      await two.consume('key_limited'),
      await one.consume('key_limited'),
    ];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
    // Each process alone has seen at most two requests, yet the fourth is refused on either.
    const refused = await two.consume('key_limited');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    expect(remaining(refused)).toBe(0);
    expect((await one.consume('key_limited')).allowed).toBe(false);
    // Another subject has its own counter.
    expect(remaining(await two.consume('key_other'))).toBe(2);
  });

  it('keep a different prefix apart', async () => {
    const one = new RateLimits(WINDOWS, prefix, redis);
    const elsewhere = new RateLimits(WINDOWS, `${prefix}-other`, other);
    await one.consume('key_apart');
    await one.consume('key_apart');
    expect(remaining(await elsewhere.consume('key_apart'))).toBe(2);
    await redis.del(`rl:${prefix}-other:minute:key_apart`);
  });
});

describe.skipIf(!REDIS_URL)('the webhook test limit in Redis', () => {
  it('10 test messages per endpoint per minute across two API processes, not 10 each', async () => {
    const api = await setupApi({ REDIS_URL: REDIS_URL ?? '', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const other = await api.otherProcess();
    const receiver = await startReceiver();
    const { key, companyId } = await api.tenant();
    const created = await api.call('createWebhookEndpoint', {
      key,
      body: { url: receiver.url('/hooks'), events: ['customer.created'] },
    });
    expect(created.status).toBe(201);
    const params = { endpoint: created.body.data.id as string };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const call = i % 2 === 0 ? api.call : other.call;
      statuses.push((await call('testWebhookEndpoint', { key, params })).status);
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
    const refused = await other.call('testWebhookEndpoint', { key, params });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect((await api.call('testWebhookEndpoint', { key, params })).status).toBe(429);
    // The counter is Redis's, not a memory both "processes" of this test file happen to share.
    const redis = new Redis(REDIS_URL ?? '', { lazyConnect: true });
    await redis.connect();
    const counter = `rl:webhook_test:webhook_test:${companyId}:${params.endpoint}`;
    expect(await redis.exists(counter)).toBe(1);
    await redis.del(counter);
    redis.disconnect();
  });
});
