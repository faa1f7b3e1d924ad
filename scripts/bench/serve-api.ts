// Child process of scripts/bench/api.ts: the real service — createApp on @hono/node-server, the production
// dependencies (createDeps: pool of 20, key cache with LISTEN/NOTIFY, in-memory rate limits) — on
// 127.0.0.1:PORT for DATABASE_URL. Its own process, so the bench can read its RSS and profile it alone.
//
// The one difference from production: the per-key rate-limit windows keep their names and count every
// request, but their limits are raised so that a benchmark's thousands of requests per second are answered
// rather than refused with 429 (which would measure the refusal). Prints `READY` when it listens; stops
// cleanly on SIGTERM (so that `--cpu-prof` writes its profile). On SIGUSR2 it prints its event-loop delay since
// the last SIGUSR2 (`EVENT_LOOP {"p50":…,"p99":…,"max":…}` in ms) for the benchmarks that judge it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps-factory.ts';
import { KEY_WINDOWS, RateLimits } from '../../src/http/rate-limit.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', HOST: '127.0.0.1' });
const url = process.env.DATABASE_URL;
if (!url) throw new Error('serve-api.ts needs DATABASE_URL');

const deps = await createDeps(config, url);
deps.keyLimits = new RateLimits(
  KEY_WINDOWS.map((w) => ({ ...w, limit: 1_000_000_000 })),
  'key',
);
const app = createApp(deps);
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: '127.0.0.1' }, () => console.log('READY'));

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const ms = (ns: number) => Math.round(ns / 1e4) / 100;
process.on('SIGUSR2', () => {
  console.log(
    `EVENT_LOOP ${JSON.stringify({ p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) })}`,
  );
  loop.reset();
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  (server as import('node:http').Server).closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await deps.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
