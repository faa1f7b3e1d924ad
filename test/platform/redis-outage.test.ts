// Rate limits kept in Redis go on per node while Redis cannot be used (the insurance limiter in
// src/http/rate-limit.ts): requests are still counted and limited, none fails or waits because of Redis. Needs no
// Redis: one client points at a port where nothing listens (a lost connection fails at once), the other at a fake
// server that completes the handshake and then never answers (a stalled Redis: the command timeout takes over).
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RateLimits, rateLimitRedis } from '../../src/http/rate-limit.ts';
import { until } from '../harness/async.ts';
import { freePort } from '../harness/processes.ts';

const WINDOWS = [{ name: 'minute', limit: 2, windowSeconds: 60 }];

/**
 * A "Redis" that answers the client's handshake (HELLO, CLIENT SETINFO, INFO for the ready check) and then nothing:
 * every other command waits for ever.
 */
let stalled: Server;
let stalledPort: number;
beforeAll(async () => {
  stalled = createServer((socket) => {
    socket.on('data', (chunk) => {
      for (const [, name] of chunk.toString().matchAll(/\*\d+\r\n\$\d+\r\n(\w+)/g)) {
        const command = name.toLowerCase();
        // An old server: no HELLO (the client stays with RESP2), CLIENT SETINFO accepted, INFO empty (ready).
        if (command === 'hello') socket.write("-ERR unknown command 'hello'\r\n");
        else if (command === 'client') socket.write('+OK\r\n');
        else if (command === 'info') socket.write('$0\r\n\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
  stalledPort = (stalled.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => stalled.close(() => resolve())));

async function expectLimitedInMemory(limits: RateLimits) {
  const started = Date.now();
  const decisions = [];
  for (let i = 0; i < 3; i++) decisions.push(await limits.consume('key-1'));
  expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
  expect(decisions[0].headers.RateLimit).toMatch(/^"minute";r=1;t=\d+$/);
  expect(decisions[2].retryAfter).toBeGreaterThan(0);
  expect(await limits.peek('key-1')).toMatchObject({ RateLimit: expect.stringMatching(/^"minute";r=0;t=\d+$/) });
  // Four Redis commands, each given up after the command timeout at most.
  expect(Date.now() - started).toBeLessThan(2000);
}

it('counts and limits in memory when Redis cannot be reached', async () => {
  const redis = rateLimitRedis(`redis://127.0.0.1:${await freePort()}`);
  redis.on('error', () => {}); // connection refused, expected here
  try {
    await expectLimitedInMemory(new RateLimits(WINDOWS, 'unreachable', redis));
  } finally {
    redis.disconnect();
  }
});

it('counts and limits in memory when Redis stops answering', async () => {
  const redis = rateLimitRedis(`redis://127.0.0.1:${stalledPort}`);
  redis.on('error', () => {});
  try {
    await until(() => redis.status === 'ready', 'the client is ready', 3000);
    await expectLimitedInMemory(new RateLimits(WINDOWS, 'stalled', redis));
  } finally {
    redis.disconnect();
  }
}, 5000); // without the command timeout it would wait for ever
