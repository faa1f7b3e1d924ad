// Fan-out: one delivery per active endpoint that subscribed to the event's type and whose creator may read
// it (logged as failed for a disabled endpoint, so Recover can send it later). The fan-out jobs that run at
// the same time are handled together (src/jobs/coalescer.ts): per company one statement reads the targets
// of all their events and one writes all the deliveries and queues their first-attempt jobs — per endpoint,
// one job per DELIVERIES_PER_JOB deliveries, so that a slow endpoint's jobs hold back only its own messages
// (see deliverJob) — queued with one add_jobs call (one notification).

import type { Db } from '../db/client.ts';
import type { FanoutPayload } from '../events/record.ts';
import { prefixedId } from '../ids.ts';
import { tenantStatement } from './pipeline.ts';

export const DELIVER_TASK = 'webhook_deliver';
export type Trigger = 'scheduled' | 'manual_resend' | 'recovery';
/**
 * A job of one delivery: a retry, a resend or a recovery. `endpointId` (absent in jobs queued before it
 * existed) lets the worker postpone the job while that endpoint is slow; `postponed` counts how often it was.
 */
export type DeliverPayload = {
  companyId: string;
  deliveryId: string;
  trigger: Trigger;
  endpointId?: string;
  postponed?: number;
};
/** The first attempts of several deliveries to one endpoint, queued by a fan-out. */
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

/** Fans out one event; answers the number of deliveries queued for sending. */
export async function fanout(db: Db, payload: FanoutPayload): Promise<number> {
  const [queued] = await fanoutEvents(db, payload.companyId, [payload.eventId]);
  return queued ?? 0;
}

type Target = { event_id: string; endpoint_id: string; event_type: string; active: boolean };

/**
 * Fans out several events of one company; answers per event the number of deliveries queued for sending.
 * Safe to run again for the same event (a job retried after a crash): a delivery exists once per event and
 * endpoint, and only newly made ones are queued.
 */
export async function fanoutEvents(db: Db, companyId: string, eventIds: string[]): Promise<number[]> {
  const targets = await tenantStatement<Target>(
    db,
    companyId,
    (sql) => sql`
      select ev.id as event_id, e.id as endpoint_id, ev.type as event_type, e.status = 'active' as active
      from events ev
      join webhook_endpoints e on e.company_id = ev.company_id
      where ev.company_id = ${companyId} and ev.id = any(${eventIds}::text[])
        -- An endpoint created after the event (while its fan-out job waited) did not subscribe to it.
        and e.created_at <= ev.created_at
        and (ev.type = any(e.events) or '*' = any(e.events))
        and ev.scope = any(e.scopes)
      order by ev.id, e.id`,
  );
  if (targets.length === 0) return eventIds.map(() => 0);
  // One JSON parameter: the deliveries to make (a disabled endpoint's is logged as failed at once).
  const input = targets.map((t) => ({
    id: prefixedId('wd'),
    endpoint_id: t.endpoint_id,
    event_id: t.event_id,
    event_type: t.event_type,
    status: t.active ? 'pending' : 'failed',
  }));
  const [row] = await tenantStatement<{ per_event: Record<string, number> }>(
    db,
    companyId,
    (sql) => sql`
      with input as (
        select * from json_to_recordset(${JSON.stringify(input)}::json)
          as t(id text, endpoint_id text, event_id text, event_type text, status text)
      ), inserted as (
        insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, next_attempt_at)
        select ${companyId}::uuid, i.id, i.endpoint_id, i.event_id, i.event_type, i.status,
          case when i.status = 'pending' then now() end
        from input i
        -- An endpoint deleted since the targets were read gets nothing.
        join webhook_endpoints e on e.company_id = ${companyId} and e.id = i.endpoint_id
        order by i.id
        on conflict (company_id, event_id, endpoint_id) do nothing
        returning id, endpoint_id, event_id, status
      ), pending as (
        select id, endpoint_id, event_id,
          (row_number() over (partition by endpoint_id order by id) - 1) / ${DELIVERIES_PER_JOB}::int as chunk
        from inserted where status = 'pending'
      ), jobs as (
        select json_build_object('companyId', ${companyId}::text, 'endpointId', endpoint_id,
          'deliveryIds', json_agg(id order by id), 'trigger', 'scheduled') as payload, chunk, endpoint_id
        from pending group by endpoint_id, chunk
      ), queued as (
        select app_queue_jobs(array_agg(${DELIVER_TASK}::text), array_agg(payload))
        from jobs
      )
      select (select count(*) from queued) as queued,
        coalesce((select json_object_agg(event_id, n)
          from (select event_id, count(*)::int as n from pending group by event_id) p), '{}'::json) as per_event`,
  );
  const perEvent = row?.per_event ?? {};
  return eventIds.map((id) => perEvent[id] ?? 0);
}
