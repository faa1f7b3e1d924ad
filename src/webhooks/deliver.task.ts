// Delivery attempts of delivery jobs (retries, resends, recoveries, safety jobs, and the first attempts
// fanout.ts queued instead of sending them itself; it uses the helpers exported here): read the deliveries,
// their endpoint and their events (one short transaction, one statement, shared by the jobs of the company
// reading at the same time), send with no transaction open, then record each attempt, its delivery's new
// state, the endpoint's health and — on failure — the next attempt. Successes are written in batches
// (record-success.ts); a failure in its own transaction, step by step.
import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { sendEmail } from '../channels/email.ts';
import { notBefore } from '../db/change-time.ts';
import type { Db } from '../db/client.ts';
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema/index.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';
import { Coalescer } from '../jobs/coalescer.ts';
import { serializeEvent } from '../resources/events/serialize.ts';
import type { DeliverPayload, Trigger } from './delivery-jobs.ts';
import { DELIVER_TASK, deliveryJobKey } from './delivery-jobs.ts';
import { ENDPOINT_FRESH_MS, type EndpointNow, endpointNow } from './endpoint-now.ts';
import { tenantStatement } from './pipeline.ts';
import { hasUnwrittenSuccess, type Recording, recordSuccess } from './record-success.ts';
import { DISABLE_AFTER_MS, nextDelaySeconds } from './schedule.ts';
import { type EndpointRow, type SendingEndpoint, sendSigned } from './send.ts';
import type { LookupAll, UrlPolicy } from './url-guard.ts';

/**
 * `now`, `lookup` and `timeoutMs` let tests control the clock, DNS and the 10-second limit. `stop`: once it
 * aborts (the worker is stopping), no further request is started; requests in flight run to their end.
 */
export type DeliverOptions = {
  policy: UrlPolicy;
  now?: () => Date;
  lookup?: LookupAll;
  timeoutMs?: number;
  stop?: AbortSignal;
};
/** 'not_sent': left alone because the worker is stopping (see DeliverOptions.stop); still pending. */
export type DeliverOutcome = 'gone' | 'skipped' | 'succeeded' | 'retrying' | 'failed' | 'not_sent';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** One delivery (a retry, a resend, a recovery, or a test's single step). */
export async function deliver(db: Db, payload: DeliverPayload, opts: DeliverOptions): Promise<DeliverOutcome> {
  const { companyId, deliveryId, trigger } = payload;
  const [outcome] = await deliverBatch(db, { companyId, deliveryIds: [deliveryId], trigger }, opts);
  return outcome ?? 'gone';
}

/**
 * Requests in flight at once to one endpoint, across all jobs of this process: a receiver gets at most this
 * many connections from us (kept alive: below the agents' MAX_FREE_SOCKETS), and a request's 10-second limit
 * starts when it is sent, not while it waits for its turn. First come, first sent.
 */
const SENDS_PER_ENDPOINT = 16;

/** An endpoint's sends in flight, and those waiting for their turn (from `head` on). */
type Turns = { active: number; waiting: (Turn<unknown> | undefined)[]; head: number };
const endpointTurns = new Map<string, Turns>();

// A counter and a queue rather than p-limit, which made five promises per call (~3% of the webhook worker's
// thread in the webhooks bench); this runs for every message. A send whose turn is free starts at once.
export function sendInTurn<T>(endpointId: string, send: () => Promise<T>): Promise<T> {
  let turns = endpointTurns.get(endpointId);
  if (!turns) {
    turns = { active: 0, waiting: [], head: 0 };
    endpointTurns.set(endpointId, turns);
  }
  const endpoint = turns;
  return new Promise<T>((resolve, reject) => {
    const turn = new Turn(endpointId, endpoint, send, resolve, reject);
    if (endpoint.active < SENDS_PER_ENDPOINT) turn.start();
    else endpoint.waiting.push(turn as Turn<unknown>);
  });
}

/** One send and its caller. A class, not closures: made for every message (and tsx names every closure). */
class Turn<T> {
  constructor(
    private readonly endpointId: string,
    private readonly turns: Turns,
    private readonly send: () => Promise<T>,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    this.turns.active++;
    let sending: Promise<T>;
    try {
      sending = this.send();
    } catch (error) {
      sending = Promise.reject(error);
    }
    sending.then(
      (value) => {
        this.ended();
        this.resolve(value);
      },
      (error: unknown) => {
        this.ended();
        this.reject(error);
      },
    );
  }

  private ended(): void {
    const turns = this.turns;
    turns.active--;
    const next = turns.waiting[turns.head];
    if (next) {
      turns.waiting[turns.head++] = undefined;
      if (turns.head === turns.waiting.length) {
        turns.waiting = [];
        turns.head = 0;
      }
      next.start();
    } else if (turns.active === 0) {
      endpointTurns.delete(this.endpointId);
    }
  }
}

/**
 * Several deliveries of one company (first attempts a fan-out queued): read in one statement, sent in the order of
 * the ids (each endpoint in turn, see SENDS_PER_ENDPOINT; a slow endpoint holds back only its own messages),
 * each recorded as soon as its answer is in. Answers one outcome per id, in order.
 */
export async function deliverBatch(
  db: Db,
  payload: { companyId: string; deliveryIds: string[]; trigger: Trigger },
  opts: DeliverOptions,
): Promise<DeliverOutcome[]> {
  const { companyId, deliveryIds, trigger } = payload;
  const readAt = performance.now();
  const byId = await readDeliveries(db, companyId, deliveryIds);
  // An id listed twice is sent once (and answered twice). Every attempt runs to its end before a failure
  // fails the job: a retry of the job must not overlap with sends of this one still in flight.
  const unique = [...new Set(deliveryIds)];
  const settled = await Promise.allSettled(
    unique.map((id) => attempt(db, { companyId, deliveryId: id, trigger }, byId.get(id), readAt, opts)),
  );
  const outcomes = new Map<string, DeliverOutcome>();
  for (const [i, result] of settled.entries()) {
    if (result.status === 'rejected') throw result.reason;
    outcomes.set(unique[i] as string, result.value);
  }
  return deliveryIds.map((id) => outcomes.get(id) ?? 'gone');
}

async function attempt(
  db: Db,
  { companyId, deliveryId, trigger }: DeliverPayload,
  row: ReadRow | undefined,
  readAt: number,
  opts: DeliverOptions,
): Promise<DeliverOutcome> {
  const now = opts.now ?? (() => new Date());
  if (!row) return 'gone';
  // A scheduled retry or a recovery is for a pending delivery only; anything else was settled after the
  // job was queued (a resend succeeded, the endpoint was disabled). A manual resend works in every state.
  if (trigger !== 'manual_resend' && row.status !== 'pending') return 'skipped';
  if (row.endpoint_status === 'disabled') return skipDisabled(db, companyId, deliveryId);
  if (!row.endpoint_scopes.includes(row.event_scope)) return withhold(db, companyId, deliveryId);

  // Widened on purpose: the send below may find the endpoint deleted, disabled or narrowed meanwhile.
  let endpoint = { ...sendingEndpoint(row), scopes: row.endpoint_scopes } as EndpointNow;
  const body = eventBody(companyId, row);
  const result = await sendInTurn(row.endpoint_id, async () => {
    if (opts.stop?.aborted) return null;
    // Read too long ago (it waited for its turn): sent as the endpoint is now (see endpoint-now.ts).
    if (performance.now() - readAt >= ENDPOINT_FRESH_MS) endpoint = await endpointNow(db, companyId, row.endpoint_id);
    if (endpoint === null || endpoint === 'disabled') return null;
    if (!endpoint.scopes.includes(row.event_scope)) return null;
    return sendSigned(
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
  if (result.error === null) return recordSuccess(db, recording);
  return recordFailure(db, recording);
}

/** A failed attempt: recorded step by step with the retry schedule, the endpoint's health and disabling. */
export function recordFailure(db: Db, recording: Recording): Promise<DeliverOutcome> {
  return withTenant(db, recording.companyId, (tx) => record(tx, recording));
}

/** What sending needs, from a row read with the endpoint's columns. */
export function sendingEndpoint(row: EndpointColumns): SendingEndpoint {
  return {
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at),
  };
}

/** The endpoint's columns sending needs. */
export type EndpointColumns = Pick<ReadRow, 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>;
/** The event's columns a message body is made of. */
export type EventColumns = Pick<ReadRow, 'event_id' | 'event_type' | 'event_created_at' | 'event_data'>;

/** Jobs whose reads share one statement at most: bounds the statement (≤ 100 deliveries per job). */
const READS_PER_STATEMENT = 20;
const readers = new WeakMap<Db, Coalescer<string[], Map<string, ReadRow>>>();

/**
 * The deliveries, their endpoints and their events in one statement (one pipelined transaction), shared by
 * the delivery jobs of the company that read at the same time (a fan-out's jobs, one per endpoint, start
 * together). Another company's id, or a deleted delivery, is simply not in the answer.
 */
function readDeliveries(db: Db, companyId: string, deliveryIds: string[]): Promise<Map<string, ReadRow>> {
  let reader = readers.get(db);
  if (!reader) {
    reader = new Coalescer(async (company, lists) => {
      const ids = [...new Set(lists.flat())];
      const rows = await tenantStatement<ReadRow>(
        db,
        company,
        (sql) => sql`
          select d.id, d.endpoint_id, d.status, d.next_attempt_at, d.event_id, e.status as endpoint_status, e.url, e.secret,
            e.previous_secret, e.previous_secret_expires_at, e.scopes as endpoint_scopes, ev.scope as event_scope,
            ev.type as event_type,
            ev.created_at as event_created_at, ev.data::text as event_data
          from webhook_deliveries d
          join webhook_endpoints e on e.company_id = d.company_id and e.id = d.endpoint_id
          join events ev on ev.company_id = d.company_id and ev.id = d.event_id
          where d.company_id = ${company} and d.id = any(${ids}::text[])`,
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return lists.map(() => byId);
    }, READS_PER_STATEMENT);
    readers.set(db, reader);
  }
  return reader.add(companyId, deliveryIds);
}

type ReadRow = {
  id: string;
  endpoint_id: string;
  status: DeliveryRow['status'];
  next_attempt_at: Date | string | null;
  event_id: string;
  /** The read scope the event needs; the endpoint receives it only while its scopes hold it (see withhold). */
  event_scope: string;
  endpoint_scopes: string[];
  endpoint_status: EndpointRow['status'];
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  event_type: string;
  event_created_at: Date | string;
  event_data: string;
};

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

// The message body of recent events: the deliveries of one event to several endpoints (and its retries) send
// the same bytes, so the row is validated and serialized once. An entry is used only while the stored row is
// unchanged (type, created_at and the jsonb text all equal); otherwise it is serialized again.
const BODY_CACHE_MAX = 2048;
type CachedBody = { type: string; createdAt: number; data: string; body: string };
const bodies = new Map<string, CachedBody>();

export function eventBody(companyId: string, row: EventColumns): string {
  const key = `${companyId}/${row.event_id}`;
  const createdAt = new Date(row.event_created_at);
  const cached = bodies.get(key);
  if (
    cached &&
    cached.type === row.event_type &&
    cached.createdAt === createdAt.getTime() &&
    cached.data === row.event_data
  ) {
    return cached.body;
  }
  const body = JSON.stringify(
    serializeEvent({
      companyId,
      id: row.event_id,
      type: row.event_type,
      // Unused by serializeEvent; part of the row type only.
      scope: '',
      customerId: null,
      data: JSON.parse(row.event_data),
      createdAt,
    }),
  );
  bodies.delete(key);
  bodies.set(key, { type: row.event_type, createdAt: createdAt.getTime(), data: row.event_data, body });
  if (bodies.size > BODY_CACHE_MAX) bodies.delete(bodies.keys().next().value as string);
  return body;
}

async function findDelivery(tx: Tx, companyId: string, id: string, lock = false): Promise<DeliveryRow | undefined> {
  const query = tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

async function findEndpoint(tx: Tx, companyId: string, id: string, lock = false): Promise<EndpointRow | undefined> {
  const query = tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

async function record(tx: Tx, r: Recording): Promise<DeliverOutcome> {
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
      const payload: DeliverPayload = {
        companyId: r.companyId,
        deliveryId: delivery.id,
        trigger: 'scheduled',
        endpointId: endpoint.id,
      };
      await tx.execute(
        sql`select app_queue_job(${DELIVER_TASK}, ${JSON.stringify(payload)}::json, ${runAt.toISOString()}::timestamptz, ${deliveryJobKey(delivery.id)})`,
      );
      outcome = 'retrying';
    }
  }

  const disabling = { companyId: r.companyId, endpoint, at: r.at };
  if (r.result.error === 'url_not_allowed') await disable(tx, disabling, 'url_not_allowed');
  // Not while a success of the endpoint waits to be written: it answered 2xx, so it has not only failed.
  else if (r.at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS && !hasUnwrittenSuccess(endpoint.id)) {
    await disable(tx, disabling, 'failing_for_5_days');
  }
  return outcome;
}

/** Whether a scheduled attempt's delivery was given a new due time after the job read it (see Recording.dueAt). */
function reopened(delivery: DeliveryRow, r: Recording): boolean {
  return r.dueAt !== undefined && timeOf(delivery.nextAttemptAt) !== r.dueAt;
}

/** A timestamp as milliseconds, whichever way it was read (the raw statements' Dates, drizzle's strings). */
const timeOf = (at: Date | string | null): number | null => (at === null ? null : new Date(at).getTime());

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

async function markDelivery(
  tx: Tx,
  id: string,
  companyId: string,
  values: Partial<typeof webhookDeliveries.$inferInsert>,
) {
  await tx
    .update(webhookDeliveries)
    .set({ ...values, updatedAt: sql`app_now()` })
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, id)));
}

/** Disables the endpoint, fails its pending deliveries and tells the company's administrators. */
async function disable(
  tx: Tx,
  r: { companyId: string; endpoint: EndpointRow; at: Date },
  reason: 'failing_for_5_days' | 'url_not_allowed',
) {
  const [changed] = await tx
    .update(webhookEndpoints)
    .set({
      status: 'disabled',
      disabledReason: reason,
      disabledAt: r.at,
      // The worker's transaction may have waited for the endpoint behind an API change with a later time.
      updatedAt: notBefore(webhookEndpoints.updatedAt),
      version: sql`${webhookEndpoints.version} + 1`,
    })
    .where(
      and(
        eq(webhookEndpoints.companyId, r.companyId),
        eq(webhookEndpoints.id, r.endpoint.id),
        eq(webhookEndpoints.status, 'active'),
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (!changed) return;
  // Only the pending deliveries nobody holds: this transaction holds the endpoint, and concurrent attempts of
  // the same endpoint hold their delivery and wait for the endpoint (deliveries before endpoint), so waiting
  // for theirs here would deadlock. They settle their own delivery as failed once they see it disabled.
  await tx.execute(sql`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, updated_at = app_now()
    where company_id = ${r.companyId} and id in (
      select id from webhook_deliveries
      where company_id = ${r.companyId} and endpoint_id = ${r.endpoint.id} and status = 'pending'
      for update skip locked)`);
  const admins = await tx
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        eq(users.companyId, r.companyId),
        eq(users.status, 'active'),
        or(eq(users.isOwner, true), eq(users.role, 'administrator')),
      ),
    );
  const why =
    reason === 'url_not_allowed'
      ? 'its address now resolves to an internal network address'
      : 'every delivery to it failed for 5 days';
  await sendEmail(tx, r.companyId, {
    to: admins.map((a) => a.email),
    kind: 'webhook_endpoint_disabled',
    subject: `Webhook endpoint ${r.endpoint.url} was disabled`,
    body: `The webhook endpoint ${r.endpoint.id} (${r.endpoint.url}) was disabled because ${why}. Fix the receiver, then re-enable the endpoint and recover the failed messages.`,
  });
}
