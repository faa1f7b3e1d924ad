// Attempts are recorded in batches, successes and failures alike: the answers that arrive while one batch of the
// company is being written are written together in the next (coalescer.ts), in one transaction sent in one round
// trip. A failure used to take a transaction of its own that locked the endpoint's row, so the failures to one
// endpoint queued on that lock (about 15 a second, docs/drills.md): now a batch locks each endpoint once.
import type postgres from 'postgres';
import type { Db } from '../db/client.ts';
import type { webhookAttempts } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import { tenantStatements } from '../db/tenant-statement.ts';
import { prefixedId } from '../ids.ts';
import { Coalescer } from './coalescer.ts';
import { DELIVER_TASK, deliveryJobKey } from './delivery-job-key.ts';
import { findEndpoint } from './delivery-rows.ts';
import { disableEndpoint } from './disable-endpoint.ts';
import type { PostResult } from './http-post.ts';
import { DISABLE_AFTER_MS, RETRY_DELAYS_SECONDS } from './schedule.ts';

export type Recording = {
  companyId: string;
  deliveryId: string;
  /** The address the request went to (the endpoint's url when it was read). */
  url: string;
  trigger: Trigger;
  result: PostResult;
  at: Date;
  /** The delivery's endpoint, where known: its success counts as unwritten until written (AttemptRecorder.writing). */
  endpointId?: string;
  /**
   * A scheduled attempt of a delivery job: the delivery's `next_attempt_at` (ms) when the job read it. Changed by
   * the time the answer is recorded, the delivery was reopened meanwhile (see recordAttempts).
   */
  dueAt?: number | null;
};

/** What made an attempt: its schedule, a manual resend, or a recovery (webhook_attempts.trigger). */
export type Trigger = (typeof webhookAttempts.$inferSelect)['trigger'];

/**
 * What became of the delivery: 'retrying' (pending, its next attempt queued or still to come) or 'failed' after a
 * failure; 'gone': the delivery (or its endpoint) was deleted while the request was in flight, nothing recorded.
 */
export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone';

/** Whether a success of the endpoint waits to be written (see AttemptRecorder). */
export type UnwrittenSuccesses = { hasUnwritten(endpointId: string): boolean };

/**
 * A worker's attempts: written in batches per company. Its successes are also counted per endpoint while they
 * wait to be written (their company's batch, or a fan-out's write, which runs beside the batches): a failure
 * recorded meanwhile must not find the endpoint failing for 5 days and disable it, as the success, written a
 * moment later, ends that failing.
 */
export class AttemptRecorder implements UnwrittenSuccesses {
  private readonly writer: Coalescer<Recording, AttemptOutcome>;
  private readonly unwritten = new Map<string, number>();

  constructor(db: Db) {
    this.writer = new Coalescer((companyId, batch) => recordAttempts(db, this, companyId, batch));
  }

  record(recording: Recording): Promise<AttemptOutcome> {
    const write = () => this.writer.add(recording.companyId, recording);
    const { endpointId } = recording;
    return recording.result.error === null && endpointId !== undefined ? this.writing([endpointId], write) : write();
  }

  hasUnwritten(endpointId: string): boolean {
    return this.unwritten.has(endpointId);
  }

  /** Runs `write`, the successes of `endpointIds` counting as unwritten until it has ended. */
  async writing<T>(endpointIds: readonly string[], write: () => Promise<T>): Promise<T> {
    for (const id of endpointIds) this.unwritten.set(id, (this.unwritten.get(id) ?? 0) + 1);
    try {
      return await write();
    } finally {
      for (const id of endpointIds) {
        const left = (this.unwritten.get(id) ?? 1) - 1;
        if (left > 0) this.unwritten.set(id, left);
        else this.unwritten.delete(id);
      }
    }
  }
}

/** An endpoint a batch found to disable: an address now refused, or only failures for 5 days. */
type Disabling = { endpointId: string; at: Date; reason: 'failing_for_5_days' | 'url_not_allowed' };

/**
 * Attempts of one company in one transaction, one round trip: their deliveries locked in id order, then one
 * statement per round (the first answer of each delivery, then the second of those answered twice, …), each
 * seeing what the one before wrote, so attempt numbers follow each other and every rule sees the delivery as
 * the earlier answer left it. Then the endpoints to disable, each in a transaction of its own (rare).
 */
export async function recordAttempts(
  db: Db,
  successes: UnwrittenSuccesses,
  companyId: string,
  batch: Recording[],
): Promise<AttemptOutcome[]> {
  const rounds: { recording: Recording; k: number }[][] = [];
  const seen = new Map<string, number>();
  for (const [k, recording] of batch.entries()) {
    const round = seen.get(recording.deliveryId) ?? 0;
    seen.set(recording.deliveryId, round + 1);
    if (round === rounds.length) rounds.push([]);
    rounds[round]?.push({ recording, k });
  }
  const deliveryIds = [...seen.keys()];
  // Each round locks the endpoints it changes in id order, but a later round may need an endpoint of a lower id
  // than an earlier one: with more than one round, every endpoint of the batch is locked first, in id order.
  const severalRounds = rounds.length > 1;
  const statements = await tenantStatements<RoundRow>(db, companyId, (sql) => [
    // Locked first, in id order (no deadlock between batches), so that each round reads them — and the attempts
    // counted for the retry schedule — as they are once no one else may change them.
    sql`select id from webhook_deliveries where company_id = ${companyId} and id = any(${deliveryIds}::text[])
      order by id for update`,
    ...(severalRounds
      ? [
          sql<RoundRow[]>`select w.id from webhook_endpoints w where w.company_id = ${companyId} and w.id in (
            select d.endpoint_id from webhook_deliveries d where d.company_id = ${companyId}
              and d.id = any(${deliveryIds}::text[]))
            order by w.id for no key update of w`,
        ]
      : []),
    ...rounds.map((round) => roundStatement(sql, companyId, round)),
  ]);
  const answers = statements.slice(severalRounds ? 2 : 1);

  const outcomes: AttemptOutcome[] = batch.map(() => 'gone');
  const disabling = new Map<string, Disabling>();
  for (const [row] of answers) {
    for (const { k, outcome } of row?.outcomes ?? []) outcomes[k] = outcome;
    for (const e of row?.failing ?? []) {
      const at = new Date(e.failed_at);
      const failingFor = e.failing_since === null ? 0 : at.getTime() - new Date(e.failing_since).getTime();
      const reason = e.url_not_allowed
        ? 'url_not_allowed'
        : failingFor >= DISABLE_AFTER_MS
          ? 'failing_for_5_days'
          : null;
      const before = disabling.get(e.id);
      if (reason && before?.reason !== 'url_not_allowed') disabling.set(e.id, { endpointId: e.id, at, reason });
    }
  }
  for (const d of disabling.values()) {
    // Not while a success of the endpoint waits to be written: it answered 2xx, so it has not only failed.
    if (d.reason === 'failing_for_5_days' && successes.hasUnwritten(d.endpointId)) continue;
    // The batch has committed: a disabling that fails must not fail its attempts too (their jobs would run
    // again and send twice). The endpoint's next failure decides again.
    await disableIfStill(db, companyId, d).catch((error: unknown) => {
      console.error(`[worker] disabling webhook endpoint ${d.endpointId} failed; its next failure tries again:`, error);
    });
  }
  return outcomes;
}

type RoundRow = {
  outcomes: { k: number; outcome: Exclude<AttemptOutcome, 'gone'> }[] | null;
  failing: {
    id: string;
    failed_at: string;
    failing_since: string | null;
    url_not_allowed: boolean;
  }[];
};

/**
 * One round: answers of distinct deliveries (locked already). Per answer, `kind` says what it does to its
 * delivery:
 * - 'succeeded' settles it (and ends a retry schedule: the queued retry finds it settled and skips);
 * - 'resend', a manual resend's failure, is one extra try: it changes neither the state nor the schedule;
 * - 'recovery' has no schedule of its own: a delivery that fails again is failed again;
 * - 'late' was answered after another attempt settled the delivery (a resend succeeded: it was received) or after
 *   it was reopened (disabled, re-enabled and recovered while this request was in flight: its one recovery
 *   attempt holds the delivery's job key, and a retry queued here would replace it): logged, state and jobs stay;
 * - 'scheduled' queues the next attempt of the schedule with the delivery's job key, or fails the delivery after
 *   the last one (or once the delivery or its endpoint is no longer due: settled, disabled). The schedule counts
 *   scheduled attempts only: resends and recoveries neither shorten nor shift it.
 * The endpoints' health: endpointHealth.
 */
function roundStatement(sql: postgres.ReservedSql, companyId: string, round: { recording: Recording; k: number }[]) {
  const input = round.map(({ recording: r, k }) => ({
    delivery_id: r.deliveryId,
    attempt_id: prefixedId('wa'),
    url: r.url,
    trigger: r.trigger,
    status_code: r.result.statusCode,
    duration_ms: r.result.durationMs,
    error: r.result.error,
    response_body: r.result.responseBody,
    at: r.at.toISOString(),
    has_due: r.dueAt !== undefined,
    due_at: r.dueAt ?? null,
    job_key: deliveryJobKey(r.deliveryId),
    k,
  }));
  // Read without a lock: the deliveries are locked by this transaction and the endpoints that change are locked
  // by endpointHealth, which answers them as they are once locked (a failure decides on that row).
  return sql<RoundRow[]>`
    with input as (
      select * from json_to_recordset(${JSON.stringify(input)}::json)
        as t(delivery_id text, attempt_id text, url text, trigger text, status_code int, duration_ms int, error text,
          response_body text, at timestamptz, has_due boolean, due_at bigint, job_key text, k int)
    ), d as (
      select w.id, w.endpoint_id, w.event_id, w.status, w.attempt_count, w.next_attempt_at from webhook_deliveries w
      where w.company_id = ${companyId} and w.id in (select delivery_id from input)
    ), answered as (
      select i.*, d.endpoint_id, d.event_id, d.status as delivery_status, d.next_attempt_at,
        d.attempt_count + 1 as n
      from input i join d on d.id = i.delivery_id
      join webhook_endpoints e on e.company_id = ${companyId} and e.id = d.endpoint_id
    ), answers as (
      select endpoint_id, at, error from answered
    ), ${endpointHealth(sql, companyId)}, kinds as (
      select a.*, l.status as endpoint_status,
        case
          when a.error is null then 'succeeded'
          when a.trigger = 'manual_resend' then 'resend'
          when a.trigger = 'recovery' then 'recovery'
          when a.delivery_status = 'succeeded'
            or (a.has_due and floor(extract(epoch from a.next_attempt_at) * 1000)::bigint is distinct from a.due_at)
            then 'late'
          else 'scheduled'
        end as kind
      from answered a left join locked l on l.id = a.endpoint_id
    ), decided as (
      select x.*,
        -- The delay after scheduled attempt n is element n (null after the last one); this one counts too.
        case when x.kind = 'scheduled' and x.delivery_status = 'pending' and x.endpoint_status = 'active' then
          (${[...RETRY_DELAYS_SECONDS]}::int[])[(select count(*) + 1 from webhook_attempts w
            where w.company_id = ${companyId} and w.delivery_id = x.delivery_id and w.trigger = 'scheduled')]
        end as delay
      from kinds x
    ), attempt as (
      insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger,
        url, status, status_code, duration_ms, error, response_body, created_at)
      select ${companyId}::uuid, attempt_id, delivery_id, endpoint_id, event_id, n, trigger, url,
        case when error is null then 'succeeded' else 'failed' end, status_code, duration_ms, error, response_body, at
      from decided
      returning 1
    ), delivery as (
      update webhook_deliveries w
      set attempt_count = x.n, last_attempt_at = x.at, last_status_code = x.status_code,
        status = case
          when x.kind = 'succeeded' then 'succeeded'
          when x.kind = 'recovery' and x.delivery_status = 'pending' then 'failed'
          when x.kind = 'scheduled' then case when x.delay is null then 'failed' else 'pending' end
          else w.status end,
        next_attempt_at = case
          when x.kind = 'succeeded' then null
          when x.kind = 'recovery' and x.delivery_status = 'pending' then null
          when x.kind = 'scheduled' then x.at + make_interval(secs => x.delay)
          else w.next_attempt_at end,
        updated_at = app_now()
      from decided x
      where w.company_id = ${companyId} and w.id = x.delivery_id
      returning 1
    ), retries as (
      select app_queue_jobs(array_agg(${DELIVER_TASK}::text),
        array_agg(json_build_object('companyId', ${companyId}::text, 'deliveryId', delivery_id,
          'trigger', 'scheduled', 'endpointId', endpoint_id)),
        array_agg(at + make_interval(secs => delay)), array_agg(job_key))
      from decided where delay is not null
    )
    select
      (select json_agg(json_build_object('k', k, 'outcome', case
        when kind = 'succeeded' then 'succeeded'
        when kind in ('resend', 'late') and delivery_status = 'pending' then 'retrying'
        when kind = 'scheduled' and delay is not null then 'retrying'
        else 'failed' end)) from decided) as outcomes,
      coalesce((select json_agg(json_build_object('id', id, 'failed_at', failed_at, 'failing_since', failing_since,
        'url_not_allowed', url_not_allowed)) from endpoint where failed_at is not null), '[]') as failing,
      (select count(*) from attempt) + (select count(*) from delivery) + (select count(*) from retries) as writes`;
}

/**
 * CTEs for a statement that recorded answers (a CTE `answers`: endpoint_id, at, error — null for a success):
 * `health` per endpoint, `locked` the endpoints whose row changes, locked in id order (two such statements
 * cannot deadlock; a batch of several rounds has locked all of its endpoints first, see recordAttempts) and read as they are once locked, and `endpoint` their update (returning its new health):
 * - an endpoint with a failure: last_failure_at, and failing since its first failure after its last success
 *   (or since before, when it had no success and was failing already);
 * - an endpoint with successes only changes when it was failing or its last success is more than a second old
 *   (`last_success_at` is exact to the second: a burst of successes writes the endpoint row once a second), so
 *   that successes to one endpoint do not queue behind each other on its row.
 */
export function endpointHealth(sql: postgres.ReservedSql, companyId: string) {
  return sql`last_success as (
        select endpoint_id, max(at) filter (where error is null) as succeeded_at from answers group by endpoint_id
      ), health as (
        select a.endpoint_id, s.succeeded_at,
          max(a.at) filter (where a.error is not null) as failed_at,
          min(a.at) filter (where a.error is not null and (s.succeeded_at is null or a.at > s.succeeded_at))
            as failing_from,
          coalesce(bool_or(a.error = 'url_not_allowed'), false) as url_not_allowed
        from answers a join last_success s using (endpoint_id)
        group by a.endpoint_id, s.succeeded_at
      ), locked as (
        select w.id, w.status from webhook_endpoints w
        join health h on h.endpoint_id = w.id
        where w.company_id = ${companyId}
          and (h.failed_at is not null or w.failing_since is not null or w.last_success_at is null
            or w.last_success_at < h.succeeded_at - interval '1 second')
        order by w.id
        for no key update of w
      ), endpoint as (
        update webhook_endpoints w set
          last_success_at = case
            when h.succeeded_at is not null and (w.failing_since is not null or w.last_success_at is null
              or w.last_success_at < h.succeeded_at - interval '1 second') then h.succeeded_at
            else w.last_success_at end,
          last_failure_at = coalesce(h.failed_at, w.last_failure_at),
          failing_since = case when h.succeeded_at is null then coalesce(w.failing_since, h.failing_from)
            else h.failing_from end
        from locked l join health h on h.endpoint_id = l.id
        where w.company_id = ${companyId} and w.id = l.id
        returning w.id, h.failed_at, w.failing_since, h.url_not_allowed
      )`;
}

/**
 * Disables the endpoint unless that changed since the batch: it is disabled already, deleted, or (5 days of
 * failures) has answered 2xx meanwhile.
 */
function disableIfStill(db: Db, companyId: string, d: Disabling): Promise<void> {
  return withTenant(db, companyId, async (tx) => {
    const endpoint = await findEndpoint(tx, companyId, d.endpointId, true);
    if (!endpoint || endpoint.status !== 'active') return;
    if (d.reason === 'failing_for_5_days') {
      const since = endpoint.failingSince;
      if (since === null || d.at.getTime() - since.getTime() < DISABLE_AFTER_MS) return;
    }
    await disableEndpoint(tx, { companyId, endpoint, at: d.at }, d.reason);
  });
}
