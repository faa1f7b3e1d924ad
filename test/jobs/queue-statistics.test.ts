// The job table's statistics are refreshed when a full fetch meets statistics that say the table is (nearly)
// empty: the state autovacuum leaves a queue table in (pages kept, 0 rows counted), in which the planner
// estimates 0 rows whatever the table holds. Real PostgreSQL, real ANALYZE.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Runner } from 'graphile-worker';
import type postgres from 'postgres';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queueStatistics, watchFetches } from '../../src/jobs/queue-statistics.ts';
import { LOCAL_QUEUE_SIZE } from '../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
const TASK = 'queue_statistics_test';

beforeAll(async () => {
  api = await setupApi();
});

afterEach(async () => {
  await removeJobs();
});

/** Jobs nobody runs (a task no worker here knows, due next year). */
async function addJobs(n: number) {
  await api.sql`
    select graphile_worker.add_jobs(array(
      select row(${TASK}, '{}'::json, null, now() + interval '1 year', null, null, null, null)::graphile_worker.job_spec
      from generate_series(1, ${n}::int)))`;
}

async function removeJobs() {
  await api.sql`
    delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
    where t.id = j.task_id and t.identifier = ${TASK}`;
}

async function statistics() {
  const [row] = await api.sql<{ reltuples: number; relpages: number }[]>`
    select reltuples::float8 as reltuples, relpages from pg_class where oid = 'graphile_worker._private_jobs'::regclass`;
  if (!row) throw new Error('no job table');
  return row;
}

/** The table as autovacuum often leaves a queue: analyzed while empty, its pages still there. */
async function staleStatisticsWith(jobs: number) {
  await addJobs(2000);
  await removeJobs();
  await api.sql`analyze graphile_worker._private_jobs`;
  expect(await statistics()).toMatchObject({ reltuples: 0 });
  expect((await statistics()).relpages).toBeGreaterThan(0);
  await addJobs(jobs);
}

describe('queue statistics', () => {
  it('a full fetch with stale statistics analyzes the table at once', async () => {
    await staleStatisticsWith(1000);
    const lines: string[] = [];
    const keeper = queueStatistics(api.sql, 200, (line) => lines.push(line));
    expect(await keeper.fetched(200)).toBe(true);
    expect((await statistics()).reltuples).toBeGreaterThanOrEqual(1000);
    expect(lines).toEqual([]);
  });

  it('a fetch that is not full (no backlog) checks nothing', async () => {
    await staleStatisticsWith(1000);
    const keeper = queueStatistics(api.sql, 200, () => {});
    expect(keeper.fetched(199)).toBeNull();
    expect((await statistics()).reltuples).toBe(0);
  });

  it('true statistics are left alone, and the check runs at most every 5 seconds', async () => {
    await addJobs(1000);
    await api.sql`analyze graphile_worker._private_jobs`;
    let now = 1_000_000;
    const keeper = queueStatistics(
      api.sql,
      200,
      () => {},
      () => now,
    );
    expect(await keeper.fetched(200)).toBe(false);
    // Stale again, but within 5 s of the last check: not looked at.
    await removeJobs();
    await api.sql`analyze graphile_worker._private_jobs`;
    await addJobs(1000);
    now += 4_000;
    expect(keeper.fetched(200)).toBeNull();
    now += 1_000;
    expect(await keeper.fetched(200)).toBe(true);
  });

  it("the runner's fetches reach the keeper", async () => {
    const events = new EventEmitter();
    const sizes: number[] = [];
    watchFetches({ events } as unknown as Runner, {
      fetched: (n) => {
        sizes.push(n);
        return null;
      },
    });
    events.emit('localQueue:getJobs:complete', { jobs: new Array(200).fill({}) });
    events.emit('localQueue:getJobs:complete', { jobs: [] });
    expect(sizes).toEqual([200, 0]);
  });
});

// Migration 0014: the app's queueing functions (app_queue_job, app_queue_jobs) count what a transaction
// queues; at a fetch's worth (LOCAL_QUEUE_SIZE) while the statistics say fewer rows, they analyze the table before the
// commit, so the worker's first fetch is planned for the backlog (the check above comes one fetch late).
describe('a transaction that queues a backlog', () => {
  // The migration's constant follows the worker's fetch size: this fails when they drift apart.
  const JOBS_PER_FETCH = LOCAL_QUEUE_SIZE;

  // The API role queues jobs only for the company of its transaction (migration 0018).
  const company = randomUUID();
  const payload = JSON.stringify({ companyId: company });
  const asApiRole = (tx: postgres.TransactionSql) =>
    tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${company}, true)`;

  /** Queues `n` jobs nobody runs, as the API role does (one call each, as recordEvent does per event). */
  async function queueOneByOne(tx: postgres.TransactionSql, n: number) {
    await asApiRole(tx);
    for (let i = 0; i < n; i++) {
      await tx`select app_queue_job(${TASK}, ${payload}::json, now() + interval '1 year')`;
    }
  }

  it("one job at a time: at a fetch's worth the table is analyzed, visible to others before the commit", async () => {
    await staleStatisticsWith(0);
    await api.sql.begin(async (tx) => {
      await queueOneByOne(tx, JOBS_PER_FETCH - 1);
      expect((await statistics()).reltuples).toBe(0);
      await queueOneByOne(tx, 1);
      // Read on another connection while this transaction is still open: the worker's view.
      expect((await statistics()).reltuples).toBeGreaterThanOrEqual(JOBS_PER_FETCH);
    });
  });

  it('many jobs in one call (app_queue_jobs, as the fan-out queues delivery jobs)', async () => {
    await staleStatisticsWith(0);
    await api.sql.begin(async (tx) => {
      await asApiRole(tx);
      await tx`
        select app_queue_jobs(array_fill(${TASK}::text, array[1000]), array_fill(${payload}::json, array[1000]),
          array_fill(now() + interval '1 year', array[1000]))`;
    });
    expect((await statistics()).reltuples).toBeGreaterThanOrEqual(1000);
  });

  it('fewer jobs than a fetch, or statistics that already show a backlog: no analyze', async () => {
    await staleStatisticsWith(0);
    await api.sql.begin((tx) => queueOneByOne(tx, JOBS_PER_FETCH - 1));
    expect((await statistics()).reltuples).toBe(0);
    // True statistics of a backlog larger than a fetch; as many again queued: an analyze would count twice it.
    await api.sql.begin((tx) => queueOneByOne(tx, 61));
    const backlog = JOBS_PER_FETCH - 1 + 61;
    await api.sql`analyze graphile_worker._private_jobs`;
    expect((await statistics()).reltuples).toBe(backlog);
    await api.sql.begin((tx) => queueOneByOne(tx, backlog));
    expect((await statistics()).reltuples).toBe(backlog);
  });

  it('never waits for another analyze of the table (SKIP_LOCKED)', async () => {
    await staleStatisticsWith(0);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // Another transaction holds the lock an analyze takes (as one that analyzed and has not committed yet).
    const holder = api.sql.begin(async (tx) => {
      await tx`lock table graphile_worker._private_jobs in share update exclusive mode`;
      locked();
      await held;
    });
    await isLocked;
    try {
      await api.sql.begin(async (tx) => {
        await tx`set local statement_timeout = '5s'`;
        await queueOneByOne(tx, JOBS_PER_FETCH);
      });
    } finally {
      release();
      await holder;
    }
    // Skipped, not waited for: the jobs are queued, the statistics unchanged.
    expect((await statistics()).reltuples).toBe(0);
  });

  it("the counting function is not the API role's to call", async () => {
    await expect(
      api.sql.begin(async (tx) => {
        await tx`select set_config('role', 'app_api', true)`;
        await tx`select app_jobs_queued(1000)`;
      }),
    ).rejects.toThrow(/permission denied/);
  });
});
