// Admission per endpoint (src/webhooks/endpoint-admission.ts, jobs/webhook-deliver.ts): a hanging endpoint holds at most JOBS_PER_ENDPOINT
// jobs of a worker process; its further jobs wait ADMISSION_WAIT_MS for a turn and are then postponed (queued
// again, not attempted) instead of waiting in its queue, so other endpoints' jobs keep going; a fast
// endpoint's extra jobs get their turn. Real database, real receivers on 127.0.0.1.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELIVER_TASK, deliveryJobKey } from '../../src/webhooks/delivery-job-key.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { ADMISSION_WAIT_MS, JOBS_PER_ENDPOINT } from '../../src/webhooks/endpoint-admission.ts';
import { fanoutEvents } from '../../src/webhooks/fanout.ts';
import { deliverJob } from '../../src/webhooks/jobs/webhook-deliver.ts';
import {
  deliveriesOf,
  hangingReceiver,
  holdingReceiver,
  insertEndpoint,
  LOCAL_SENDING,
  queuedJobs,
  receiver,
  recordCustomerEvents,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

// The worker's delivery state, fresh for each test.
let state: DeliveryState;
beforeEach(() => {
  state = new DeliveryState(api.db, api.config.publicUrl);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const nextAttemptOf = async (endpointId: string, deliveryId: string) => {
  const delivery = (await deliveriesOf(api, endpointId)).find((d) => d.id === deliveryId);
  return delivery?.next_attempt_at ? Date.parse(String(delivery.next_attempt_at)) : null;
};

/** `n` events fanned out one by one: one first-attempt job per event and endpoint. */
async function jobsPerEvent(companyId: string, n: number) {
  for (const eventId of await recordCustomerEvents(api, companyId, n, 'admission@example.nl')) {
    await fanoutEvents(state, companyId, [eventId]);
  }
  return (await queuedJobs(api)).filter((j) => j.task === DELIVER_TASK && j.payload.companyId === companyId);
}

const payloadOf = (job: { payload: Record<string, unknown> }) =>
  job.payload as { companyId: string; endpointId: string; deliveryIds: string[]; trigger: 'scheduled' };

describe('deliverJob', () => {
  it(`a hanging endpoint holds ${JOBS_PER_ENDPOINT} jobs; its next ones are postponed; other endpoints go on`, async () => {
    expect(JOBS_PER_ENDPOINT).toBe(4);
    const { companyId } = await api.tenant();
    const hanging = await hangingReceiver();
    const fast = await receiver();
    const slow = await insertEndpoint(api, companyId, { url: hanging.url });
    const quick = await insertEndpoint(api, companyId, { url: fast.url });
    const jobs = await jobsPerEvent(companyId, 6);
    const slowJobs = jobs.filter((j) => j.payload.endpointId === slow.id);
    const quickJobs = jobs.filter((j) => j.payload.endpointId === quick.id);
    expect(slowJobs).toHaveLength(6);
    expect(quickJobs).toHaveLength(6);
    // The jobs as the worker holds them: locked (taken off the queue).
    await api.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test'
      where id in ${api.sql(jobs.map((j) => j.id))}`;

    const started = Date.now();
    const slowRuns = slowJobs.map((j) => deliverJob(state, payloadOf(j), j.id, LOCAL_SENDING));
    // The two beyond the limit come back at once, postponed; the first four wait for the endpoint.
    const settledEarly = await Promise.all(slowRuns.slice(JOBS_PER_ENDPOINT));
    const settledAt = Date.now();
    expect(settledEarly).toEqual(['postponed', 'postponed']);
    // They waited ADMISSION_WAIT_MS for a turn first.
    expect(settledAt - started).toBeGreaterThanOrEqual(ADMISSION_WAIT_MS - 50);
    // The other endpoint's jobs are not held back by the hanging one.
    const quickOutcomes = [];
    for (const j of quickJobs) quickOutcomes.push(await deliverJob(state, payloadOf(j), j.id, LOCAL_SENDING));
    expect(quickOutcomes).toEqual(quickJobs.map(() => ['succeeded']));
    expect(fast.requests).toHaveLength(6);

    // Postponed = queued again, 5 s later, marked once; not an attempt.
    const queued = (await queuedJobs(api)).filter((j) => j.task === DELIVER_TASK && j.payload.companyId === companyId);
    expect(queued).toHaveLength(2);
    const beyond = slowJobs.slice(JOBS_PER_ENDPOINT);
    for (const job of queued) {
      // The same payload as the job it postpones (in either order: both wait the same second), marked once.
      const original = beyond.find((j) => payloadOf(j).deliveryIds[0] === payloadOf(job).deliveryIds[0]);
      if (!original) throw new Error('a postponed job that was not beyond the limit');
      expect(job.payload).toEqual({ ...payloadOf(original), postponed: 1 });
      expect(job.key).toBeNull();
      // 5 s after the moment it was postponed (between the start and their answer; one clock, some slack).
      expect(job.runAt.getTime()).toBeGreaterThanOrEqual(started + 5_000 - 100);
      expect(job.runAt.getTime()).toBeLessThanOrEqual(settledAt + 5_000 + 100);
    }
    expect(queued.map((j) => payloadOf(j).deliveryIds[0]).sort()).toEqual(
      slowJobs
        .slice(JOBS_PER_ENDPOINT)
        .map((j) => payloadOf(j).deliveryIds[0])
        .sort(),
    );
    // Not attempted; next_attempt_at says when they are now due (the contract: when the next attempt is).
    const dueAt = new Map(queued.map((j) => [payloadOf(j).deliveryIds[0], j.runAt.getTime()]));
    const moved = (await deliveriesOf(api, slow.id)).filter((d) => dueAt.has(d.id));
    expect(moved).toHaveLength(2);
    for (const d of moved) {
      expect(d).toMatchObject({ status: 'pending', attempt_count: 0 });
      // (to the millisecond: the two are read through different paths, which round differently)
      expect(Math.abs(Date.parse(String(d.next_attempt_at)) - (dueAt.get(d.id) ?? 0))).toBeLessThanOrEqual(1);
    }
    expect(hanging.received()).toBe(JOBS_PER_ENDPOINT);

    hanging.release();
    expect(await Promise.all(slowRuns.slice(0, JOBS_PER_ENDPOINT))).toEqual(
      Array.from({ length: JOBS_PER_ENDPOINT }, () => ['succeeded']),
    );
    // The endpoint is free again: the postponed job runs (and would postpone itself again with 10 s if not).
    const [again] = queued;
    if (!again) throw new Error('no postponed job');
    expect(await deliverJob(state, payloadOf(again), again.id, LOCAL_SENDING)).toEqual(['succeeded']);
  });

  it('a postponed retry keeps its job key, unless a recovery took the key meanwhile (it covers the delivery)', async () => {
    const { companyId } = await api.tenant();
    const hanging = await hangingReceiver();
    const slow = await insertEndpoint(api, companyId, { url: hanging.url });
    const jobs = await jobsPerEvent(companyId, JOBS_PER_ENDPOINT + 1);
    await api.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test'
      where id in ${api.sql(jobs.map((j) => j.id))}`;
    const busy = jobs.slice(0, JOBS_PER_ENDPOINT).map((j) => deliverJob(state, payloadOf(j), j.id, LOCAL_SENDING));
    while (hanging.received() < JOBS_PER_ENDPOINT) await new Promise((r) => setTimeout(r, 10));

    const deliveryId = payloadOf(jobs[JOBS_PER_ENDPOINT] ?? jobs[0]).deliveryIds[0] as string;
    const key = deliveryJobKey(deliveryId);
    const retry = { companyId, deliveryId, trigger: 'scheduled' as const, endpointId: slow.id };
    // A recovery of the same delivery queued while the retry (job 0, not in the table) ran: it holds the key.
    await api.sql`select app_queue_job(${DELIVER_TASK}, ${JSON.stringify({ ...retry, trigger: 'recovery' })}::json,
      null, ${key})`;
    const dueBefore = await nextAttemptOf(slow.id, deliveryId);
    expect(await deliverJob(state, retry, '0', LOCAL_SENDING)).toBe('postponed');
    let keyed = (await queuedJobs(api)).filter((j) => j.key === key);
    expect(keyed.map((j) => j.payload)).toEqual([{ ...retry, trigger: 'recovery' }]);
    // The recovery is due: the delivery's next attempt is not moved.
    expect(await nextAttemptOf(slow.id, deliveryId)).toBe(dueBefore);

    // A resend waits its turn too, unkeyed, and leaves the schedule (next_attempt_at) alone.
    const resend = { ...retry, trigger: 'manual_resend' as const };
    expect(await deliverJob(state, resend, '0', LOCAL_SENDING)).toBe('postponed');
    const resends = (await queuedJobs(api)).filter((j) => j.payload.trigger === 'manual_resend');
    expect(resends.map((j) => [j.key, j.payload])).toEqual([[null, { ...resend, postponed: 1 }]]);
    expect(await nextAttemptOf(slow.id, deliveryId)).toBe(dueBefore);

    // Nobody else holds the key: the retry is queued again under it, 5 s later.
    await api.sql`delete from graphile_worker._private_jobs where key = ${key}`;
    expect(await deliverJob(state, retry, '0', LOCAL_SENDING)).toBe('postponed');
    keyed = (await queuedJobs(api)).filter((j) => j.key === key);
    expect(keyed.map((j) => j.payload)).toEqual([{ ...retry, postponed: 1 }]);
    const moved = (await nextAttemptOf(slow.id, deliveryId)) ?? 0;
    expect(Math.abs(moved - (keyed[0]?.runAt.getTime() ?? 0))).toBeLessThanOrEqual(1);

    // As the worker runs it: the job itself holds the key, locked. The postponed copy takes the key over.
    const [running] = keyed;
    if (!running) throw new Error('no keyed job');
    await api.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test' where id = ${running.id}`;
    expect(await deliverJob(state, { ...retry, postponed: 1 }, running.id, LOCAL_SENDING)).toBe('postponed');
    keyed = (await queuedJobs(api)).filter((j) => j.key === key);
    expect(keyed.map((j) => j.payload)).toEqual([{ ...retry, postponed: 2 }]);
    expect(keyed[0]?.id).not.toBe(running.id);
    // 10 s later the second time.
    expect(keyed[0]?.runAt.getTime()).toBeGreaterThan(Date.now() + 8_000);
    const [old] = await api.sql<{ key: string | null }[]>`
      select key from graphile_worker._private_jobs where id = ${running.id}`;
    expect(old?.key).toBeNull();

    hanging.release();
    await Promise.all(busy);
  });

  it(`a fast endpoint's burst is not postponed: jobs beyond ${JOBS_PER_ENDPOINT} wait for their turn and run`, async () => {
    const { companyId } = await api.tenant();
    const fast = await receiver();
    await insertEndpoint(api, companyId, { url: fast.url });
    const jobs = await jobsPerEvent(companyId, 10);
    const outcomes = await Promise.all(jobs.map((j) => deliverJob(state, payloadOf(j), j.id, LOCAL_SENDING)));
    expect(outcomes).toEqual(jobs.map(() => ['succeeded']));
    expect(fast.requests).toHaveLength(10);
    const postponed = (await queuedJobs(api)).filter((j) => j.payload.companyId === companyId && j.payload.postponed);
    expect(postponed).toEqual([]);
  });

  it('a stopping worker sends nothing more: what its job has not sent is queued again at once', async () => {
    const { companyId } = await api.tenant();
    const slow = await holdingReceiver('slow', 300);
    const endpoint = await insertEndpoint(api, companyId, { url: slow.url });
    const eventIds = await recordCustomerEvents(api, companyId, 40, 'stopping@example.nl');
    await fanoutEvents(state, companyId, eventIds);
    const [job] = (await queuedJobs(api)).filter((j) => j.task === DELIVER_TASK && j.payload.companyId === companyId);
    if (!job) throw new Error('no job');
    await api.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test' where id = ${job.id}`;
    const ids = payloadOf(job).deliveryIds;
    expect(ids).toHaveLength(40);

    const stop = new AbortController();
    const running = deliverJob(state, payloadOf(job), job.id, { ...LOCAL_SENDING, stop: stop.signal });
    // The first 16 are in flight (SENDS_PER_ENDPOINT), the other 24 wait for their turn: the worker stops.
    for (let wait = 0; wait < 100 && slow.stats.ids.length < 16; wait++) await sleep(10);
    stop.abort();
    const outcomes = await running;

    expect(slow.stats.ids).toHaveLength(16);
    if (outcomes === 'postponed') throw new Error('postponed');
    const notSent = ids.filter((_, i) => outcomes[i] === 'not_sent');
    expect(notSent).toHaveLength(24);
    expect(outcomes.filter((o) => o === 'succeeded')).toHaveLength(16);
    const again = (await queuedJobs(api)).filter((j) => j.task === DELIVER_TASK && j.payload.companyId === companyId);
    expect(again.map((j) => j.payload)).toEqual([
      { companyId, endpointId: endpoint.id, deliveryIds: notSent, trigger: 'scheduled' },
    ]);
    expect(again[0]?.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    for (const d of (await deliveriesOf(api, endpoint.id)).filter((x) => notSent.includes(x.id))) {
      expect(d).toMatchObject({ status: 'pending', attempt_count: 0 });
    }
  });
});
