// Graphile Worker's runner ends on its own when its pool cannot complete a job (here: the connection running
// the completion is terminated): the worker starts a new runner, which runs the jobs queued afterwards, and the
// job the dead pool left locked runs again at once. Real PostgreSQL: the completion is held on a row lock
// until its backend is terminated.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { withDatabase } from '../harness/db.ts';

let api: TestApi;
let worker: Worker | undefined;
const TASK = 'purge_idempotency_keys';

beforeAll(async () => {
  api = await setupApi();
});

afterAll(async () => {
  await worker?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The pool holding a liveness lock other than `not`. */
async function livePool(not?: string): Promise<string | undefined> {
  const rows = await api.sql<{ pool: string }[]>`
    select substring(a.application_name from 'crm-worker-liveness (.*)') as pool from pg_stat_activity a
    join pg_locks l on l.pid = a.pid and l.locktype = 'advisory' and l.classid = 7321 and l.granted
    where a.datname = current_database() and a.application_name like 'crm-worker-liveness %'`;
  return rows.find((r) => r.pool !== not)?.pool;
}

async function addJob(): Promise<string> {
  const [job] = await api.sql<{ id: string }[]>`select (graphile_worker.add_job(${TASK}, '{}'::json)).id::text as id`;
  if (!job) throw new Error('no job');
  return job.id;
}

async function job(id: string) {
  const [row] = await api.sql<{ locked_by: string | null }[]>`
    select locked_by from graphile_worker._private_jobs where id = ${id}`;
  return row;
}

it('a runner that ends on its own is replaced: jobs queued afterwards run, and the dead pool’s job at once', async () => {
  const [{ name }] = await api.sql<{ name: string }[]>`select current_database() as name`;
  worker = await startWorker(withDatabase(inject('pgAdminUrl'), name), api.deps, 200);
  const first = await until('the first pool', () => livePool());

  const tableLock = await api.sql.reserve();
  const rowLock = await api.sql.reserve();
  try {
    // The task waits on the table while the pool holds its job; then the job's row is locked, so that the
    // pool's completion (a delete of the row) waits on it once the task is done.
    await tableLock`begin`;
    await tableLock`lock table idempotency_keys in access exclusive mode`;
    const blocked = await addJob();
    await until('the job to be taken', async () => ((await job(blocked))?.locked_by === first ? true : undefined));
    await rowLock`begin`;
    await rowLock`select 1 from graphile_worker._private_jobs where id = ${blocked} for update`;
    await tableLock`rollback`;
    const [{ pid }] = await rowLock<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const completion = await until('the completion to wait on the row', async () => {
      const [row] = await api.sql<{ pid: number }[]>`
        select pid from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`;
      return row?.pid;
    });
    await api.sql`select pg_terminate_backend(${completion}::int)`;
    await rowLock`rollback`;

    // `Failed to complete jobs`: the runner ends; a new one, with a new pool, takes over.
    const second = await until('a new pool', () => livePool(first));
    expect(second).not.toBe(first);
    // The job the dead pool could not complete was unlocked at once (not after the sweep's minute) and ran.
    await until('the dead pool’s job to run again', async () => ((await job(blocked)) ? undefined : true), 5_000);
    const later = await addJob();
    await until('a job queued afterwards to run', async () => ((await job(later)) ? undefined : true), 5_000);
  } finally {
    await tableLock`rollback`.catch(() => {});
    await rowLock`rollback`.catch(() => {});
    tableLock.release();
    rowLock.release();
  }

  await worker.stop();
  worker = undefined;
  await until('the liveness lock to be given up', async () => ((await livePool()) ? undefined : true), 5_000);
});
