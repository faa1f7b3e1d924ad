// The batched webhook paths, called directly on a real database and real receivers on 127.0.0.1: a fan-out
// of many events writes its deliveries and queues their first attempts in jobs of DELIVERIES_PER_JOB per
// endpoint; a
// delivery job sends them all (at most SENDS_PER_ENDPOINT = 16 requests in flight per endpoint, the rest
// waiting for their turn) and answers one outcome per id; successes are recorded many in one statement.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverBatch } from '../../src/webhooks/delivery-attempts.ts';
import { DELIVER_TASK } from '../../src/webhooks/delivery-job-key.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { DELIVERIES_PER_JOB, fanoutEvents } from '../../src/webhooks/fanout.ts';
import { type Recording, recordAttempts } from '../../src/webhooks/record-attempts.ts';
import {
  holdingReceiver,
  insertEndpoint,
  jobsOf,
  LOCAL_SENDING,
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

const recordEvents = (companyId: string, n: number) => recordCustomerEvents(api, companyId, n, 'batch@example.nl');

type DeliveryRow = { id: string; endpoint_id: string; event_id: string; status: string; attempt_count: number };

const deliveriesOfCompany = (companyId: string) =>
  api.sql<DeliveryRow[]>`
    select id, endpoint_id, event_id, status, attempt_count from webhook_deliveries
    where company_id = ${companyId} order by endpoint_id, id`;

/** The queued delivery jobs of a company (the fan-out jobs recordEvent queued are left out). */
const deliverJobs = async (companyId: string) => (await jobsOf(api, companyId)).filter((j) => j.task === DELIVER_TASK);

const attemptsOfCompany = (companyId: string) =>
  api.sql<{ delivery_id: string; attempt_number: number; status: string; trigger: string; status_code: number }[]>`
    select delivery_id, attempt_number, status, trigger, status_code from webhook_attempts
    where company_id = ${companyId} order by delivery_id, attempt_number`;

/** Plain string order (the test database uses the C locale: byte order, as JavaScript's default sort). */
const byEndpointThenId = (a: DeliveryRow, b: DeliveryRow) =>
  a.endpoint_id < b.endpoint_id ? -1 : a.endpoint_id > b.endpoint_id ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** A company with two active endpoints and a disabled one, each on its own receiver, and `n` events. */
async function threeEndpoints(n: number) {
  const { companyId } = await api.tenant();
  const hooks = [await receiver(), await receiver(), await receiver()];
  const a = await insertEndpoint(api, companyId, { url: hooks[0].url });
  const b = await insertEndpoint(api, companyId, { url: hooks[1].url });
  const off = await insertEndpoint(api, companyId, { url: hooks[2].url, status: 'disabled' });
  const eventIds = await recordEvents(companyId, n);
  return { companyId, hooks, endpoints: { a: a.id, b: b.id, off: off.id }, eventIds };
}

describe('fanoutEvents', () => {
  it('writes every delivery and queues the pending ones in one job per endpoint, ordered by id', async () => {
    const { companyId, endpoints, eventIds } = await threeEndpoints(5);
    expect(await deliverJobs(companyId)).toEqual([]);

    // Per event: the two active endpoints' deliveries are queued; the disabled one's is not.
    expect(await fanoutEvents(state, companyId, eventIds)).toEqual([2, 2, 2, 2, 2]);

    const deliveries = await deliveriesOfCompany(companyId);
    expect(deliveries).toHaveLength(15);
    const pending = deliveries.filter((d) => d.status === 'pending');
    const failed = deliveries.filter((d) => d.status === 'failed');
    expect(pending).toHaveLength(10);
    expect(failed).toHaveLength(5);
    expect(new Set(pending.map((d) => d.endpoint_id))).toEqual(new Set([endpoints.a, endpoints.b]));
    expect(failed.every((d) => d.endpoint_id === endpoints.off)).toBe(true);
    // One delivery per (event, endpoint), none attempted yet.
    for (const endpoint of Object.values(endpoints)) {
      const of = deliveries.filter((d) => d.endpoint_id === endpoint);
      expect(of.map((d) => d.event_id).sort()).toEqual([...eventIds].sort());
    }
    expect(deliveries.every((d) => d.attempt_count === 0)).toBe(true);

    const jobs = await deliverJobs(companyId);
    expect(jobs).toHaveLength(2);
    for (const endpointId of [endpoints.a, endpoints.b]) {
      const job = jobs.find((j) => j.payload.endpointId === endpointId);
      expect(job?.key).toBeNull();
      expect(job?.payload).toEqual({
        companyId,
        endpointId,
        deliveryIds: pending
          .filter((d) => d.endpoint_id === endpointId)
          .sort(byEndpointThenId)
          .map((d) => d.id),
        trigger: 'scheduled',
      });
      expect(job?.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it('run again for the same events: queues nothing and writes nothing', async () => {
    const { companyId, eventIds } = await threeEndpoints(5);
    expect(await fanoutEvents(state, companyId, eventIds)).toEqual([2, 2, 2, 2, 2]);
    const deliveries = await deliveriesOfCompany(companyId);
    const jobs = await deliverJobs(companyId);
    expect(jobs).toHaveLength(2);

    expect(await fanoutEvents(state, companyId, eventIds)).toEqual([0, 0, 0, 0, 0]);
    expect(await deliveriesOfCompany(companyId)).toEqual(deliveries);
    expect(await deliverJobs(companyId)).toEqual(jobs);

    // Partly new: only the new event's deliveries are written and queued (in jobs of their own).
    const [extra] = await recordEvents(companyId, 1);
    expect(await fanoutEvents(state, companyId, [...eventIds, extra])).toEqual([0, 0, 0, 0, 0, 2]);
    expect(await deliveriesOfCompany(companyId)).toHaveLength(18);
    const after = await deliverJobs(companyId);
    expect(after).toHaveLength(4);
    const added = after.filter((j) => !jobs.some((old) => old.id === j.id));
    const extraPending = (await deliveriesOfCompany(companyId)).filter(
      (d) => d.event_id === extra && d.status === 'pending',
    );
    expect(added.flatMap((j) => j.payload.deliveryIds as string[]).sort()).toEqual(
      extraPending.map((d) => d.id).sort(),
    );
  });

  it(`splits each endpoint's first attempts into jobs of at most DELIVERIES_PER_JOB (${DELIVERIES_PER_JOB}): 120 → 100 + 20`, async () => {
    expect(DELIVERIES_PER_JOB).toBe(100);
    const { companyId } = await api.tenant();
    const a = await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook' });
    const b = await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook' });
    const eventIds = await recordEvents(companyId, 120);

    const queued = await fanoutEvents(state, companyId, eventIds);
    expect(queued).toEqual(eventIds.map(() => 2));

    const deliveries = await deliveriesOfCompany(companyId);
    expect(deliveries).toHaveLength(240);
    expect(deliveries.every((d) => d.status === 'pending')).toBe(true);
    const jobs = await deliverJobs(companyId);
    expect(jobs).toHaveLength(4);
    for (const endpoint of [a.id, b.id]) {
      // Biggest first = chunk order (add_jobs does not keep the order of its array in the job ids).
      const of = jobs
        .filter((j) => j.payload.endpointId === endpoint)
        .sort((x, y) => (y.payload.deliveryIds as string[]).length - (x.payload.deliveryIds as string[]).length);
      expect(of.map((j) => (j.payload.deliveryIds as string[]).length)).toEqual([100, 20]);
      // Together, in chunk order, every delivery of the endpoint exactly once, by id.
      expect(of.flatMap((j) => j.payload.deliveryIds as string[])).toEqual(
        deliveries.filter((d) => d.endpoint_id === endpoint).map((d) => d.id),
      );
      for (const job of of) expect(job.payload).toMatchObject({ companyId, trigger: 'scheduled' });
    }
  });

  it('an event without subscribers answers 0 and queues nothing', async () => {
    const { companyId } = await api.tenant();
    await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook', events: ['deal.created'] });
    const eventIds = await recordEvents(companyId, 2);
    expect(await fanoutEvents(state, companyId, eventIds)).toEqual([0, 0]);
    expect(await deliveriesOfCompany(companyId)).toEqual([]);
    expect(await deliverJobs(companyId)).toEqual([]);
  });
});

describe('deliverBatch', () => {
  it('sends every delivery once (webhook-id = event id), records one attempt each, answers per id in order', async () => {
    const { companyId, hooks, endpoints, eventIds } = await threeEndpoints(5);
    await fanoutEvents(state, companyId, eventIds);
    const ids = (await deliverJobs(companyId)).flatMap((j) => j.payload.deliveryIds as string[]);
    expect(ids).toHaveLength(10);

    const before = await deliveriesOfCompany(companyId);
    const disabledOne = before.find((d) => d.endpoint_id === endpoints.off);
    if (!disabledOne) throw new Error('no delivery of the disabled endpoint');
    // Another company's delivery is not this company's to send: gone, like an unknown id.
    const other = await threeEndpoints(1);
    await fanoutEvents(state, other.companyId, other.eventIds);
    const [otherDelivery] = await deliveriesOfCompany(other.companyId);

    const list = [
      ...ids.slice(0, 3),
      'wd_doesnotexist',
      ...ids.slice(3, 7),
      disabledOne.id,
      otherDelivery.id,
      ...ids.slice(7),
    ];
    const outcomes = await deliverBatch(state, { companyId, deliveryIds: list, trigger: 'scheduled' }, LOCAL_SENDING);
    expect(outcomes).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'gone',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      // Failed already (its endpoint is disabled): a scheduled attempt leaves it alone.
      'skipped',
      'gone',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);

    // Each active endpoint received each event exactly once, under the event's id; the disabled one nothing.
    for (const hook of [hooks[0], hooks[1]]) {
      const received = hook.requests.map((r) => String(r.headers['webhook-id']));
      expect(received.sort()).toEqual([...eventIds].sort());
      for (const r of hook.requests) expect(JSON.parse(r.body).id).toBe(r.headers['webhook-id']);
    }
    expect(hooks[2].requests).toHaveLength(0);
    expect(other.hooks.flatMap((h) => h.requests)).toHaveLength(0);

    const after = await deliveriesOfCompany(companyId);
    const sent = after.filter((d) => ids.includes(d.id));
    expect(sent).toHaveLength(10);
    for (const d of sent) expect(d).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(after.find((d) => d.id === disabledOne.id)).toMatchObject({ status: 'failed', attempt_count: 0 });

    const attempts = await attemptsOfCompany(companyId);
    expect(attempts.map((a) => a.delivery_id).sort()).toEqual([...ids].sort());
    for (const a of attempts) {
      expect(a).toMatchObject({ attempt_number: 1, status: 'succeeded', trigger: 'scheduled', status_code: 200 });
    }
    expect(await attemptsOfCompany(other.companyId)).toEqual([]);
    expect(await deliveriesOfCompany(other.companyId)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: otherDelivery.id, attempt_count: 0 })]),
    );

    const health = await api.sql<{ id: string; last_success_at: Date | null }[]>`
      select id, last_success_at from webhook_endpoints where company_id = ${companyId} order by id`;
    for (const row of health) {
      if (row.id === endpoints.off) expect(row.last_success_at).toBeNull();
      else expect(row.last_success_at).not.toBeNull();
    }
  });

  it('jobs of a company running at the same time (their reads are shared) each send and answer only their own ids', async () => {
    const { companyId, hooks, eventIds } = await threeEndpoints(3);
    await fanoutEvents(state, companyId, eventIds);
    const jobs = await deliverJobs(companyId);
    expect(jobs).toHaveLength(2);
    const other = await threeEndpoints(1);
    await fanoutEvents(state, other.companyId, other.eventIds);
    const [foreign] = await deliveriesOfCompany(other.companyId);
    const lists = jobs.map((j) => j.payload.deliveryIds as string[]);
    const [first, second] = await Promise.all([
      deliverBatch(
        state,
        { companyId, deliveryIds: [...(lists[0] ?? []), foreign.id], trigger: 'scheduled' },
        LOCAL_SENDING,
      ),
      deliverBatch(state, { companyId, deliveryIds: lists[1] ?? [], trigger: 'scheduled' }, LOCAL_SENDING),
    ]);
    expect(first).toEqual(['succeeded', 'succeeded', 'succeeded', 'gone']);
    expect(second).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(hooks[0].requests).toHaveLength(3);
    expect(hooks[1].requests).toHaveLength(3);
    expect(other.hooks.flatMap((h) => h.requests)).toHaveLength(0);
  });

  it('an id listed twice is sent and recorded once, and answered twice', async () => {
    const { companyId, hooks, eventIds } = await threeEndpoints(1);
    await fanoutEvents(state, companyId, eventIds);
    const [id] = (await deliverJobs(companyId)).flatMap((j) => j.payload.deliveryIds as string[]);
    if (!id) throw new Error('no delivery');
    const outcomes = await deliverBatch(
      state,
      { companyId, deliveryIds: [id, id], trigger: 'scheduled' },
      LOCAL_SENDING,
    );
    expect(outcomes).toEqual(['succeeded', 'succeeded']);
    expect(hooks.flatMap((h) => h.requests)).toHaveLength(1);
    expect((await attemptsOfCompany(companyId)).map((a) => a.delivery_id)).toEqual([id]);
  });

  it('at most 16 requests in flight to one endpoint; the others wait their turn and all succeed', async () => {
    const { companyId } = await api.tenant();
    const hook = await holdingReceiver('slow', 150);
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
    const eventIds = await recordEvents(companyId, 40);
    expect(await fanoutEvents(state, companyId, eventIds)).toEqual(eventIds.map(() => 1));
    const [job] = await deliverJobs(companyId);
    const ids = job.payload.deliveryIds as string[];
    expect(ids).toHaveLength(40);

    const started = Date.now();
    const outcomes = await deliverBatch(state, { companyId, deliveryIds: ids, trigger: 'scheduled' }, LOCAL_SENDING);
    const elapsed = Date.now() - started;

    expect(outcomes).toEqual(ids.map(() => 'succeeded'));
    // The limit is used, never exceeded: 16 at once, so 40 take three rounds of 150 ms.
    expect(hook.stats.maxInFlight).toBe(16);
    expect(elapsed).toBeGreaterThanOrEqual(3 * 150 - 20);
    expect(hook.stats.ids).toHaveLength(40);
    expect([...hook.stats.ids].sort()).toEqual([...eventIds].sort());

    const deliveries = await deliveriesOfCompany(companyId);
    expect(deliveries.every((d) => d.endpoint_id === endpointId)).toBe(true);
    for (const d of deliveries) expect(d).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    const attempts = await attemptsOfCompany(companyId);
    expect(attempts).toHaveLength(40);
    expect(attempts.every((a) => a.attempt_number === 1 && a.status === 'succeeded')).toBe(true);
  });

  it('the limit holds across concurrent jobs of the process, and a slow endpoint holds back only its own', async () => {
    const { companyId } = await api.tenant();
    const log: { name: string; id: string }[] = [];
    const slow = await holdingReceiver('slow', 150, log);
    const fast = await holdingReceiver('fast', 0, log);
    const slowEndpoint = await insertEndpoint(api, companyId, { url: slow.url });
    const fastEndpoint = await insertEndpoint(api, companyId, { url: fast.url });
    const eventIds = await recordEvents(companyId, 40);
    expect(await fanoutEvents(state, companyId, eventIds)).toEqual(eventIds.map(() => 2));

    const deliveries = await deliveriesOfCompany(companyId);
    const toSlow = deliveries.filter((d) => d.endpoint_id === slowEndpoint.id).map((d) => d.id);
    const toFast = deliveries.filter((d) => d.endpoint_id === fastEndpoint.id).map((d) => d.id);
    expect(toSlow).toHaveLength(40);
    expect(toFast).toHaveLength(40);

    // Two jobs at once: 20 and 20 to the slow endpoint, 5 to the fast endpoint last in the second.
    const jobs = [toSlow.slice(0, 20), [...toSlow.slice(20), ...toFast.slice(0, 5)]];
    const outcomes = await Promise.all(
      jobs.map((deliveryIds) => deliverBatch(state, { companyId, deliveryIds, trigger: 'scheduled' }, LOCAL_SENDING)),
    );
    expect(outcomes.flat()).toEqual(jobs.flat().map(() => 'succeeded'));
    expect(slow.stats.maxInFlight).toBe(16);
    expect(slow.stats.ids).toHaveLength(40);
    expect(fast.stats.ids).toHaveLength(5);
    // The fast endpoint's messages did not wait for the slow endpoint's turns: all five arrived while the
    // slow endpoint's first 16 were still held (its 17th can only start after one of those was answered).
    const seventeenthSlow = log.filter((e) => e.name === 'slow')[16];
    const lastFast = log.filter((e) => e.name === 'fast')[4];
    expect(log.indexOf(lastFast)).toBeLessThan(log.indexOf(seventeenthSlow));
  });
});

describe('recordAttempts: successes', () => {
  /** A company with one endpoint (failing since an hour ago) and `n` pending deliveries to it. */
  async function pendingDeliveries(n: number) {
    const { companyId } = await api.tenant();
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook' });
    await api.sql`update webhook_endpoints set failing_since = now() - interval '1 hour' where id = ${endpointId}`;
    const eventIds = await recordEvents(companyId, n);
    await fanoutEvents(state, companyId, eventIds);
    const deliveries = await deliveriesOfCompany(companyId);
    return { companyId, endpointId, ids: deliveries.map((d) => d.id) };
  }

  const success = (companyId: string, deliveryId: string, at: Date, statusCode = 200): Recording => ({
    companyId,
    deliveryId,
    url: 'http://127.0.0.1:9/hook',
    trigger: 'scheduled',
    result: { statusCode, durationMs: 12, error: null, responseBody: `ok ${statusCode}` },
    at,
  });

  const endpointHealth = async (endpointId: string) =>
    (
      await api.sql<{ last_success_at: Date | null; failing_since: Date | null }[]>`
        select last_success_at, failing_since from webhook_endpoints where id = ${endpointId}`
    )[0];

  it('the same delivery twice in one batch: attempts n+1 and n+2, in the order of the batch', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(2);
    const [d1, d2] = ids;
    const t1 = new Date('2030-01-01T10:00:00.000Z');
    const t2 = new Date('2030-01-01T10:00:01.500Z');
    const t3 = new Date('2030-01-01T10:00:02.000Z');

    const outcomes = await recordAttempts(api.db, state.attempts, companyId, [
      success(companyId, d1, t1, 200),
      success(companyId, d2, t3, 202),
      success(companyId, d1, t2, 201),
    ]);
    expect(outcomes).toEqual(['succeeded', 'succeeded', 'succeeded']);

    const attempts = await api.sql`
      select delivery_id, attempt_number, status, status_code, response_body, created_at from webhook_attempts
      where company_id = ${companyId} order by delivery_id, attempt_number`;
    expect(attempts.filter((a) => a.delivery_id === d1)).toEqual([
      expect.objectContaining({ attempt_number: 1, status: 'succeeded', status_code: 200, response_body: 'ok 200' }),
      expect.objectContaining({ attempt_number: 2, status: 'succeeded', status_code: 201, response_body: 'ok 201' }),
    ]);
    expect(attempts.filter((a) => a.delivery_id === d2)).toEqual([
      expect.objectContaining({ attempt_number: 1, status_code: 202 }),
    ]);
    expect(attempts).toHaveLength(3);

    const deliveries = await api.sql`
      select id, status, attempt_count, last_status_code, last_attempt_at, next_attempt_at from webhook_deliveries
      where company_id = ${companyId} order by id`;
    // The delivery shows its latest attempt.
    expect(deliveries.find((d) => d.id === d1)).toMatchObject({
      status: 'succeeded',
      attempt_count: 2,
      last_status_code: 201,
      next_attempt_at: null,
    });
    expect(new Date(deliveries.find((d) => d.id === d1)?.last_attempt_at).toISOString()).toBe(t2.toISOString());
    expect(deliveries.find((d) => d.id === d2)).toMatchObject({ status: 'succeeded', attempt_count: 1 });

    // The endpoint is healthy again, its last success the latest of the batch.
    const health = await endpointHealth(endpointId);
    expect(health.failing_since).toBeNull();
    expect(new Date(health.last_success_at as Date).toISOString()).toBe(t3.toISOString());

    // Numbering continues from the delivery's attempt count (a resend after these).
    expect(
      await recordAttempts(api.db, state.attempts, companyId, [
        success(companyId, d1, new Date('2030-01-01T10:01:00Z')),
        success(companyId, d1, new Date('2030-01-01T10:01:01Z')),
      ]),
    ).toEqual(['succeeded', 'succeeded']);
    const d1Attempts = await api.sql`
      select attempt_number from webhook_attempts where delivery_id = ${d1} order by attempt_number`;
    expect(d1Attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4]);
    const [row] = await api.sql`select attempt_count from webhook_deliveries where id = ${d1}`;
    expect(row.attempt_count).toBe(4);
  });

  it('a delivery deleted meanwhile answers gone and nothing is written for it', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(2);
    const [deleted, kept] = ids;
    await api.sql`delete from webhook_deliveries where id = ${deleted}`;
    const at = new Date('2030-01-01T10:00:00.000Z');

    // Alone in its batch: nothing at all changes, not even the endpoint's health.
    expect(await recordAttempts(api.db, state.attempts, companyId, [success(companyId, deleted, at)])).toEqual([
      'gone',
    ]);
    expect(await attemptsOfCompany(companyId)).toEqual([]);
    const health = await endpointHealth(endpointId);
    expect(health.last_success_at).toBeNull();
    expect(health.failing_since).not.toBeNull();

    // Among others: only its own recording is dropped.
    expect(
      await recordAttempts(api.db, state.attempts, companyId, [
        success(companyId, deleted, at),
        success(companyId, kept, at),
      ]),
    ).toEqual(['gone', 'succeeded']);
    const attempts = await attemptsOfCompany(companyId);
    expect(attempts.map((a) => [a.delivery_id, a.attempt_number])).toEqual([[kept, 1]]);
    expect(await api.sql`select id from webhook_deliveries where id = ${deleted}`).toHaveLength(0);
  });

  it("a delivery whose endpoint was deleted meanwhile answers gone; another company's id is gone too", async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(1);
    const other = await pendingDeliveries(1);
    await api.sql`delete from webhook_endpoints where id = ${endpointId}`;
    const at = new Date('2030-01-01T10:00:00.000Z');
    expect(
      await recordAttempts(api.db, state.attempts, companyId, [
        success(companyId, ids[0], at),
        success(companyId, other.ids[0], at),
      ]),
    ).toEqual(['gone', 'gone']);
    expect(await attemptsOfCompany(companyId)).toEqual([]);
    expect(await attemptsOfCompany(other.companyId)).toEqual([]);
    const [row] = await api.sql`select status, attempt_count from webhook_deliveries where id = ${ids[0]}`;
    expect(row).toEqual({ status: 'pending', attempt_count: 0 });
  });
});
