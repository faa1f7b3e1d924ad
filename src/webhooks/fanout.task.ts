// Fan-out of one event: one delivery per active endpoint that subscribed to its type and whose creator may
// read it, each with its delivery job, in one transaction.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { withTenant } from '../db/tenant.ts';
import type { FanoutPayload } from '../events/record.ts';
import { prefixedId } from '../ids.ts';
import { tenantStatement } from './pipeline.ts';

export const DELIVER_TASK = 'webhook_deliver';
export type DeliverPayload = {
  companyId: string;
  deliveryId: string;
  trigger: 'scheduled' | 'manual_resend' | 'recovery';
};

/**
 * The job key of a delivery's scheduled attempts and of its recovery: queuing one replaces a job of the same
 * delivery that has not started, so a retry left over from before the endpoint was disabled cannot revive
 * the old schedule after a recovery. A manual resend has no key: it must leave the retry schedule alone.
 */
export const DELIVERY_JOB_KEY_PREFIX = `${DELIVER_TASK}:`;
export const deliveryJobKey = (deliveryId: string): string => `${DELIVERY_JOB_KEY_PREFIX}${deliveryId}`;

/** Delivery ids made up front for the one-statement fan-out; a company has at most 10 endpoints. */
const IDS_UP_FRONT = 10;

export async function fanout(db: Db, payload: FanoutPayload): Promise<number> {
  const { companyId, eventId } = payload;
  const ids = Array.from({ length: IDS_UP_FRONT }, () => prefixedId('wd'));
  // The same as fanoutInSteps, in one statement (one pipelined transaction) for up to IDS_UP_FRONT endpoints.
  const [row] = await tenantStatement<{ targets: number; queued: number }>(
    db,
    companyId,
    (sql) => sql`
      with targets as (
        select e.id as endpoint_id, ev.type as event_type, e.status = 'active' as active,
          (row_number() over ())::int as n
        from webhook_endpoints e
        join events ev on ev.company_id = e.company_id and ev.id = ${eventId}
        where e.company_id = ${companyId}
          and e.created_at <= ev.created_at
          and (ev.type = any(e.events) or '*' = any(e.events))
          and ev.scope = any(e.scopes)
      ), inserted as (
        insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, next_attempt_at)
        select ${companyId}::uuid, (${ids}::text[])[t.n], t.endpoint_id, ${eventId}::text, t.event_type,
          case when t.active then 'pending' else 'failed' end, case when t.active then now() end
        from targets t
        where t.n <= ${IDS_UP_FRONT}::int
        on conflict (company_id, event_id, endpoint_id) do nothing
        returning id, status
      ), queued as (
        select app_queue_job(${DELIVER_TASK}::text,
          json_build_object('companyId', ${companyId}::text, 'deliveryId', id, 'trigger', 'scheduled'),
          null, ${DELIVERY_JOB_KEY_PREFIX}::text || id)
        from inserted where status = 'pending'
      )
      select (select count(*)::int from targets) as targets, (select count(*)::int from queued) as queued`,
  );
  const queued = row?.queued ?? 0;
  // More endpoints than ids: the rest step by step (deliveries already made are kept: on conflict do nothing).
  if ((row?.targets ?? 0) > IDS_UP_FRONT) return queued + (await fanoutInSteps(db, payload));
  return queued;
}

async function fanoutInSteps(db: Db, { companyId, eventId }: FanoutPayload): Promise<number> {
  return withTenant(db, companyId, async (tx) => {
    // A disabled endpoint gets its message logged as failed, without an attempt, so Recover can send it later.
    const targets = await tx.execute<{ endpoint_id: string; event_type: string; active: boolean }>(sql`
      select e.id as endpoint_id, ev.type as event_type, e.status = 'active' as active
      from webhook_endpoints e
      join events ev on ev.company_id = e.company_id and ev.id = ${eventId}
      where e.company_id = ${companyId}
        -- An endpoint created after the event (while its fan-out job waited) did not subscribe to it.
        and e.created_at <= ev.created_at
        and (ev.type = any(e.events) or '*' = any(e.events))
        and ev.scope = any(e.scopes)`);
    if (targets.length === 0) return 0;
    const values = targets.map(
      (t) =>
        sql`(${companyId}::uuid, ${prefixedId('wd')}, ${t.endpoint_id}, ${eventId}, ${t.event_type}, ${t.active ? 'pending' : 'failed'}, ${t.active ? sql`now()` : null}::timestamptz)`,
    );
    const queued = await tx.execute(sql`
      with inserted as (
        insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, next_attempt_at)
        values ${sql.join(values, sql`, `)}
        on conflict (company_id, event_id, endpoint_id) do nothing
        returning id, status
      )
      select app_queue_job(${DELIVER_TASK},
        json_build_object('companyId', ${companyId}::text, 'deliveryId', id, 'trigger', 'scheduled'),
        null, ${DELIVERY_JOB_KEY_PREFIX} || id)
      from inserted where status = 'pending'`);
    return queued.length;
  });
}
