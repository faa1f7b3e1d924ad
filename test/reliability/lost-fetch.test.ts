// A job locked by a live pool that never received it — its fetch committed, then the connection was lost before
// the rows arrived (a PostgreSQL restart under load) — is unlocked by that pool's runner and runs, instead of
// waiting for Graphile Worker's 4-hour lock timeout (src/jobs/lost-fetches.ts). The lost fetch is made here by
// locking a queued job for the live pool by hand, 20 seconds in the past.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { unlockUnheld } from '../../src/jobs/lost-fetches.ts';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { withDatabase } from '../harness/db.ts';

let api: TestApi;
let worker: Worker | undefined;

beforeAll(async () => {
  api = await setupApi();
});

afterAll(async () => {
  await worker?.stop();
});

async function livePool(): Promise<string | undefined> {
  const [row] = await api.sql<{ pool: string }[]>`
    select substring(application_name from 'crm-worker-liveness (.*)') as pool from pg_stat_activity
    where datname = current_database() and application_name like 'crm-worker-liveness %'`;
  return row?.pool;
}

/** A job that runs at once, locked by `pool` `ago` seconds ago without the pool knowing. */
async function lockedBehindItsBack(pool: string, ago: number): Promise<string> {
  // Queued for later (no worker takes it), then locked and due in one statement.
  const [queued] = await api.sql<{ id: string }[]>`
    select (graphile_worker.add_job('purge_idempotency_keys', '{}'::json, run_at => now() + interval '1 hour')).id::text as id`;
  if (!queued) throw new Error('no job');
  await api.sql`
    update graphile_worker._private_jobs
    set locked_by = ${pool}, locked_at = now() - make_interval(secs => ${ago}), run_at = now()
    where id = ${queued.id}`;
  return queued.id;
}

const exists = async (id: string) =>
  (await api.sql`select 1 from graphile_worker._private_jobs where id = ${id}`).length > 0;

it('only jobs locked long enough ago and not held are unlocked', async () => {
  const recent = await lockedBehindItsBack('pool-test', 1);
  const held = await lockedBehindItsBack('pool-test', 60);
  const lost = await lockedBehindItsBack('pool-test', 60);
  const other = await lockedBehindItsBack('pool-other', 60);
  expect(await unlockUnheld(api.sql, 'pool-test', [held])).toEqual([lost]);
  const locked = await api.sql<{ id: string; locked_by: string | null }[]>`
    select id::text, locked_by from graphile_worker._private_jobs where id = any(${[recent, held, lost, other]}::bigint[])
    order by id`;
  expect(locked.map((j) => j.locked_by)).toEqual(['pool-test', 'pool-test', null, 'pool-other']);
  await api.sql`delete from graphile_worker._private_jobs where id = any(${[recent, held, lost, other]}::bigint[])`;
});

it('a job locked by the live pool without its knowing runs within seconds', async () => {
  const [{ name }] = await api.sql<{ name: string }[]>`select current_database() as name`;
  worker = await startWorker(withDatabase(inject('pgAdminUrl'), name), api.deps, 200);
  await until(async () => (await livePool()) !== undefined, 'the live pool', 10_000);
  const id = await lockedBehindItsBack((await livePool()) ?? '', 20);
  // Checked every 10 seconds: without the check it stays locked for 4 hours.
  await until(async () => !(await exists(id)), 'the job to run', 25_000);
}, 40_000);
