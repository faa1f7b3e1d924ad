// The purge_idempotency_keys task (hourly, see CRONTAB in worker.ts): idempotency keys are kept 24 hours (the
// contract's Idempotency section; a lookup ignores older ones).
import type { Task } from 'graphile-worker';
import type { Sql } from '../db/client.ts';
import { asMaintenance, type CronPayload } from '../db/maintenance.ts';
import { IDEMPOTENCY_HOURS } from '../http/idempotency.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      purge_idempotency_keys: CronPayload;
    }
  }
}

export function purgeIdempotencyKeysTask(sql: Sql): Task<'purge_idempotency_keys'> {
  return async () => {
    await asMaintenance(
      sql,
      (tx) => tx`delete from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`,
    );
  };
}
