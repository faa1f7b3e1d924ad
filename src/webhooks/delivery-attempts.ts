// Delivery attempts of delivery jobs (retries, resends, recoveries, safety jobs, and the first attempts
// fanout.ts queued instead of sending them itself): read the deliveries, their endpoint and their events (one
// short transaction, one statement, shared by the jobs of the company reading at the same time: delivery-reads.ts),
// send with no transaction open, each endpoint in its turn (send-turns.ts), then record each attempt, successes
// and failures in batches per company (record-attempts.ts).
import { type Clock, systemClock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { withTenant } from '../db/tenant.ts';
import { type ReadRow, sendingEndpoint } from './delivery-reads.ts';
import { findDelivery, findEndpoint, markDelivery, timeOf } from './delivery-rows.ts';
import type { DeliveryState } from './delivery-state.ts';
import { ENDPOINT_FRESH_MS, type EndpointNow } from './endpoint-rereads.ts';
import type { Recording, Trigger } from './record-attempts.ts';
import type { LookupAll, UrlPolicy } from './url-guard.ts';

/** Why an attempt is made (the attempts' `trigger` column). */

/**
 * `now`, `lookup` and `timeoutMs` let tests control the clock, DNS and the 10-second limit; `inlineWaitOver` ends a
 * fan-out's inline wait when it settles instead of after INLINE_WAIT_MS (fanout.ts), so that a test of what is in
 * flight at that moment does not depend on how fast the machine answers within a real second. `stop`: once it
 * aborts (the worker is stopping), no further request is started; requests in flight run to their end.
 */
export type DeliverOptions = {
  policy: UrlPolicy;
  now?: Clock;
  lookup?: LookupAll;
  timeoutMs?: number;
  inlineWaitOver?: Promise<unknown>;
  stop?: AbortSignal;
};
/** 'not_sent': left alone because the worker is stopping (see DeliverOptions.stop); still pending. */
export type DeliverOutcome = 'gone' | 'skipped' | 'succeeded' | 'retrying' | 'failed' | 'not_sent';

/** One delivery (a retry, a resend, a recovery, or a test's single step). */
export async function deliver(
  state: DeliveryState,
  payload: { companyId: string; deliveryId: string; trigger: Trigger },
  opts: DeliverOptions,
): Promise<DeliverOutcome> {
  const { companyId, deliveryId, trigger } = payload;
  const [outcome] = await deliverBatch(state, { companyId, deliveryIds: [deliveryId], trigger }, opts);
  return outcome ?? 'gone';
}

/**
 * Several deliveries of one company (first attempts a fan-out queued): read in one statement, sent in the order of
 * the ids (each endpoint in turn, see send-turns.ts; a slow endpoint holds back only its own messages),
 * each recorded as soon as its answer is in. Answers one outcome per id, in order.
 */
export async function deliverBatch(
  state: DeliveryState,
  payload: { companyId: string; deliveryIds: string[]; trigger: Trigger },
  opts: DeliverOptions,
): Promise<DeliverOutcome[]> {
  const { companyId, deliveryIds, trigger } = payload;
  const readAt = performance.now();
  const byId = await state.reads.read(companyId, deliveryIds);
  // An id listed twice is sent once (and answered twice). Every attempt runs to its end before a failure
  // fails the job: a retry of the job must not overlap with sends of this one still in flight.
  const unique = [...new Set(deliveryIds)];
  const settled = await Promise.allSettled(
    unique.map((id) => attempt(state, { companyId, deliveryId: id, trigger }, byId.get(id), readAt, opts)),
  );
  const outcomes = new Map<string, DeliverOutcome>();
  for (const [i, result] of settled.entries()) {
    if (result.status === 'rejected') throw result.reason;
    outcomes.set(unique[i] as string, result.value);
  }
  return deliveryIds.map((id) => outcomes.get(id) ?? 'gone');
}

async function attempt(
  state: DeliveryState,
  { companyId, deliveryId, trigger }: { companyId: string; deliveryId: string; trigger: Trigger },
  row: ReadRow | undefined,
  readAt: number,
  opts: DeliverOptions,
): Promise<DeliverOutcome> {
  const { db } = state;
  const now = opts.now ?? systemClock;
  if (!row) return 'gone';
  // A scheduled retry or a recovery is for a pending delivery only; anything else was settled after the
  // job was queued (a resend succeeded, the endpoint was disabled). A manual resend works in every state.
  if (trigger !== 'manual_resend' && row.status !== 'pending') return 'skipped';
  if (row.endpoint_status === 'disabled') return skipDisabled(db, companyId, deliveryId);
  if (!row.endpoint_scopes.includes(row.event_scope)) return withhold(db, companyId, deliveryId);

  // Widened on purpose: the send below may find the endpoint deleted, disabled or narrowed meanwhile.
  let endpoint = { ...sendingEndpoint(row), scopes: row.endpoint_scopes } as EndpointNow;
  const body = state.bodies.body(companyId, row);
  const result = await state.turns.send(row.endpoint_id, async () => {
    if (opts.stop?.aborted) return null;
    // Read too long ago (it waited for its turn): sent as the endpoint is now (see endpoint-rereads.ts).
    if (performance.now() - readAt >= ENDPOINT_FRESH_MS) endpoint = await state.rereads.now(companyId, row.endpoint_id);
    if (endpoint === null || endpoint === 'disabled') return null;
    if (!endpoint.scopes.includes(row.event_scope)) return null;
    return state.sender.send(
      endpoint,
      { id: row.event_id, body },
      { now: now(), policy: opts.policy, lookup: opts.lookup, timeoutMs: opts.timeoutMs },
    );
  });
  if (endpoint === null) return 'gone';
  if (endpoint === 'disabled') return skipDisabled(db, companyId, deliveryId);
  if (!endpoint.scopes.includes(row.event_scope)) return withhold(db, companyId, deliveryId);
  if (result === null) return 'not_sent';
  const recording: Recording = {
    companyId,
    deliveryId,
    endpointId: row.endpoint_id,
    url: endpoint.url,
    trigger,
    result,
    at: now(),
    dueAt: timeOf(row.next_attempt_at),
  };
  return state.attempts.record(recording);
}

/**
 * A disabled endpoint receives nothing; its pending message stays in the log as failed (recoverable). Rare:
 * read and decided again in one transaction, as before the fast path.
 */
function skipDisabled(db: Db, companyId: string, deliveryId: string): Promise<DeliverOutcome> {
  return withTenant(db, companyId, async (tx) => {
    const delivery = await findDelivery(tx, companyId, deliveryId);
    if (!delivery) return 'gone';
    const endpoint = await findEndpoint(tx, companyId, delivery.endpointId);
    if (!endpoint) return 'gone';
    if (endpoint.status === 'disabled' && delivery.status === 'pending') {
      await markDelivery(tx, delivery.id, companyId, { status: 'failed', nextAttemptAt: null });
    }
    return 'skipped';
  });
}

/**
 * An endpoint receives only what its scopes may read, at every attempt: a key may choose an endpoint's events
 * again (narrowing its scopes to its own) and point it elsewhere, and its earlier deliveries of events it may no
 * longer read — retries, a resend, a recovery — must not follow it there. A pending one becomes failed, not
 * sent; it stays in the log (recoverable should the endpoint's events be chosen again by a key that may).
 */
function withhold(db: Db, companyId: string, deliveryId: string): Promise<DeliverOutcome> {
  return withTenant(db, companyId, async (tx) => {
    const delivery = await findDelivery(tx, companyId, deliveryId);
    if (!delivery) return 'gone';
    if (delivery.status === 'pending') {
      await markDelivery(tx, delivery.id, companyId, { status: 'failed', nextAttemptAt: null });
    }
    return 'skipped';
  });
}
