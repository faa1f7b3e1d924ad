// The job table's statistics are refreshed when a full fetch meets statistics that say the table is (nearly)
// empty: the state autovacuum leaves a queue table in (pages kept, 0 rows counted), in which the planner
// estimates 0 rows whatever the table holds. Real PostgreSQL, real ANALYZE.
import { EventEmitter } from 'node:events';
import type { Runner } from 'graphile-worker';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queueStatistics, watchFetches } from '../../src/jobs/queue-statistics.ts';
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
