// The webhook_deliver task: a job carries one delivery (a scheduled retry, a resend, a recovery, or the safety job
// of a first attempt the fan-out handed over) or the first attempts of several deliveries to one endpoint that
// the fan-out did not send itself (see fanout.ts).
//
// A job runs when its endpoint admits it (endpoint-admission.ts); a slow endpoint's further job is queued again a
// little later (5 s, doubling each time up to 60 s) and completes at once. Postponing is not an attempt: the
// delivery's attempts and retry schedule are as they were. Jobs without an endpoint (queued before they carried
// one) run as before. When the worker stops (DeliverOptions.stop), a job sends nothing more: what it has not
// sent is queued again at once, for the next worker.
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { tenantStatement } from '../../db/tenant-statement.ts';
import { type DeliverOptions, type DeliverOutcome, deliverBatch } from '../delivery-attempts.ts';
import { DELIVER_TASK, deliveryJobKey } from '../delivery-job-key.ts';
import type { DeliveryState } from '../delivery-state.ts';
import { DELIVERIES_PER_JOB } from '../fanout.ts';
import type { Trigger } from '../record-attempts.ts';

// Job payloads are JSON from the queue: checked, not trusted. `endpointId` (absent in jobs queued before it
// existed) lets the worker postpone the job while that endpoint is slow; `postponed` counts how often it was.
const trigger = z.enum(['scheduled', 'manual_resend', 'recovery']) satisfies z.ZodType<Trigger>;
const admission = { endpointId: z.string().optional(), postponed: z.int().min(0).optional() };
/** A job of one delivery: a retry, a resend, a recovery or a fan-out's safety job. */
const onePayload = z.object({ companyId: z.uuid(), deliveryId: z.string(), trigger, ...admission });
/** The first attempts of several deliveries to one endpoint that a fan-out did not send itself. */
const batchPayload = z.object({
  companyId: z.uuid(),
  deliveryIds: z.array(z.string()).min(1).max(DELIVERIES_PER_JOB),
  trigger: z.literal('scheduled'),
  ...admission,
});
export const deliverPayload = z.union([onePayload, batchPayload]);

export type DeliverPayload = z.infer<typeof onePayload>;
export type DeliverBatchPayload = z.infer<typeof batchPayload>;
export type DeliverJob = z.infer<typeof deliverPayload>;

declare global {
  namespace GraphileWorker {
    interface Tasks {
      webhook_deliver: DeliverJob;
    }
  }
}

const FIRST_POSTPONEMENT_SECONDS = 5;
const MAX_POSTPONEMENT_SECONDS = 60;

/** The task of a worker: its state, and how it sends (see DeliverOptions). */
export function webhookDeliverTask(state: DeliveryState, sending: DeliverOptions): Task<'webhook_deliver'> {
  return async (payload, helpers) => {
    await deliverJob(state, deliverPayload.parse(payload), helpers.job.id, sending);
  };
}

/** `jobId`: the running Graphile job (its key passes to the postponed job, see app_postpone_job). */
export async function deliverJob(
  state: DeliveryState,
  job: DeliverJob,
  jobId: string,
  opts: DeliverOptions,
): Promise<DeliverOutcome[] | 'postponed'> {
  const { db, admission } = state;
  const deliveryIds = 'deliveryIds' in job ? job.deliveryIds : [job.deliveryId];
  const { endpointId } = job;
  if (endpointId !== undefined && !(await admission.admit(endpointId))) {
    const postponed = (job.postponed ?? 0) + 1;
    const seconds = Math.min(MAX_POSTPONEMENT_SECONDS, FIRST_POSTPONEMENT_SECONDS * 2 ** (postponed - 1));
    await queueAgain(db, { ...job, postponed }, jobId, seconds);
    return 'postponed';
  }
  try {
    const outcomes = await deliverBatch(state, { companyId: job.companyId, deliveryIds, trigger: job.trigger }, opts);
    // The worker is stopping: what was not sent goes back to the queue for the next worker, at once.
    const notSent = [...new Set(deliveryIds.filter((_, i) => outcomes[i] === 'not_sent'))];
    if (notSent.length > 0)
      await queueAgain(db, 'deliveryIds' in job ? { ...job, deliveryIds: notSent } : job, jobId, 0);
    return outcomes;
  } finally {
    if (endpointId !== undefined) admission.leave(endpointId);
  }
}

/** Queues `job` again, `seconds` from now, in place of the running job `jobId`. */
async function queueAgain(db: Db, job: DeliverJob, jobId: string, seconds: number): Promise<void> {
  // A single delivery's scheduled retry or recovery keeps its job key (so that a recovery still replaces a
  // left-over retry); a resend and a fan-out's batch have none.
  const key = 'deliveryId' in job && job.trigger !== 'manual_resend' ? deliveryJobKey(job.deliveryId) : null;
  // The pending deliveries' next_attempt_at follows the schedule it now has (a resend is no part of it).
  const ids = job.trigger === 'manual_resend' ? [] : 'deliveryIds' in job ? job.deliveryIds : [job.deliveryId];
  await tenantStatement(
    db,
    job.companyId,
    (sql) => sql`
      with queued as (
        select app_postpone_job(${jobId}::bigint, ${DELIVER_TASK}, ${JSON.stringify(job)}::json,
          now() + make_interval(secs => ${seconds}), ${key}) as again
      ), moved as (
        update webhook_deliveries
        set next_attempt_at = now() + make_interval(secs => ${seconds}), updated_at = app_now()
        where company_id = ${job.companyId} and id = any(${ids}::text[]) and status = 'pending'
          and (select again from queued)
        returning 1
      )
      -- Read here, so that the job is queued even when no delivery is to be moved.
      select (select again from queued) as again, (select count(*) from moved) as moved`,
  );
}
