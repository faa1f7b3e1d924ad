// The background jobs a change queued (Graphile Worker's own tables), for tests that check a job exists exactly
// when its change committed.
import type { JobHelpers } from 'graphile-worker';
import { taskList } from '../../src/jobs/worker.ts';
import type { TestApi } from './api.ts';

export type QueuedJob = { task: string; payload: Record<string, unknown>; runAt: Date; key: string | null };

/** The unlocked jobs of `task` whose payload names `companyId`, oldest first. */
export async function queuedJobsOf(api: Pick<TestApi, 'sql'>, task: string, companyId: string): Promise<QueuedJob[]> {
  const rows = await api.sql<{ task: string; payload: Record<string, unknown>; run_at: Date; key: string | null }[]>`
    select t.identifier as task, j.payload, j.run_at, j.key
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = ${task} and j.locked_at is null and j.payload->>'companyId' = ${companyId}
    order by j.run_at, j.id`;
  return rows.map((r) => ({ task: r.task, payload: r.payload, runAt: new Date(r.run_at), key: r.key }));
}

/** Sends every queued email of the company as the worker's email_send job would (to the test's SMTP_URL). */
export async function deliverQueuedEmails(api: Pick<TestApi, 'sql' | 'deps' | 'config'>, companyId: string) {
  const rows = await api.sql<{ id: string }[]>`
    select id from outbound_emails where company_id = ${companyId} and status = 'queued'`;
  const task = taskList({ ...api.deps, config: api.config }).email_send;
  for (const { id } of rows) await task({ companyId, emailId: id }, {} as JobHelpers);
}

/** Makes the print versions of the company's photos as the worker's work_order_photo_print jobs would. */
export async function makePhotoPrints(api: Pick<TestApi, 'sql' | 'deps' | 'config'>, companyId: string) {
  const jobs = await queuedJobsOf(api, 'work_order_photo_print', companyId);
  const task = taskList({ ...api.deps, config: api.config }).work_order_photo_print;
  for (const job of jobs) {
    await task({ companyId, photoId: String(job.payload.photoId) }, {} as JobHelpers);
    // Done, as the worker completes a job.
    await api.sql`delete from graphile_worker._private_jobs where key = ${job.key}`;
  }
  return jobs.length;
}
