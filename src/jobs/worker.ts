// Graphile Worker: background jobs and cron in Postgres, so a job queued in a transaction exists exactly
// when that transaction commits.
import { type Runner, run, type TaskList } from 'graphile-worker';
import type { Sql } from '../db/client.ts';

export function taskList(sql: Sql): TaskList {
  return {
    // Idempotency keys are kept 24 hours (see the contract's Idempotency section).
    purge_idempotency_keys: async () => {
      await sql.begin(async (tx) => {
        await tx`select set_config('role', 'app_maintenance', true)`;
        await tx`delete from idempotency_keys where created_at < now() - interval '24 hours'`;
      });
    },
  };
}

export const CRONTAB = '17 * * * * purge_idempotency_keys';

export function startWorker(connectionString: string, sql: Sql): Promise<Runner> {
  return run({
    connectionString,
    concurrency: 4,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList(sql),
    crontab: CRONTAB,
  });
}
