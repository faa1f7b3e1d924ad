import { readdirSync, readFileSync } from 'node:fs';
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
  'test/features/quotes/document-email.test.ts',
  'test/features/appointments/icalendar.test.ts',
  'test/platform/form-token.test.ts',
  'test/platform/customer-messages.test.ts',
  'test/cli/company-details-args.test.ts',
  'test/webhooks/http-post.test.ts',
  'test/webhooks/url-guard.test.ts',
  'test/webhooks/bounded-cache.test.ts',
  'test/webhooks/send-in-turn.test.ts',
  'test/webhooks/coalescer.test.ts',
];

/**
 * Files that run in a fresh process each; every other file shares its worker process and loaded modules with the
 * files before it (`isolate: false`), which spares importing the service once per file (2.7–2.9 s of CPU each).
 * A file is isolated when its text shows it changes modules for itself: `vi.mock` (the module stays replaced for
 * the files after it), `onS3Server` (it imports other test files, which a shared worker may have loaded
 * already), or a line `// @isolate` with the reason (process-wide state of the service, such as
 * probes' stopping mark). Environment variables, fake clocks and spies are put back after every file by
 * harness/leak-check.ts, which also fails a file that leaves connections, handles, threads or listeners open.
 */
const ISOLATE_MARKS = /\bvi\.(do)?[mM]ock\(|\bonS3Server\(|^\/\/ @isolate\b/m;

// TEST_SET=quick|drills picks a set (npm run test:quick, npm run test:drills); without it, everything but the drills.
const set = process.env.TEST_SET;
const include = set === 'quick' ? QUICK : set === 'drills' ? DRILLS : ['test/**/*.test.ts'];
const exclude = set === undefined ? ['**/node_modules/**', ...DRILLS] : ['**/node_modules/**'];
const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file}`);
const isolated = testFiles.filter((file) => ISOLATE_MARKS.test(readFileSync(file, 'utf8')));
const shared = testFiles.filter((file) => !isolated.includes(file));

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: [...exclude, ...isolated], isolate: false } },
      { extends: true, test: { name: 'isolated', include, exclude: [...exclude, ...shared], isolate: true } },
    ],
    // Limits for a test that hangs, far above what any takes on a quiet machine: on a loaded one a test takes
    // several times as long, and that must make the run slow, not red (a Prism start, a scan of src/).
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Three files at a time on the two cores: each file has its own database (cloned from the template), and much
    // of a file's time is spent waiting (PostgreSQL, child processes starting, timers), so two workers left most
    // of a core idle. 27 varied files with the embedded PostgreSQL, two runs each way at load 6-9: 107 → 82 s and
    // 92 → 78 s of wall time, the same 80-90 s of CPU (tests and PostgreSQL) either way.
    maxWorkers: 3,
    globalSetup: ['test/harness/global-setup.ts'],
    setupFiles: ['test/harness/leak-check.ts'],
  },
});
