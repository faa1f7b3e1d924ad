// The outbox: an event row written in the caller's transaction, together with its webhook fan-out job when
// the company has a webhook endpoint (a disabled one too: its deliveries are logged as failed, so that
// Recover failed deliveries can send them after re-enabling). A committed change always has its event and
// its job; a rolled-back change has neither.
import { type SQL, sql } from 'drizzle-orm';
import type { TaskPayload } from '../db/job-queue.ts';
import { type PreparedStatement, prepared, type Slots } from '../db/statements.ts';
import { sendUntilCommit, type Tx } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';

import type { EventType } from './catalogue.ts';

/** Deliveries (priority 0) run before fan-outs, so a burst of events does not hold back earlier messages. */
export const FANOUT_PRIORITY = 1;

/** An event to record: its type, the scope that reads it, the customer it concerns, and the object it carries. */
export type EventRecord = { type: EventType; scope: string; customerId: string | null; object: unknown };

/**
 * More writes of the caller sent with an event in its one statement (one round trip): `statement` built once by
 * eventAlongside, `values` its own values (the event's are added by recordEvent).
 */
export type Alongside<A extends Record<string, unknown>> = {
  statement: PreparedStatement<EventValues & A>;
  values: A;
};

/**
 * Records the event in one statement, sent with the transaction's COMMIT (sendUntilCommit): the event row, and its
 * fan-out job if any endpoint exists (or is being created: see migration 0019, app_has_webhook_endpoint).
 * `alongside` are more writes of the caller as CTEs of the same statement (an idempotent creation's stored answer:
 * src/http/idempotency.ts).
 */
export async function recordEvent<A extends Record<string, unknown>>(
  tx: Tx,
  companyId: string,
  event: EventRecord,
  alongside?: Alongside<A>,
): Promise<string> {
  const id = prefixedId('evt');
  const job: TaskPayload<'webhook_fanout'> = { companyId, eventId: id };
  const values: EventValues = {
    companyId,
    id,
    type: event.type,
    scope: event.scope,
    customerId: event.customerId,
    data: JSON.stringify({ object: event.object }),
    job: JSON.stringify(job),
  };
  await sendUntilCommit(
    tx,
    alongside ? alongside.statement.run(tx, { ...values, ...alongside.values }) : EVENT.run(tx, values),
  );
  return id;
}

export type EventValues = {
  companyId: string;
  id: string;
  type: EventType;
  scope: string;
  customerId: string | null;
  /** `{"object": …}` as JSON text. */
  data: string;
  /** The fan-out job's payload as JSON text. */
  job: string;
};

/** recordEvent's statement, for its values or for their placeholders (EVENT). */
const eventStatement = (v: { [K in keyof EventValues]: unknown }, alongside?: SQL) => sql`
  with inserted as (
    insert into events (company_id, id, type, scope, customer_id, data)
    values (${v.companyId}, ${v.id}, ${v.type}, ${v.scope}, ${v.customerId}, ${v.data}::jsonb)
    returning id
  )${alongside ? sql`, ${alongside}` : sql``}
  select app_queue_job('webhook_fanout'::text, ${v.job}::json, null::timestamptz, null::text, ${FANOUT_PRIORITY}::int)
  from inserted
  where app_has_webhook_endpoint(${v.companyId})`;

/**
 * The event's statement with more writes as CTEs (`name as (insert …)`), built once: `build` writes them over the
 * placeholders of their own values (and of the event's, such as `companyId`).
 */
export const eventAlongside = <A extends Record<string, unknown>>(build: (p: Slots<EventValues & A>) => SQL) =>
  prepared<EventValues & A>((p) => eventStatement(p, build(p)));

/** The statement of an event without further writes (the one every change sends), built once. */
const EVENT = prepared<EventValues>((p) => eventStatement(p));

/**
 * Records many events of one change set (a batch) in one statement: their rows, in the order given (their ids
 * count up, so they list in that order), and their fan-out jobs through one app_queue_jobs call when an endpoint
 * exists. Returns the event ids in that order. add_jobs does not keep the order of its array in the job ids, so
 * each job runs a microsecond after the one before (the worker takes jobs by priority, then run_at): the fan-outs
 * start in the order of the events.
 */
export async function recordEvents(tx: Tx, companyId: string, events: readonly EventRecord[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event, ord) => {
    const id = prefixedId('evt');
    const job: TaskPayload<'webhook_fanout'> = { companyId, eventId: id };
    return {
      id,
      ord,
      type: event.type,
      scope: event.scope,
      customer_id: event.customerId,
      data: { object: event.object },
      job,
    };
  });
  await sendUntilCommit(
    tx,
    tx.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as e(id text, ord int, type text, scope text, customer_id uuid, data jsonb, job json)
    ), inserted as (
      insert into events (company_id, id, type, scope, customer_id, data)
      select ${companyId}, id, type, scope, customer_id, data from input
      returning id
    )
    select app_queue_jobs(array_agg('webhook_fanout'::text), array_agg(i.job),
                          array_agg(now() + make_interval(secs => i.ord / 1000000.0)), null,
                          array_agg(${FANOUT_PRIORITY}::int))
    from inserted join input i using (id)
    where app_has_webhook_endpoint(${companyId})`),
  );
  return rows.map((row) => row.id);
}
