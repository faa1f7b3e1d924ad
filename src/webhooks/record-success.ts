// Successful attempts are recorded in batches: the successes that arrive while one batch of the company is
// being written are written together in the next (coalescer.ts), one statement each. Failures are
// rare and take the step-by-step path in record-failure.ts (retry schedule, endpoint health, disabling).
import type postgres from 'postgres';
import type { Db } from '../db/client.ts';
import { tenantStatement } from '../db/tenant-statement.ts';
import { prefixedId } from '../ids.ts';
import { Coalescer } from './coalescer.ts';
import type { Trigger } from './delivery-attempts.ts';
import type { PostResult } from './http-post.ts';

export type Recording = {
  companyId: string;
  deliveryId: string;
  /** The address the request went to (the endpoint's url when it was read). */
  url: string;
  trigger: Trigger;
  result: PostResult;
  at: Date;
  /** The delivery's endpoint, where known: its success counts as unwritten until written (SuccessRecorder.writing). */
  endpointId?: string;
  /**
   * A scheduled attempt of a delivery job: the delivery's `next_attempt_at` (ms) when the job read it. Changed by
   * the time the answer is recorded, the delivery was reopened meanwhile (see record-failure.ts).
   */
  dueAt?: number | null;
};

/** 'gone': the delivery (or its endpoint) was deleted while the request was in flight; nothing is recorded. */
export type SuccessOutcome = 'succeeded' | 'gone';

/**
 * A worker's successes: written in batches per company, and counted per endpoint while they wait to be written
 * (their company's batch, or a fan-out's write). A failure recorded meanwhile must not find the endpoint failing
 * for 5 days and disable it: the success, written a moment later, ends that failing (see record-failure.ts).
 */
export class SuccessRecorder {
  private readonly writer: Coalescer<Recording, SuccessOutcome>;
  private readonly unwritten = new Map<string, number>();

  constructor(db: Db) {
    this.writer = new Coalescer((companyId, batch) => recordSuccesses(db, companyId, batch));
  }

  record(recording: Recording): Promise<SuccessOutcome> {
    const write = () => this.writer.add(recording.companyId, recording);
    return recording.endpointId === undefined ? write() : this.writing([recording.endpointId], write);
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

/**
 * Successful attempts of one company in one statement: their deliveries read again and locked in id order
 * (the endpoint may have been deleted while the request was in flight, and another attempt of the same
 * delivery — a resend — must not take the same number), the attempts, the deliveries' new state and the
 * endpoints' health (endpointHealth).
 */
export async function recordSuccesses(db: Db, companyId: string, batch: Recording[]): Promise<SuccessOutcome[]> {
  const deliveryIds = batch.map((r) => r.deliveryId);
  // The batch as one JSON parameter (postgres.js sends arrays with nulls in them unreliably).
  const input = batch.map((r, k) => ({
    delivery_id: r.deliveryId,
    attempt_id: prefixedId('wa'),
    url: r.url,
    trigger: r.trigger,
    status_code: r.result.statusCode,
    duration_ms: r.result.durationMs,
    response_body: r.result.responseBody,
    at: r.at.toISOString(),
    k,
  }));
  const rows = await tenantStatement<{ recorded: string[] }>(
    db,
    companyId,
    (sql) => sql`
      with input as (
        select * from json_to_recordset(${JSON.stringify(input)}::json)
          as t(delivery_id text, attempt_id text, url text, trigger text, status_code int, duration_ms int,
            response_body text, at timestamptz, k int)
      ), d as (
        select w.id, w.endpoint_id, w.event_id, w.attempt_count from webhook_deliveries w
        where w.company_id = ${companyId} and w.id = any(${deliveryIds}::text[])
        order by w.id
        for update
      ), e as (
        select e.id from webhook_endpoints e where e.company_id = ${companyId} and e.id in (select endpoint_id from d)
      ), numbered as (
        select i.*, d.endpoint_id, d.event_id,
          d.attempt_count + row_number() over (partition by i.delivery_id order by i.k) as n
        from input i join d on d.id = i.delivery_id join e on e.id = d.endpoint_id
      ), attempt as (
        insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger,
          url, status, status_code, duration_ms, error, response_body, created_at)
        select ${companyId}::uuid, attempt_id, delivery_id, endpoint_id, event_id, n, trigger, url, 'succeeded',
          status_code, duration_ms, null, response_body, at
        from numbered
        returning 1
      ), delivery as (
        update webhook_deliveries w
        set attempt_count = x.n, last_attempt_at = x.at, last_status_code = x.status_code, status = 'succeeded',
          next_attempt_at = null, updated_at = app_now()
        from (select distinct on (delivery_id) delivery_id, n, at, status_code from numbered
              order by delivery_id, n desc) x
        where w.company_id = ${companyId} and w.id = x.delivery_id
        returning 1
      ), successes as (
        select endpoint_id, at from numbered
      ), ${endpointHealth(sql, companyId)}
      select coalesce(array_agg(distinct delivery_id), '{}') as recorded,
        (select count(*) from attempt) + (select count(*) from delivery) + (select count(*) from endpoint) as writes
      from numbered`,
  );
  const recorded = new Set(rows[0]?.recorded ?? []);
  return batch.map((r) => (recorded.has(r.deliveryId) ? 'succeeded' : 'gone'));
}

/**
 * Two CTEs for a statement that recorded successes (a CTE `successes`: endpoint_id, at): `endpoint` marks
 * each endpoint healthy — only one that was failing or whose last success is more than a second old
 * (`last_success_at` is exact to the second: a burst of successes writes the endpoint row once a second).
 * Endpoints are locked in id order, so two such statements cannot deadlock.
 */
export function endpointHealth(sql: postgres.ReservedSql, companyId: string) {
  return sql`healthy as (
        select w.id, x.at from webhook_endpoints w
        join (select endpoint_id, max(at) as at from successes group by endpoint_id) x on x.endpoint_id = w.id
        where w.company_id = ${companyId}
          and (w.failing_since is not null or w.last_success_at is null
            or w.last_success_at < x.at - interval '1 second')
        order by w.id
        for no key update of w
      ), endpoint as (
        update webhook_endpoints w set last_success_at = h.at, failing_since = null
        from healthy h
        where w.company_id = ${companyId} and w.id = h.id
        returning 1
      )`;
}
