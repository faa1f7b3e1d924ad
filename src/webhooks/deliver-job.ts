// The delivery task's entry: runs a job for its endpoint, or postpones it while that endpoint is slow.
//
// Sending waits for the endpoint (at most SENDS_PER_ENDPOINT requests in flight, each up to 10 s). Without a
// limit on jobs, one hanging endpoint would fill every worker slot with jobs waiting in its queue and hold
// back every other endpoint of every company. So at most JOBS_PER_ENDPOINT jobs of one endpoint run at once
// in a worker process. A further job waits for one of them to end, up to ADMISSION_WAIT_MS: a fast endpoint
// ends jobs well within that (a burst of its messages just queues up here), a slow one does not, and then
// the job is queued again a little later (5 s, doubling each time up to 60 s) and completes at once.
// Postponing is not an attempt: the delivery's attempts and retry schedule are as they were. Jobs without an
// endpoint (queued before they carried one) run as before. When the worker stops (DeliverOptions.stop), a
// job sends nothing more: what it has not sent is queued again at once, for the next worker.
import type { Db } from '../db/client.ts';
import { type DeliverOptions, type DeliverOutcome, deliverBatch } from './deliver.task.ts';
import { DELIVER_TASK, type DeliverBatchPayload, type DeliverPayload, deliveryJobKey } from './delivery-jobs.ts';
import { tenantStatement } from './pipeline.ts';

/** Enough to keep a fast endpoint's SENDS_PER_ENDPOINT requests busy while a job's results are recorded. */
export const JOBS_PER_ENDPOINT = 4;
export const ADMISSION_WAIT_MS = 1_000;
const FIRST_POSTPONEMENT_SECONDS = 5;
const MAX_POSTPONEMENT_SECONDS = 60;

export type DeliverJob = DeliverPayload | DeliverBatchPayload;

/** Per endpoint: the jobs running and the jobs waiting for one of them to end (first come, first run). */
type Endpoint = { running: number; waiting: (() => void)[] };
const endpoints = new Map<string, Endpoint>();

/** Takes a place among the endpoint's running jobs, waiting at most ADMISSION_WAIT_MS; answers whether. */
function admit(endpointId: string): Promise<boolean> {
  let endpoint = endpoints.get(endpointId);
  if (!endpoint) {
    endpoint = { running: 0, waiting: [] };
    endpoints.set(endpointId, endpoint);
  }
  if (endpoint.running < JOBS_PER_ENDPOINT && endpoint.waiting.length === 0) {
    endpoint.running++;
    return Promise.resolve(true);
  }
  const state = endpoint;
  return new Promise<boolean>((resolve) => {
    const turn = () => {
      clearTimeout(timer);
      state.running++;
      resolve(true);
    };
    const timer = setTimeout(() => {
      state.waiting.splice(state.waiting.indexOf(turn), 1);
      resolve(false);
    }, ADMISSION_WAIT_MS);
    state.waiting.push(turn);
  });
}

function leave(endpointId: string): void {
  const endpoint = endpoints.get(endpointId);
  if (!endpoint) return;
  endpoint.running--;
  const next = endpoint.waiting.shift();
  if (next) next();
  else if (endpoint.running === 0) endpoints.delete(endpointId);
}

/** `jobId`: the running Graphile job (its key passes to the postponed job, see app_postpone_job). */
export async function deliverJob(
  db: Db,
  job: DeliverJob,
  jobId: string,
  opts: DeliverOptions,
): Promise<DeliverOutcome[] | 'postponed'> {
  const deliveryIds = 'deliveryIds' in job ? job.deliveryIds : [job.deliveryId];
  const { endpointId } = job;
  if (endpointId !== undefined && !(await admit(endpointId))) {
    const postponed = (job.postponed ?? 0) + 1;
    const seconds = Math.min(MAX_POSTPONEMENT_SECONDS, FIRST_POSTPONEMENT_SECONDS * 2 ** (postponed - 1));
    await queueAgain(db, { ...job, postponed }, jobId, seconds);
    return 'postponed';
  }
  try {
    const outcomes = await deliverBatch(db, { companyId: job.companyId, deliveryIds, trigger: job.trigger }, opts);
    // The worker is stopping: what was not sent goes back to the queue for the next worker, at once.
    const notSent = [...new Set(deliveryIds.filter((_, i) => outcomes[i] === 'not_sent'))];
    if (notSent.length > 0)
      await queueAgain(db, 'deliveryIds' in job ? { ...job, deliveryIds: notSent } : job, jobId, 0);
    return outcomes;
  } finally {
    if (endpointId !== undefined) leave(endpointId);
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
