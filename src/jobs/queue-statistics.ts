// Keeps the planner's picture of Graphile Worker's job table true when a backlog builds up.
//
// The job table is a queue: mostly empty, so autovacuum's ANALYZE and VACUUM mostly find it empty while its
// pages (freed, not truncated) remain. The planner then believes the table holds 0 rows per page, whatever it
// holds, until autovacuum looks again (up to a minute later). With that belief Graphile Worker's job fetch
// joins its batch back to the table by a nested loop over every queued job: 155 ms per fetch of 200 on
// average (up to 330 ms) with 5 000 jobs queued, measured in the webhooks benchmark's burst; 15 ms with true
// statistics.
//
// So: when a fetch comes back full (there is a backlog) while the statistics say the table holds fewer rows
// than one batch, the table is analyzed at once (a few milliseconds), at most once per MIN_INTERVAL_MS per
// process. Statements planned after that see the backlog. The fetches already running are planned wrong: a
// transaction that queues a backlog itself therefore analyzes the table before it commits (migration 0014);
// this check covers the backlogs that many small transactions build up.
import type { Runner } from 'graphile-worker';
import type { Sql } from '../db/client.ts';

const JOB_TABLE = 'graphile_worker._private_jobs';
const MIN_INTERVAL_MS = 5_000;

export type QueueStatistics = {
  /** Called with the size of each fetch; answers the running check, if one was started (for tests). */
  fetched(jobs: number): Promise<boolean> | null;
};

/**
 * `batchSize`: the worker's fetch size (its local queue size). `log` receives a line when the check fails
 * (it never fails a job: the worker only runs slower).
 */
export function queueStatistics(
  sql: Sql,
  batchSize: number,
  log: (line: string) => void,
  now: () => number = Date.now,
): QueueStatistics {
  let running = false;
  let lastCheck = Number.NEGATIVE_INFINITY;
  return {
    fetched(jobs) {
      if (jobs < batchSize || running || now() - lastCheck < MIN_INTERVAL_MS) return null;
      running = true;
      lastCheck = now();
      return analyzeIfStale(sql, batchSize)
        .catch((error: unknown) => {
          log(`could not refresh the statistics of ${JOB_TABLE}: ${String(error)}`);
          return false;
        })
        .finally(() => {
          running = false;
        });
    },
  };
}

/**
 * Answers whether the table was analyzed (or skipped: SKIP_LOCKED never waits for an analyze that holds the
 * table, such as a transaction's that queues a backlog — migration 0014 — which brings the statistics up too).
 */
async function analyzeIfStale(sql: Sql, batchSize: number): Promise<boolean> {
  const [row] = await sql<{ reltuples: number }[]>`
    select reltuples::float8 as reltuples from pg_class where oid = to_regclass(${JOB_TABLE})`;
  if (!row || row.reltuples >= batchSize) return false;
  await sql.unsafe(`analyze (skip_locked) ${JOB_TABLE}`);
  return true;
}

/** Feeds the runner's fetches to the keeper. */
export function watchFetches(runner: Runner, statistics: QueueStatistics): void {
  runner.events.on('localQueue:getJobs:complete', ({ jobs }) => {
    void statistics.fetched(jobs.length);
  });
}
