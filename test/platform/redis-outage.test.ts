// Rate limits kept in Redis go on per node while Redis cannot be reached (the insurance limiter in
// src/http/rate-limit.ts): requests are still counted and limited, none fails because of Redis. Needs no Redis:
// the client points at a port where nothing listens.
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { RateLimits } from '../../src/http/rate-limit.ts';
import { freePort } from '../harness/processes.ts';

const port = await freePort();
// As createDeps makes it: no offline queue, so a command fails at once instead of waiting for a connection.
const unreachable = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, lazyConnect: true });
unreachable.on('error', () => {}); // connection refused, expected here

afterAll(() => unreachable.disconnect());

it('counts and limits in memory while Redis is down', async () => {
  const limits = new RateLimits([{ name: 'minute', limit: 2, windowSeconds: 60 }], 'outage', unreachable);
  const decisions = [];
  for (let i = 0; i < 3; i++) decisions.push(await limits.consume('key-1'));
  expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
  expect(decisions[0].headers.RateLimit).toMatch(/^"minute";r=1;t=\d+$/);
  expect(decisions[2].retryAfter).toBeGreaterThan(0);
  expect(await limits.peek('key-1')).toMatchObject({ RateLimit: expect.stringMatching(/^"minute";r=0;t=\d+$/) });
});
