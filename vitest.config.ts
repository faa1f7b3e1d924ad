import { defineConfig } from 'vitest/config';

/**
 * Long fault drills: worker processes through database outages and kills, each waiting on Graphile Worker's
 * and the liveness sweep's timers (minutes, not seconds). Not part of `npm test`: `npm run test:drills` (README).
 */
export const DRILLS = ['test/reliability/worker-database-outage.test.ts', 'test/reliability/several-workers.test.ts'];

/**
 * `npm run test:quick`: the unit and contract tests (no service processes but Prism's, no drills), a few minutes
 * less than the whole suite. A file belongs here when it proves the contract or a pure function.
 */
export const QUICK = [
  'test/contract/**/*.test.ts',
  'test/platform/ids.test.ts',
  'test/platform/migration-journal.test.ts',
  'test/platform/database-errors.test.ts',
  'test/platform/distributable-queries.test.ts',
  'test/platform/repository-boundary.test.ts',
  'test/platform/redis-outage.test.ts',
  'test/jobs/fanout-batches.test.ts',
  'test/features/invoices/totals.test.ts',
  'test/webhooks/http-post.test.ts',
  'test/webhooks/url-guard.test.ts',
  'test/webhooks/bounded-cache.test.ts',
  'test/webhooks/send-in-turn.test.ts',
  'test/webhooks/coalescer.test.ts',
];

// TEST_SET=quick|drills picks a set (npm run test:quick, npm run test:drills); without it, everything but the drills.
const set = process.env.TEST_SET;

export default defineConfig({
  test: {
    include: set === 'quick' ? QUICK : set === 'drills' ? DRILLS : ['test/**/*.test.ts'],
    exclude: set === undefined ? ['**/node_modules/**', ...DRILLS] : ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time on the two cores: each file has its own database (cloned from the template), and
    // most of a file's time is spent waiting on PostgreSQL or child processes.
    maxWorkers: 2,
    globalSetup: ['test/harness/global-setup.ts'],
  },
});
