// The delivery job: its task name, payloads and key. A job carries one delivery (a scheduled retry, a resend,
// a recovery, or the safety net of a first attempt the fan-out handed over) or the first attempts of several
// deliveries to one endpoint that the fan-out did not send itself (see fanout.ts); deliver-job.ts runs it.

export const DELIVER_TASK = 'webhook_deliver';
export type Trigger = 'scheduled' | 'manual_resend' | 'recovery';
/**
 * A job of one delivery: a retry, a resend, a recovery or a fan-out's safety job. `endpointId` (absent in
 * jobs queued before it existed) lets the worker postpone the job while that endpoint is slow; `postponed`
 * counts how often it was.
 */
export type DeliverPayload = {
  companyId: string;
  deliveryId: string;
  trigger: Trigger;
  endpointId?: string;
  postponed?: number;
};
/** The first attempts of several deliveries to one endpoint that a fan-out did not send itself. */
export type DeliverBatchPayload = {
  companyId: string;
  deliveryIds: string[];
  trigger: 'scheduled';
  endpointId?: string;
  postponed?: number;
};

/** The most first attempts one job carries: bounds a job's run time and the size of its statements. */
export const DELIVERIES_PER_JOB = 100;

/**
 * The job key of a delivery's scheduled retries and of its recovery: queuing one replaces a job of the same
 * delivery that has not started, so a retry left over from before the endpoint was disabled cannot revive
 * the old schedule after a recovery. A manual resend has no key: it must leave the retry schedule alone.
 */
export const DELIVERY_JOB_KEY_PREFIX = `${DELIVER_TASK}:`;
export const deliveryJobKey = (deliveryId: string): string => `${DELIVERY_JOB_KEY_PREFIX}${deliveryId}`;
