// Jobs a runner's pool locked without knowing it. Graphile Worker's fetch locks jobs in one statement; when the
// connection is lost after that statement committed but before its rows arrived (a PostgreSQL restart under
// load), the jobs stay locked by a pool that is alive (so the liveness sweep leaves them alone) and never runs
// them: Graphile Worker itself unlocks them only after 4 hours. So each runner keeps the ids of the jobs its pool
// holds (fetched, not yet completed) and every CHECK_INTERVAL_MS unlocks the jobs locked by its pool for more
// than LOST_AFTER_SECONDS that it does not hold.
import type { Runner } from 'graphile-worker';
import type { Sql } from '../db/client.ts';

const CHECK_INTERVAL_MS = 10_000;
/** Far longer than a fetch's answer takes to arrive after its statement committed. */
const LOST_AFTER_SECONDS = 15;
/** A completed job stays held this long: its completion (batched) may still be on its way to the database. */
const COMPLETION_GRACE_MS = 30_000;

export type LostFetches = { stop(): void };

/** Watches `runner`'s jobs and unlocks the ones its pool `poolId` locked but never received. */
export function unlockLostFetches(runner: Runner, sql: Sql, poolId: string, log: (line: string) => void): LostFetches {
  /** Job id → when its job completed (Infinity while fetched and not completed). */
  const held = new Map<string, number>();
  runner.events.on('localQueue:getJobs:complete', ({ jobs }) => {
    for (const job of jobs) held.set(job.id, Number.POSITIVE_INFINITY);
  });
  runner.events.on('job:start', ({ job }) => {
    held.set(job.id, Number.POSITIVE_INFINITY);
  });
  runner.events.on('job:complete', ({ job }) => {
    held.set(job.id, Date.now());
  });
  // Handed back unrun (the local queue's time to live, or the runner releasing): no longer held, like a job done.
  runner.events.on('localQueue:returnJobs', ({ jobs }) => {
    for (const job of jobs) held.set(job.id, Date.now());
  });
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [id, completed] of held) if (completed < now - COMPLETION_GRACE_MS) held.delete(id);
    void unlockUnheld(sql, poolId, [...held.keys()]).then(
      (ids) => {
        if (ids.length > 0) log(`unlocked ${ids.length} jobs its pool had locked without receiving them`);
      },
      (error: unknown) => log(`could not check for jobs locked without being received: ${String(error)}`),
    );
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Unlocks the jobs `poolId` has locked for LOST_AFTER_SECONDS but does not hold; answers their ids. */
export async function unlockUnheld(
  sql: Sql,
  poolId: string,
  held: string[],
  lostAfterSeconds = LOST_AFTER_SECONDS,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    update graphile_worker._private_jobs set locked_by = null, locked_at = null
    where locked_by = ${poolId} and locked_at < now() - make_interval(secs => ${lostAfterSeconds})
      and not (id = any(${held}::bigint[]))
    returning id::text`;
  return rows.map((r) => r.id);
}
