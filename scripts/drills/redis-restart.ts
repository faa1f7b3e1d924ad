// Fault drill 5 (issue 29): Redis stopped and started under load with two API nodes. A private `redis-server`
// of this drill (never the machine's own; without the binary the drill says so and exits 1), a private
// embedded PostgreSQL and two API processes sharing both (children, stopped by their PID). `--lanes` clients
// read GET /me on both nodes all along (a company without a practical limit). Three times a fresh key of a
// company limited to `--limit` requests a minute sends its requests spread over both nodes:
//   up       Redis running: exactly `limit` allowed (one counter for both nodes);
//   down     Redis stopped (SIGKILL): each node counts in memory (the insurance limiter); 2 × limit + 20
//            requests, so exactly `limit` allowed per node (2 × limit) and the rest refused with 429;
//   back     Redis started again (empty): exactly `limit` allowed again.
// Verdicts: no 5xx and no request without an answer at any time, the three counts as above.
//
//   npm run drill:redis-restart [-- --lanes 4 --limit 50 --down-seconds 5]
import { parseArgs } from 'node:util';
import { createCompany, setRateLimits } from '../../src/services/companies.ts';
import { createKey } from '../../src/services/keys.ts';
import { boundedRun } from '../lib/bounded-run.ts';
import {
  drillTenant,
  type Outcome,
  percentile,
  privatePostgres,
  privateRedis,
  request,
  round,
  sleep,
  startService,
  verdict,
} from './kit.ts';

const { values: args } = parseArgs({
  options: {
    lanes: { type: 'string', default: '4' },
    limit: { type: 'string', default: '50' },
    'down-seconds': { type: 'string', default: '5' },
  },
});
const LANES = Number(args.lanes);
const LIMIT = Number(args.limit);
const DOWN_MS = Number(args['down-seconds']) * 1000;
const begun = Date.now();
const log = (line: string) => console.error(`[drill +${((Date.now() - begun) / 1000).toFixed(1)} s] ${line}`);

const run = boundedRun(4 * 60_000 + DOWN_MS, log);
let code = 1;
try {
  const redis = await privateRedis(run.cleanups);
  if (!redis) {
    console.log('drill:redis-restart fails: no redis-server binary on this machine (install redis-server)');
    await run.finish();
    process.exit(1);
  }
  const pg = await privatePostgres(run.cleanups, log);
  const limited = await drillTenant(pg.url, run.cleanups, ['customers.read']);
  await setRateLimits(limited.db, limited.companyId, { perMinute: LIMIT });
  const background = await createCompany(limited.db, { name: 'Background BV' });
  await setRateLimits(limited.db, background.id, { perMinute: 1_000_000, perHour: 1_000_000 });
  const { key: backgroundKey } = await createKey(limited.db, {
    companyId: background.id,
    name: 'background',
    scopes: ['customers.read'],
  });
  const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url };
  const nodes = [await startService('api', env, run.cleanups), await startService('api', env, run.cleanups)];
  log(`Redis ${redis.url}; API nodes ${nodes.map((n) => `${n.pid} on ${n.port}`).join(', ')}`);

  type Phase = 'up' | 'down' | 'back';
  let phase: Phase = 'up';
  const outcomes: Array<Outcome & { phase: Phase }> = [];
  let stopping = false;
  const lane = async (n: number) => {
    for (let i = 0; !stopping; i++) {
      const node = nodes[(n + i) % nodes.length];
      const current = phase;
      const outcome = await request(`${node?.base}/me`, { key: backgroundKey, timeoutMs: 5000 });
      outcomes.push({ ...outcome, phase: current });
      await sleep(20);
    }
  };
  const lanes = Array.from({ length: LANES }, (_, n) => lane(n));

  /** `count` requests of a new key, alternating between the nodes, 4 at a time: the statuses. */
  const probe = async (name: string, count = LIMIT + 20) => {
    const key = await limited.newKey(name);
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < count) {
          const i = next++;
          const outcome = await request(`${nodes[i % 2]?.base}/me`, { key, timeoutMs: 5000 });
          statuses.push(outcome.status);
          outcomes.push({ ...outcome, phase });
        }
      }),
    );
    const allowed = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    log(`${name}: ${allowed} allowed, ${refused} refused of ${statuses.length}`);
    return { allowed, refused, other: statuses.length - allowed - refused };
  };

  await sleep(2000);
  const up = await probe('up');
  await redis.stop();
  phase = 'down';
  log('Redis stopped (SIGKILL)');
  await sleep(500);
  const down = await probe('down', 2 * LIMIT + 20);
  await sleep(DOWN_MS);
  await redis.start();
  log('Redis started');
  // ioredis connects again on its own (its retry waits grow to 2 s); the probe waits that long.
  await sleep(3000);
  phase = 'back';
  const back = await probe('back');
  await sleep(2000);
  stopping = true;
  await Promise.all(lanes);

  const fiveXx = outcomes.filter((o) => o.status >= 500);
  const unanswered = outcomes.filter((o) => o.status === 0);
  const ms = (p: Phase) => outcomes.filter((o) => o.phase === p).map((o) => o.ms);
  const crashed = nodes.filter((n) => !n.alive()).map((n) => n.pid);
  const summary = {
    limitPerMinute: LIMIT,
    requests: outcomes.length,
    probes: { up, down, back },
    p99Ms: {
      up: round(percentile(ms('up'), 99)),
      down: round(percentile(ms('down'), 99)),
      back: round(percentile(ms('back'), 99)),
    },
    fiveXx: fiveXx.length,
    unanswered: unanswered.length,
    processesExited: crashed,
  };
  console.log(JSON.stringify(summary, null, 2));
  const failures: string[] = [];
  if (up.allowed !== LIMIT) failures.push(`with Redis ${up.allowed} allowed instead of ${LIMIT}`);
  if (down.allowed !== 2 * LIMIT)
    failures.push(`without Redis ${down.allowed} allowed instead of ${LIMIT} per node (${2 * LIMIT})`);
  if (back.allowed !== LIMIT) failures.push(`with Redis back ${back.allowed} allowed instead of ${LIMIT}`);
  if (fiveXx.length) failures.push(`${fiveXx.length} answers 5xx`);
  if (unanswered.length) failures.push(`${unanswered.length} requests without an answer`);
  if (crashed.length) failures.push(`process(es) ${crashed.join(', ')} exited`);
  code = verdict(
    'drill:redis-restart',
    failures,
    `two API nodes: ${up.allowed}/${LIMIT} allowed with Redis, ${down.allowed} (per-node memory) without, ${back.allowed} once it was back; ${outcomes.length} requests, 0 × 5xx`,
  );
} catch (error) {
  console.error(error);
  console.log(`drill:redis-restart fails: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await run.finish();
}
process.exit(code);
