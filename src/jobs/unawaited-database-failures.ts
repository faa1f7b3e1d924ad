// A worker process outlives a database failure that nobody awaited. Libraries keep background work of their own
// on database connections (reconnects, listeners, pools being ended); when PostgreSQL restarts under load, one
// such promise can reject with ECONNREFUSED or a lost connection while nobody listens, and Node ends the process
// for it — the drill's worker exited that way once (docs/drills.md). The jobs are in PostgreSQL and the runners,
// the liveness sweep and the lost-fetch check (supervised-runner.ts) take up what was dropped, so such a
// rejection is logged and the process carries on. Any other unhandled rejection — a deadlock or a timeout
// too, which would be a write lost — still ends it, as Node would.
import { isConnectionLost } from '../db/errors.ts';

export function carryOnAfterUnawaitedDatabaseFailures(log: (error: unknown) => void): void {
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionLost(reason)) throw reason;
    log(reason);
  });
}
