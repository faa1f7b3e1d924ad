// A worker process that dies leaves its jobs locked, and Graphile Worker unlocks them only after 4 hours. Each
// worker process holds a liveness lock on a connection of its own; the jobs of a pool without one, locked
// longer than a minute, are unlocked and run again. Real PostgreSQL: the end of a connection stands for the
// death of its process (PostgreSQL frees its locks the same way).
import { connect, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEAD_AFTER_SECONDS, keepAlive, unlockDeadWorkers } from '../../src/jobs/liveness.ts';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { withDatabase } from '../harness/db.ts';

let api: TestApi;
let url: string;
let runner: Worker | undefined;
const TASK = 'liveness_test';

beforeAll(async () => {
  api = await setupApi();
  const [{ name }] = await api.sql<{ name: string }[]>`select current_database() as name`;
  url = withDatabase(inject('pgAdminUrl'), name);
});

afterAll(async () => {
  await runner?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A job (of a task nobody runs) locked by `pool` for `ageSeconds`. */
async function lockedJob(pool: string, ageSeconds: number): Promise<string> {
  const [job] = await api.sql<{ id: string }[]>`
    select (graphile_worker.add_job(${TASK}, '{}'::json, run_at => now() + interval '1 year')).id::text as id`;
  if (!job) throw new Error('no job');
  await api.sql`
    update graphile_worker._private_jobs
    set locked_by = ${pool}, locked_at = now() - make_interval(secs => ${ageSeconds})
    where id = ${job.id}`;
  return job.id;
}

async function lockOf(jobId: string): Promise<string | null> {
  const [row] = await api.sql<{ locked_by: string | null }[]>`
    select locked_by from graphile_worker._private_jobs where id = ${jobId}`;
  return row?.locked_by ?? null;
}

describe('jobs of dead worker pools', () => {
  it(`a pool without a liveness lock, its jobs locked over ${DEAD_AFTER_SECONDS} s: dead, its jobs unlocked`, async () => {
    const old = await lockedJob('pool-dead-test', DEAD_AFTER_SECONDS + 60);
    // A lock younger than that is left alone: the pool may still be starting (its liveness lock not yet taken).
    const young = await lockedJob('pool-young-test', 5);

    const dead = await unlockDeadWorkers(api.sql);
    expect(dead).toContain('pool-dead-test');
    expect(dead).not.toContain('pool-young-test');
    expect(await lockOf(old)).toBeNull();
    expect(await lockOf(young)).toBe('pool-young-test');
  });

  it('a pool holding its liveness lock keeps its jobs however old; once its connection ends they are unlocked', async () => {
    const lines: string[] = [];
    const liveness = await keepAlive(url, api.sql, 'pool-alive-test', (line) => lines.push(line));
    const job = await lockedJob('pool-alive-test', 3600);

    expect(await unlockDeadWorkers(api.sql)).not.toContain('pool-alive-test');
    expect(await lockOf(job)).toBe('pool-alive-test');

    await liveness.stop();
    expect(await unlockDeadWorkers(api.sql)).toContain('pool-alive-test');
    expect(await lockOf(job)).toBeNull();
    expect(lines).toEqual([]);
  });

  it('a lost liveness connection is opened again and the lock taken again before the next sweep', async () => {
    const lines: string[] = [];
    const liveness = await keepAlive(url, api.sql, 'pool-reconnect-test', (line) => lines.push(line), 100);
    const job = await lockedJob('pool-reconnect-test', 3600);
    try {
      // The connection ends (a database restart, a network cut): the lock is gone with it.
      await api.sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = 'crm-worker-liveness pool-reconnect-test'`;
      // A sweep of another worker before the next check would find the pool dead; once the lock is held
      // again, alive. Waits for the lock itself, not its connection (seen a moment before the lock on a busy
      // machine); bounded, so that a machine that never takes it fails here.
      let held = false;
      for (let wait = 0; wait < 200 && !held; wait++) {
        await sleep(50);
        const [row] = await api.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity a
          join pg_locks l on l.pid = a.pid and l.locktype = 'advisory' and l.classid = 7321 and l.granted
          where a.application_name = 'crm-worker-liveness pool-reconnect-test'`;
        held = row?.n === 1;
      }
      expect(held).toBe(true);
      expect(await unlockDeadWorkers(api.sql)).not.toContain('pool-reconnect-test');
      expect(await lockOf(job)).toBe('pool-reconnect-test');
    } finally {
      await liveness.stop();
    }
  });

  it('a lost liveness connection it has not noticed yet never makes the pool sweep its own jobs as dead', async () => {
    // A relay whose database side ends while the pool's side stays open and silent: the backend (and its lock) is
    // gone, postgres.js has seen no close. A sweep that trusted a remembered "locked" unlocked its own job here.
    const pairs: { client: Socket; upstream: Socket }[] = [];
    const target = new URL(url);
    const relay = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname);
      client.pipe(upstream).pipe(client);
      client.on('error', () => {});
      upstream.on('error', () => {});
      pairs.push({ client, upstream });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.address() as { port: number }).port);
    const lines: string[] = [];
    const liveness = await keepAlive(
      relayed.toString(),
      api.sql,
      'pool-unnoticed-test',
      (line) => lines.push(line),
      50,
    );
    const job = await lockedJob('pool-unnoticed-test', 3600);
    try {
      for (const { client, upstream } of pairs) {
        upstream.unpipe(client);
        client.unpipe(upstream);
        upstream.destroy();
      }
      await until(async () => {
        const [row] = await api.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where application_name = 'crm-worker-liveness pool-unnoticed-test'`;
        return row?.n === 0;
      }, 'the backend ended');
      // Many sweep intervals pass; this pool must not be the one to call itself dead.
      await sleep(500);
      expect(await lockOf(job)).toBe('pool-unnoticed-test');
      expect(lines.filter((line) => line.includes('pool-unnoticed-test'))).toEqual([]);
    } finally {
      for (const { client } of pairs) client.destroy();
      await liveness.stop();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });

  it('the worker holds its pool’s liveness lock while it runs, and gives it up when it stops', async () => {
    runner = await startWorker(url, api.deps);
    let pool: string | undefined;
    for (let wait = 0; wait < 100 && !pool; wait++) {
      // Its connection once it holds the lock (the connection is seen a moment before).
      const [row] = await api.sql<{ pool: string }[]>`
        select substring(a.application_name from 'crm-worker-liveness (.*)') as pool from pg_stat_activity a
        join pg_locks l on l.pid = a.pid and l.locktype = 'advisory' and l.classid = 7321 and l.granted
        where a.datname = current_database() and a.application_name like 'crm-worker-liveness %'`;
      pool = row?.pool;
      if (!pool) await sleep(50);
    }
    if (!pool) throw new Error('the worker took no liveness lock');
    const job = await lockedJob(pool, 3600);
    expect(await unlockDeadWorkers(api.sql)).not.toContain(pool);
    expect(await lockOf(job)).toBe(pool);

    await runner.stop();
    runner = undefined;
    let dead: string[] = [];
    for (let wait = 0; wait < 100 && !dead.includes(pool); wait++) {
      dead = await unlockDeadWorkers(api.sql);
      if (!dead.includes(pool)) await sleep(50);
    }
    expect(dead).toContain(pool);
    expect(await lockOf(job)).toBeNull();
  });
});
