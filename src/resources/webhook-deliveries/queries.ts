// SQL of the delivery log; every function takes the tenant transaction first. Like events, deliveries and
// their attempts are kept 30 days: older rows the purge has not reached yet are already gone from the log.
import { and, asc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { queueJob } from '../../db/job-queue.ts';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { EVENT_RETENTION_DAYS } from '../../events/retention.ts';
import { type PageRequest, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { DELIVER_TASK, DELIVERY_JOB_KEY_PREFIX } from '../../webhooks/delivery-job-key.ts';
import type { DeliveryRow } from './serialize.ts';

export type DeliveryFilters = {
  endpointId?: string;
  eventId?: string;
  status?: DeliveryRow['status'];
  eventType?: string;
  createdSince?: string;
};

const withinRetention = sql`${webhookDeliveries.createdAt} >= app_now() - make_interval(days => ${EVENT_RETENTION_DAYS})`;

/**
 * The delivery's endpoint may receive its event now: the endpoint's scopes (its events chosen with them) hold the
 * event's read scope. Not so after a key that cannot read it chose the endpoint's events again; such deliveries
 * are not sent again (the worker checks the same at every attempt).
 */
const receivable = sql`exists (
  select 1 from ${events} ev join ${webhookEndpoints} e on e.company_id = ev.company_id
  where ev.company_id = ${webhookDeliveries.companyId} and ev.id = ${webhookDeliveries.eventId}
    and e.id = ${webhookDeliveries.endpointId} and ev.scope = any(e.scopes))`;

/** Whether the endpoint may receive the delivery's event now (see `receivable`). */
export async function isReceivable(tx: Tx, companyId: string, deliveryId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId), receivable));
  return row !== undefined;
}

export async function listDeliveries(tx: Tx, companyId: string, page: PageRequest, filters: DeliveryFilters) {
  const conditions: (SQL | undefined)[] = [eq(webhookDeliveries.companyId, companyId), withinRetention];
  if (filters.endpointId) conditions.push(eq(webhookDeliveries.endpointId, filters.endpointId));
  if (filters.eventId) conditions.push(eq(webhookDeliveries.eventId, filters.eventId));
  if (filters.status) conditions.push(eq(webhookDeliveries.status, filters.status));
  if (filters.eventType) conditions.push(eq(webhookDeliveries.eventType, filters.eventType));
  if (filters.createdSince) conditions.push(atOrAfter(webhookDeliveries.createdAt, filters.createdSince));
  return selectPage(
    tx,
    webhookDeliveries,
    page,
    { sorts: { created_at: webhookDeliveries.createdAt }, id: webhookDeliveries.id },
    conditions,
  );
}

/** The delivery, only under the endpoint named in the path (lock: before queuing an attempt of it). */
export async function findDelivery(tx: Tx, companyId: string, endpointId: string, id: string, lock = false) {
  const query = tx
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
        withinRetention,
      ),
    );
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function listAttempts(tx: Tx, companyId: string, deliveryId: string, page: PageRequest) {
  return selectPage(
    tx,
    webhookAttempts,
    page,
    { sorts: { created_at: webhookAttempts.createdAt }, id: webhookAttempts.id },
    [eq(webhookAttempts.companyId, companyId), eq(webhookAttempts.deliveryId, deliveryId)],
  );
}

/** The endpoint's status, or undefined when it does not exist (lock: while queuing attempts for it). */
export async function endpointStatus(tx: Tx, companyId: string, id: string, lock = false) {
  const query = tx
    .select({ status: webhookEndpoints.status })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)));
  const [row] = lock ? await query.for('share') : await query;
  return row?.status;
}

export async function eventExists(tx: Tx, companyId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        eq(events.companyId, companyId),
        eq(events.id, id),
        sql`${events.createdAt} >= app_now() - make_interval(days => ${EVENT_RETENTION_DAYS})`,
      ),
    );
  return row !== undefined;
}

/**
 * One extra attempt of a delivery, right away and without a job key: a retry already scheduled for the
 * delivery stays as it is (it skips if this attempt succeeds).
 */
export async function queueResend(tx: Tx, companyId: string, endpointId: string, deliveryId: string) {
  await tx.execute(
    sql`select ${queueJob('webhook_deliver', { companyId, deliveryId, trigger: 'manual_resend', endpointId })}`,
  );
}

/**
 * Makes every failed delivery of the endpoint created in [since, until) pending again and queues one
 * `recovery` attempt for each, oldest first, in one statement. The job key replaces a scheduled retry
 * left over from before the endpoint was disabled, so that it cannot restart the old schedule.
 */
export async function queueRecovery(tx: Tx, companyId: string, endpointId: string, since: Date, until: Date) {
  const picked = tx
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'failed'),
        gte(webhookDeliveries.createdAt, since),
        lt(webhookDeliveries.createdAt, until),
        withinRetention,
        receivable,
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    .for('update');
  const queued = await tx.execute<{ id: string }>(sql`
    with picked as (${picked}),
    reopened as (
      update webhook_deliveries d
      set status = 'pending', next_attempt_at = app_now(), updated_at = app_now()
      from picked
      where d.company_id = ${companyId} and d.id = picked.id
      returning d.id, d.created_at
    )
    -- PostgreSQL evaluates a volatile function in the select list after sorting, so job ids (the worker's
    -- order among jobs due at the same time) follow the deliveries' age.
    select id, app_queue_job(${DELIVER_TASK},
      json_build_object('companyId', ${companyId}::text, 'deliveryId', id, 'trigger', 'recovery',
        'endpointId', ${endpointId}::text),
      null, ${DELIVERY_JOB_KEY_PREFIX} || id)
    from reopened
    order by created_at, id`);
  return queued.length;
}
