// A failed attempt, recorded step by step in its own transaction: the attempt, the delivery's new state (its
// next scheduled attempt queued, or failed for good), the endpoint's health and — after 5 days of only failures,
// or an address that now resolves to an internal one — disabling it. Failures are rare; successes are written
// in batches (record-success.ts).
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queueJob } from '../db/job-queue.ts';
import { webhookAttempts, webhookEndpoints } from '../db/schema/index.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';
import type { DeliverOutcome } from './delivery-attempts.ts';
import { deliveryJobKey } from './delivery-job-key.ts';
import { type DeliveryRow, findDelivery, findEndpoint, markDelivery, timeOf } from './delivery-rows.ts';
import { disableEndpoint } from './disable-endpoint.ts';
import type { Recording, SuccessRecorder } from './record-success.ts';
import { DISABLE_AFTER_MS, nextDelaySeconds } from './schedule.ts';

/**
 * `successes`: the worker's recorder, whose successes still to be written keep the endpoint from being disabled
 * (it answered 2xx, so it has not only failed).
 */
export function recordFailure(db: Db, successes: SuccessRecorder, recording: Recording): Promise<DeliverOutcome> {
  return withTenant(db, recording.companyId, (tx) => record(tx, successes, recording));
}

async function record(tx: Tx, successes: SuccessRecorder, r: Recording): Promise<DeliverOutcome> {
  // Read again, locked: while the request was in flight the endpoint may have been disabled, deleted or have
  // had a success, and another attempt of the same delivery (a resend) must not take the same number.
  const delivery = await findDelivery(tx, r.companyId, r.deliveryId, true);
  if (!delivery) return 'gone';
  const succeeded = r.result.error === null;
  // Only a failure reads-and-writes the endpoint's health (failing_since, disabling): only then is it locked.
  // Successes to one endpoint run concurrently and must not queue behind each other on its row.
  const endpoint = await findEndpoint(tx, r.companyId, delivery.endpointId, !succeeded);
  if (!endpoint) return 'gone';

  const attemptNumber = delivery.attemptCount + 1;
  await tx.insert(webhookAttempts).values({
    companyId: r.companyId,
    id: prefixedId('wa'),
    deliveryId: delivery.id,
    endpointId: endpoint.id,
    eventId: delivery.eventId,
    attemptNumber,
    trigger: r.trigger,
    url: r.url,
    status: succeeded ? 'succeeded' : 'failed',
    statusCode: r.result.statusCode,
    durationMs: r.result.durationMs,
    error: r.result.error,
    responseBody: r.result.responseBody,
    createdAt: r.at,
  });
  const base = { attemptCount: attemptNumber, lastAttemptAt: r.at, lastStatusCode: r.result.statusCode };

  if (succeeded) {
    // Also ends a retry schedule: the queued retry finds the delivery settled and skips.
    await markDelivery(tx, delivery.id, r.companyId, { ...base, status: 'succeeded', nextAttemptAt: null });
    // The endpoint's health changes only when it was failing or its last success is more than a second old:
    // `last_success_at` is exact to the second, and a burst of successes writes the row once a second.
    await tx
      .update(webhookEndpoints)
      .set({ lastSuccessAt: r.at, failingSince: null })
      .where(
        and(
          eq(webhookEndpoints.companyId, r.companyId),
          eq(webhookEndpoints.id, endpoint.id),
          or(
            isNotNull(webhookEndpoints.failingSince),
            isNull(webhookEndpoints.lastSuccessAt),
            lt(webhookEndpoints.lastSuccessAt, new Date(r.at.getTime() - 1000)),
          ),
        ),
      );
    return 'succeeded';
  }

  const failingSince = endpoint.failingSince ?? r.at;
  await tx
    .update(webhookEndpoints)
    .set({ lastFailureAt: r.at, failingSince })
    .where(and(eq(webhookEndpoints.companyId, r.companyId), eq(webhookEndpoints.id, endpoint.id)));

  let outcome: DeliverOutcome;
  if (r.trigger === 'manual_resend') {
    // A resend is one extra try: it changes neither the state nor the retry schedule.
    await markDelivery(tx, delivery.id, r.companyId, base);
    outcome = delivery.status === 'pending' ? 'retrying' : 'failed';
  } else if (r.trigger === 'recovery') {
    // A recovery has no schedule of its own: a delivery that fails again is failed again.
    const settled = delivery.status === 'pending' ? { status: 'failed' as const, nextAttemptAt: null } : {};
    await markDelivery(tx, delivery.id, r.companyId, { ...base, ...settled });
    outcome = 'failed';
  } else if (delivery.status === 'succeeded' || reopened(delivery, r)) {
    // Answered after another attempt settled the delivery (a resend succeeded: it was received) or after it was
    // reopened (disabled, re-enabled and recovered while this request was in flight: its one recovery attempt
    // holds the delivery's job key, and a retry queued here would replace it). Logged; state and jobs stay.
    await markDelivery(tx, delivery.id, r.companyId, base);
    outcome = delivery.status === 'pending' ? 'retrying' : 'failed';
  } else {
    // The schedule counts scheduled attempts only: resends and recoveries neither shorten nor shift it.
    const scheduled = await scheduledAttempts(tx, r.companyId, delivery.id);
    const stillDue = delivery.status === 'pending' && endpoint.status === 'active';
    const delay = stillDue ? nextDelaySeconds(scheduled) : null;
    if (delay === null) {
      await markDelivery(tx, delivery.id, r.companyId, { ...base, status: 'failed', nextAttemptAt: null });
      outcome = 'failed';
    } else {
      const runAt = new Date(r.at.getTime() + delay * 1000);
      await markDelivery(tx, delivery.id, r.companyId, { ...base, status: 'pending', nextAttemptAt: runAt });
      const payload = {
        companyId: r.companyId,
        deliveryId: delivery.id,
        trigger: 'scheduled',
        endpointId: endpoint.id,
      } as const;
      await tx.execute(
        sql`select ${queueJob('webhook_deliver', payload, { runAt, jobKey: deliveryJobKey(delivery.id) })}`,
      );
      outcome = 'retrying';
    }
  }

  const disabling = { companyId: r.companyId, endpoint, at: r.at };
  if (r.result.error === 'url_not_allowed') await disableEndpoint(tx, disabling, 'url_not_allowed');
  // Not while a success of the endpoint waits to be written: it answered 2xx, so it has not only failed.
  else if (r.at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS && !successes.hasUnwritten(endpoint.id)) {
    await disableEndpoint(tx, disabling, 'failing_for_5_days');
  }
  return outcome;
}

/** Whether a scheduled attempt's delivery was given a new due time after the job read it (see Recording.dueAt). */
function reopened(delivery: DeliveryRow, r: Recording): boolean {
  return r.dueAt !== undefined && timeOf(delivery.nextAttemptAt) !== r.dueAt;
}

async function scheduledAttempts(tx: Tx, companyId: string, deliveryId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(webhookAttempts)
    .where(
      and(
        eq(webhookAttempts.companyId, companyId),
        eq(webhookAttempts.deliveryId, deliveryId),
        eq(webhookAttempts.trigger, 'scheduled'),
      ),
    );
  return row?.n ?? 0;
}
