// The delivery task's name and the job key of a delivery, for the statements that queue delivery jobs in SQL
// (the fan-out's, a failure's retry, a recovery). The task and its payload: jobs/webhook-deliver.ts.
import type { TaskName } from '../db/job-queue.ts';

export const DELIVER_TASK = 'webhook_deliver' satisfies TaskName;

/**
 * The job key of a delivery's scheduled retries and of its recovery: queuing one replaces a job of the same
 * delivery that has not started, so a retry left over from before the endpoint was disabled cannot revive
 * the old schedule after a recovery. A manual resend has no key: it must leave the retry schedule alone.
 */
export const DELIVERY_JOB_KEY_PREFIX = `${DELIVER_TASK}:`;
export const deliveryJobKey = (deliveryId: string): string => `${DELIVERY_JOB_KEY_PREFIX}${deliveryId}`;
