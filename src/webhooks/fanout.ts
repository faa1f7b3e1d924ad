// Fan-out: one delivery per active endpoint that subscribed to the event's type and whose creator may read
// it (logged as failed for a disabled endpoint, so Recover can send it later). The worker's fan-out sends
// the first attempts itself and writes each delivery once, with its outcome.
//
// A delivery job per first attempt cost a job, a read of the delivery and an update after the send (see
// scripts/bench/README.md, "Fourth round"). The fan-outs of a company that run together (coalescer.ts) read their targets with
// everything sending needs in one statement, send, and one statement writes the deliveries: sent ones with
// their attempt, the others pending with a job. Nothing is lost: the fan-out job completes only after that
// write, so a crash before it runs the fan-out again (a receiver may then get a message twice, with the same
// webhook-id: at least once, as the contract says).
//
// A slow endpoint must not hold back the others: the fan-out waits at most INLINE_WAIT_MS for its sends. A
// send still waiting for its turn then (SENDS_PER_ENDPOINT) is not made: its delivery gets a delivery job,
// as do those of an endpoint that is failing or was slow (a send in flight for SLOW_SEND_MS or more handed over
// in the last SLOW_ENDPOINT_MS),
// in jobs of DELIVERIES_PER_JOB per endpoint (the delivery task's admission keeps a slow endpoint's jobs from
// filling the worker). A send in flight then is handed over: its delivery is written pending with a safety
// job (a delivery job SAFETY_DELAY_MS later, in case this process ends before the answer), and the answer is
// recorded when it comes, like a delivery job's (a failure's retry takes over the safety job's key).
import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { TaskPayload } from '../db/job-queue.ts';
import { tenantStatement } from '../db/tenant-statement.ts';
import { prefixedId } from '../ids.ts';
import type { DeliverOptions, DeliverOutcome } from './delivery-attempts.ts';
import { DELIVER_TASK, deliveryJobKey } from './delivery-job-key.ts';
import { type EndpointColumns, sendingEndpoint } from './delivery-reads.ts';
import type { DeliveryState } from './delivery-state.ts';
import type { EventColumns } from './event-bodies.ts';
import type { PostResult } from './http-post.ts';
import { endpointHealth, type Recording } from './record-attempts.ts';
import { DELIVERY_TIMEOUT_MS } from './schedule.ts';

export const INLINE_WAIT_MS = 1_000;
/**
 * A send in flight when the wait is over marks its endpoint slow only if it has been in flight this long: one
 * started just before the end says nothing about the endpoint. (Marked by every send in flight, a burst on a
 * loaded machine, whose last sends of a batch were always in flight then, sent everything through delivery jobs
 * for a minute: 300–550 instead of 2 300 deliveries/s, scripts/bench/README.md.)
 */
export const SLOW_SEND_MS = INLINE_WAIT_MS / 2;
/** After the longest request, with room to record its answer. */
export const SAFETY_DELAY_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** The most first attempts one delivery job carries: bounds a job's run time and the size of its statements. */
export const DELIVERIES_PER_JOB = 100;

/** An (event, endpoint) pair. The event's created_at and data come with its first pair only (see readTargets). */
type Target = Omit<EventColumns, 'event_created_at' | 'event_data'> &
  EndpointColumns & {
    endpoint_id: string;
    active: boolean;
    failing: boolean;
    event_created_at: EventColumns['event_created_at'] | null;
    event_data: string | null;
  };

type Send = {
  target: Target;
  deliveryId: string;
  started: boolean;
  /** performance.now() when it started: the wait is measured in real time, whatever the injected clock says. */
  startedAt: number;
  cancelled: boolean;
  settled?: { result: PostResult; at: Date } | { error: unknown };
  promise: Promise<PostResult | null>;
};

/** How a delivery is written: its state, and the job that (also) covers it. */
type Written = 'succeeded' | 'failed' | 'queued' | 'attempted' | 'in_flight';

/**
 * What became of a delivery the fan-out made: sent (succeeded, or failed and now 'retrying' or 'failed' as
 * a delivery job answers), 'in_flight' (handed over) or 'queued' for a delivery job.
 */
export type FanoutOutcome = DeliverOutcome | 'in_flight' | 'queued';

/** Fans out one event; answers one outcome per delivery made for sending. See fanoutEvents. */
export async function fanout(
  state: DeliveryState,
  payload: TaskPayload<'webhook_fanout'>,
  send?: DeliverOptions,
): Promise<FanoutOutcome[]> {
  const [outcomes] = await fanoutBatch(state, payload.companyId, [payload.eventId], send);
  return outcomes ?? [];
}

/**
 * Fans out several events of one company; answers per event the number of deliveries made for sending
 * (sent, in flight or queued). With `send` (the worker) it sends the first attempts itself; without, every
 * first attempt gets a delivery job. `sendsDone` is called once the sends are over, before the write. Safe to
 * run again for the same event (a job retried after a crash): a target that has its delivery already is left
 * alone.
 */
export async function fanoutEvents(
  state: DeliveryState,
  companyId: string,
  eventIds: string[],
  send?: DeliverOptions,
  sendsDone?: () => void,
): Promise<number[]> {
  return (await fanoutBatch(state, companyId, eventIds, send, sendsDone)).map((outcomes) => outcomes.length);
}

async function fanoutBatch(
  state: DeliveryState,
  companyId: string,
  eventIds: string[],
  send?: DeliverOptions,
  sendsDone?: () => void,
): Promise<FanoutOutcome[][]> {
  const { db } = state;
  const now = send?.now ?? (() => new Date());
  const targets = await readTargets(db, companyId, eventIds);
  if (targets.length === 0) return eventIds.map(() => []);

  const sends: Send[] = [];
  // One body per event, made when its first send starts and encoded once for all of its endpoints. (Made in
  // the send: an event that cannot be serialized fails its sends, which delivery jobs then retry, not the batch.)
  const events = new Map<string, EventColumns>();
  for (const { event_id, event_type, event_created_at, event_data } of targets) {
    if (event_created_at !== null && event_data !== null) {
      events.set(event_id, { event_id, event_type, event_created_at, event_data });
    }
  }
  const bodies = new Map<string, Buffer>();
  const bodyOf = (eventId: string) => {
    let body = bodies.get(eventId);
    if (body === undefined) {
      const event = events.get(eventId);
      if (!event) throw new Error(`event ${eventId} was read without its data`);
      body = Buffer.from(state.bodies.body(companyId, event));
      bodies.set(eventId, body);
    }
    return body;
  };
  const plan = targets.map((target) => {
    const deliveryId = prefixedId('wd');
    if (!target.active) return { target, deliveryId, written: 'failed' as Written };
    if (!send || target.failing || state.handedOver.isSlow(target.endpoint_id, now())) {
      return { target, deliveryId, written: 'queued' as Written };
    }
    const started = startSend(state, target, deliveryId, bodyOf, now, send);
    sends.push(started);
    return { target, deliveryId, written: 'queued' as Written, send: started };
  });
  await settledOrTimeUp(sends, send?.inlineWaitOver);

  const rows = plan.map((p) => {
    const written = p.send ? writtenAs(state, p.send, now()) : p.written;
    const settled = p.send?.settled && 'result' in p.send.settled ? p.send.settled : undefined;
    return { ...p, written, settled };
  });
  // Every send of this batch is answered, cancelled or handed over (and a slow endpoint marked): the next
  // batch may send while this one writes.
  sendsDone?.();
  // Their successes are unwritten until this write (see AttemptRecorder.writing): one set per endpoint, not per message.
  const succeeded = [...new Set(rows.filter((r) => r.written === 'succeeded').map((r) => r.target.endpoint_id))];
  const made = await state.attempts.writing(succeeded, () => writeDeliveries(db, companyId, rows));

  // Recorded after the write, which made their deliveries, in the company's batches of attempts: failures now
  // (the retry replaces the safety job), answers still to come when they come.
  // Known at once for all but the failures (awaited below): no promise per delivery.
  const outcomes = new Map<string, FanoutOutcome>();
  const failures: Promise<void>[] = [];
  for (const row of rows) {
    if (!made.has(row.deliveryId) || row.written === 'failed') continue;
    outcomes.set(row.deliveryId, row.written === 'succeeded' ? 'succeeded' : 'queued');
    if (row.written === 'attempted' && row.settled) {
      const { deliveryId } = row;
      failures.push(
        state.attempts.record(recording(companyId, row, row.settled.result, row.settled.at)).then((outcome) => {
          outcomes.set(deliveryId, outcome);
        }),
      );
    } else if (row.written === 'in_flight' && row.send) {
      outcomes.set(row.deliveryId, 'in_flight');
      const later = row.send.promise.then(async (result) => {
        if (!result) return;
        const r = recording(companyId, row, result, now());
        await state.attempts.record(r);
      });
      const tracked = later.catch((error: unknown) => {
        // Its safety job sends the message again.
        console.error(`[worker] recording a handed-over first attempt of ${row.deliveryId} failed:`, error);
      });
      state.handedOver.track(tracked);
    }
  }
  await Promise.all(failures);
  const perEvent = new Map<string, FanoutOutcome[]>(eventIds.map((id) => [id, []]));
  for (const row of rows) {
    const outcome = outcomes.get(row.deliveryId);
    if (outcome) perEvent.get(row.target.event_id)?.push(outcome);
  }
  return eventIds.map((id) => perEvent.get(id) ?? []);
}

function recording(companyId: string, row: Row, result: PostResult, at: Date): Recording {
  return {
    companyId,
    deliveryId: row.deliveryId,
    endpointId: row.target.endpoint_id,
    url: row.target.url,
    trigger: 'scheduled',
    result,
    at,
  };
}

function startSend(
  state: DeliveryState,
  target: Target,
  deliveryId: string,
  bodyOf: (eventId: string) => Buffer,
  now: Clock,
  opts: DeliverOptions,
): Send {
  const send: Send = {
    target,
    deliveryId,
    started: false,
    startedAt: 0,
    cancelled: false,
    promise: Promise.resolve(null),
  };
  send.promise = state.turns.send(target.endpoint_id, async () => {
    // Not made: the wait is over (cancelled), or the worker is stopping.
    if (send.cancelled || opts.stop?.aborted) return null;
    send.started = true;
    send.startedAt = performance.now();
    return state.sender.send(
      sendingEndpoint(target),
      { id: target.event_id, body: bodyOf(target.event_id) },
      { now: now(), policy: opts.policy, lookup: opts.lookup, timeoutMs: opts.timeoutMs },
    );
  });
  send.promise.then(
    (result) => {
      if (result) send.settled = { result, at: now() };
    },
    (error: unknown) => {
      send.settled = { error };
    },
  );
  return send;
}

async function settledOrTimeUp(sends: Send[], waitOver?: Promise<unknown>): Promise<void> {
  if (sends.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeUp =
    waitOver ??
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, INLINE_WAIT_MS);
    });
  // allSettled, then one more turn: the `settled` marks are set by handlers attached after the promises'.
  const all = Promise.allSettled(sends.map((s) => s.promise)).then(() => new Promise((r) => setImmediate(r)));
  await Promise.race([all, timeUp]);
  clearTimeout(timer);
}

/** Decided once the wait is over: a send not started then is never made. */
function writtenAs(state: DeliveryState, send: Send, at: Date): Written {
  if (send.settled && 'result' in send.settled) return send.settled.result.error === null ? 'succeeded' : 'attempted';
  // A send that threw (not an answer: a fault of ours) is left to a delivery job, which retries it.
  if (send.settled) return 'queued';
  if (!send.started) {
    send.cancelled = true;
    return 'queued';
  }
  if (performance.now() - send.startedAt >= SLOW_SEND_MS) state.handedOver.markSlow(send.target.endpoint_id, at);
  return 'in_flight';
}

function readTargets(db: Db, companyId: string, eventIds: string[]): Promise<Target[]> {
  return tenantStatement<Target>(
    db,
    companyId,
    (sql) => sql`
      select ev.id as event_id, e.id as endpoint_id, ev.type as event_type, e.status = 'active' as active,
        e.failing_since is not null as failing, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at,
        -- Only the event's first pair carries its data: the same kilobytes once, not once per endpoint (a body
        -- is made once per event). Numbered after the filter below.
        case when row_number() over w = 1 then ev.created_at end as event_created_at,
        case when row_number() over w = 1 then ev.data::text end as event_data
      from events ev
      join webhook_endpoints e on e.company_id = ev.company_id
      where ev.company_id = ${companyId} and ev.id = any(${eventIds}::text[])
        -- An endpoint created after the event (while its fan-out job waited) did not subscribe to it.
        and e.created_at <= ev.created_at
        and (ev.type = any(e.events) or '*' = any(e.events))
        and ev.scope = any(e.scopes)
        -- Made by an earlier run of the fan-out (cut off after its write): done.
        and not exists (select 1 from webhook_deliveries d
          where d.company_id = ev.company_id and d.event_id = ev.id and d.endpoint_id = e.id)
      window w as (partition by ev.id order by e.id)
      order by ev.id, e.id`,
  );
}

type Row = { target: Target; deliveryId: string; written: Written; settled?: { result: PostResult; at: Date } };

/**
 * One statement: the deliveries (an endpoint deleted meanwhile gets none), the attempts of the sent ones and
 * their endpoints' health, the jobs of the rest. Answers the ids of the deliveries made.
 */
async function writeDeliveries(db: Db, companyId: string, rows: Row[]): Promise<Set<string>> {
  const input = rows.map((r) => ({
    id: r.deliveryId,
    endpoint_id: r.target.endpoint_id,
    event_id: r.target.event_id,
    event_type: r.target.event_type,
    written: r.written,
    attempt_id: r.written === 'succeeded' ? prefixedId('wa') : null,
    url: r.target.url,
    status_code: r.settled?.result.statusCode ?? null,
    duration_ms: r.settled?.result.durationMs ?? null,
    response_body: r.settled?.result.responseBody ?? null,
    at: r.settled?.at.toISOString() ?? null,
    job_key: r.written === 'attempted' || r.written === 'in_flight' ? deliveryJobKey(r.deliveryId) : null,
  }));
  const [result] = await tenantStatement<{ made: string[] }>(
    db,
    companyId,
    (sql) => sql`
      with input as (
        select * from json_to_recordset(${JSON.stringify(input)}::json)
          as t(id text, endpoint_id text, event_id text, event_type text, written text, attempt_id text, url text,
            status_code int, duration_ms int, response_body text, at timestamptz, job_key text)
      ), inserted as (
        insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, attempt_count,
          next_attempt_at, last_attempt_at, last_status_code, created_at)
        select ${companyId}::uuid, i.id, i.endpoint_id, i.event_id, i.event_type,
          case i.written when 'succeeded' then 'succeeded' when 'failed' then 'failed' else 'pending' end,
          case when i.written = 'succeeded' then 1 else 0 end,
          case i.written when 'queued' then now() when 'succeeded' then null when 'failed' then null
            else now() + make_interval(secs => ${SAFETY_DELAY_MS / 1000}) end,
          case when i.written = 'succeeded' then i.at end,
          case when i.written = 'succeeded' then i.status_code end,
          -- Not after its first attempt.
          least(app_now(), coalesce(i.at, app_now()))
        from input i
        join webhook_endpoints e on e.company_id = ${companyId} and e.id = i.endpoint_id
        -- A pair another run of this fan-out wrote meanwhile is left out here rather than by ON CONFLICT, which would
        -- wait for a DELETE of the endpoint removing it — while that DELETE waits for this statement's endpoint lock.
        where not exists (select 1 from webhook_deliveries d
          where d.company_id = ${companyId} and d.event_id = i.event_id and d.endpoint_id = i.endpoint_id)
        order by i.id
        -- A DELETE of the endpoint under way either waits for this write (and removes what it made) or has
        -- removed the endpoint, which the join then leaves out: no delivery outlives its endpoint.
        for key share of e
        on conflict (company_id, event_id, endpoint_id) do nothing
        returning id
      ), made as (
        select i.* from input i join inserted using (id)
      ), attempt as (
        insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger,
          url, status, status_code, duration_ms, error, response_body, created_at)
        select ${companyId}::uuid, attempt_id, id, endpoint_id, event_id, 1, 'scheduled', url, 'succeeded',
          status_code, duration_ms, null, response_body, at
        from made where written = 'succeeded'
        returning 1
      ), answers as (
        select endpoint_id, at, null::text as error from made where written = 'succeeded'
      ), ${endpointHealth(sql, companyId)}, queued as (
        select id, endpoint_id,
          (row_number() over (partition by endpoint_id order by id) - 1) / ${DELIVERIES_PER_JOB}::int as chunk
        from made where written = 'queued'
      ), jobs as (
        select json_build_object('companyId', ${companyId}::text, 'endpointId', endpoint_id,
          'deliveryIds', json_agg(id order by id), 'trigger', 'scheduled') as payload,
          null::timestamptz as run_at, null::text as job_key
        from queued group by endpoint_id, chunk
        union all
        -- The safety job of a delivery attempted here (failed: its retry replaces it) or still in flight.
        select json_build_object('companyId', ${companyId}::text, 'endpointId', endpoint_id, 'deliveryId', id,
          'trigger', 'scheduled'),
          now() + make_interval(secs => ${SAFETY_DELAY_MS / 1000}), job_key
        from made where written in ('attempted', 'in_flight')
      ), queued_jobs as (
        select app_queue_jobs(array_agg(${DELIVER_TASK}::text), array_agg(payload), array_agg(run_at),
          array_agg(job_key))
        from jobs
      )
      select coalesce((select array_agg(id) from made), '{}') as made,
        (select count(*) from queued_jobs) + (select count(*) from attempt) + (select count(*) from endpoint) as writes`,
  );
  return new Set(result?.made ?? []);
}
