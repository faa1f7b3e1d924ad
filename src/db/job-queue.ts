// Graphile Worker jobs queued in the caller's transaction, through app_queue_job (migration 0018: only for the
// company of that transaction), so a job exists exactly when the change that asks for it commits. The payload
// is typed by task name: each task file declares its payload in GraphileWorker.Tasks (as Graphile Worker's
// addJob and quickAddJob are typed), and a name without a declared task does not compile.
import { type SQL, sql } from 'drizzle-orm';
import type {} from 'graphile-worker';

export type TaskName = keyof GraphileWorker.Tasks;
export type TaskPayload<T extends TaskName> = GraphileWorker.Tasks[T];

export type JobOptions = { runAt?: Date; jobKey?: string; priority?: number };

/** `app_queue_job(…)` for the caller's statement (select it, or select it from the rows it belongs to). */
export function queueJob<T extends TaskName>(task: T, payload: TaskPayload<T>, opts: JobOptions = {}): SQL {
  return sql`app_queue_job(${task}::text, ${JSON.stringify(payload)}::json, ${opts.runAt?.toISOString() ?? null}::timestamptz, ${opts.jobKey ?? null}::text, ${opts.priority ?? 0}::int)`;
}
