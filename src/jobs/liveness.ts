// Jobs of a worker process that died run again within about a minute, not after Graphile Worker's 4-hour lock
// timeout (migration 0012 says how): each worker process holds a liveness lock for its pool on a connection
// of its own, and every SWEEP_INTERVAL_MS it unlocks the jobs of pools that hold locks older than
// DEAD_AFTER_SECONDS without a liveness lock. The age keeps a pool that is still starting (its lock not yet
// taken) or a process of a version without liveness locks from losing a job it has only just locked.
import postgres from 'postgres';
import type { Sql } from '../db/client.ts';

/** Must match app_unlock_dead_workers (migration 0012). */
const LIVENESS_LOCK_CLASS = 7321;
export const DEAD_AFTER_SECONDS = 60;
const SWEEP_INTERVAL_MS = 30_000;

export type Liveness = { stop(): Promise<void> };

/**
 * Holds the liveness lock of `poolId` (taken again after the connection was lost) and sweeps for dead
 * pools on `sql` (the service's pool: its connections hold no liveness lock). `log` gets a line for every
 * dead pool found and for every failure (a sweep never throws: the next one tries again). The lock is
 * checked (and taken again if its connection was lost) before each sweep.
 */
export async function keepAlive(
  connectionString: string,
  sql: Sql,
  poolId: string,
  log: (line: string) => void,
  sweepIntervalMs = SWEEP_INTERVAL_MS,
): Promise<Liveness> {
  const own = postgres(connectionString, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    connection: { application_name: `crm-worker-liveness ${poolId}` },
  });
  // Asked on its own connection before every sweep, not remembered: between a lost connection and postgres.js
  // noticing, a remembered "locked" let this process sweep its own pool as dead and unlock its own jobs.
  const lock = async () => {
    await own`
      select pg_advisory_lock(${LIVENESS_LOCK_CLASS}, hashtext(${poolId}))
      where not exists (
        select from pg_locks
        where pid = pg_backend_pid() and locktype = 'advisory' and granted
          and classid = ${LIVENESS_LOCK_CLASS}::oid and objid = hashtext(${poolId})::oid and objsubid = 2)`;
  };
  await lock();
  // One sweep at a time: on a connection that hangs, the lock's check waits, and ticks must not pile up behind it.
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void lock()
      .then(() => unlockDeadWorkers(sql))
      .then((dead) => {
        for (const pool of dead) log(`worker pool ${pool} is gone: its jobs were unlocked and run again`);
      })
      .catch((error: unknown) => log(`liveness check failed: ${String(error)}`))
      .finally(() => {
        sweeping = false;
      });
  }, sweepIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await own.end({ timeout: 5 });
    },
  };
}

/** Unlocks the jobs of dead pools; answers their ids. */
export async function unlockDeadWorkers(sql: Sql, minAgeSeconds = DEAD_AFTER_SECONDS): Promise<string[]> {
  const [row] = await sql<{ dead: string[] }[]>`
    select app_unlock_dead_workers(make_interval(secs => ${minAgeSeconds})) as dead`;
  return row?.dead ?? [];
}
