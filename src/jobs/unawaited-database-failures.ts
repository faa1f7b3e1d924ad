// A worker process outlives a database failure that nobody awaited. Libraries keep background work of their own
// on database connections (reconnects, listeners, pools being ended); when PostgreSQL restarts under load, one
// such promise could reject with ECONNREFUSED or a lost connection while nobody listens, and Node would end the
// process for it. None has been seen: the drill's worker exit that this handler was written for was a start
// while the database was down (main's top-level await, which this handler never sees; now waited out by
// src/db/until-reachable.ts — docs/drills.md, issue 38 point 19). It stays as a net, and its line is an error
// that the db-restart drill and the outage test fail on, so that an owner shows up if one exists. The jobs are in
// PostgreSQL and the runners, the liveness sweep and the lost-fetch check (supervised-runner.ts) take up what was
// dropped. Any other unhandled rejection — a deadlock or a timeout too, which would be a write lost — still ends
// the process, as Node would.
import { isConnectionLost } from '../db/errors.ts';

export function carryOnAfterUnawaitedDatabaseFailures(log: (error: unknown) => void): void {
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionLost(reason)) throw reason;
    log(reason);
  });
}
