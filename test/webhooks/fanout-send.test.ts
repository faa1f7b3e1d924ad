// The worker's fan-out sends the first attempts itself (src/webhooks/fanout.ts), on a real database and real
// receivers on 127.0.0.1: each delivery is written once with its outcome; a failure gets its retry; a failing
// endpoint, and the sends a slow endpoint has not started within INLINE_WAIT_MS, get delivery jobs; a send in
// flight then is handed over with a safety job and recorded when its answer comes.
import { Webhook } from 'standardwebhooks';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverBatch } from '../../src/webhooks/delivery-attempts.ts';
import { DELIVER_TASK, deliveryJobKey } from '../../src/webhooks/delivery-job-key.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { fanout, fanoutEvents, INLINE_WAIT_MS, SAFETY_DELAY_MS, SLOW_SEND_MS } from '../../src/webhooks/fanout.ts';
import { SLOW_ENDPOINT_MS } from '../../src/webhooks/handed-over-sends.ts';
import {
  holdingReceiver,
  insertEndpoint,
  jobsOf,
  LOCAL_SENDING,
  receiver,
  recordCustomerEvents,
  signatureHeaders,
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

const recordEvents = (companyId: string, n: number) => recordCustomerEvents(api, companyId, n, 'inline@example.nl');

type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
};

const deliveriesOf = (companyId: string) =>
  api.sql<DeliveryRow[]>`
    select id, endpoint_id, event_id, status, attempt_count, last_status_code, next_attempt_at, created_at
    from webhook_deliveries where company_id = ${companyId} order by endpoint_id, id`;

const attemptsOf = (companyId: string) =>
  api.sql<
    { delivery_id: string; attempt_number: number; status: string; trigger: string; created_at: Date | string }[]
  >`
    select delivery_id, attempt_number, status, trigger, created_at from webhook_attempts
    where company_id = ${companyId} order by delivery_id, attempt_number`;

const deliverJobs = async (companyId: string) => (await jobsOf(api, companyId)).filter((j) => j.task === DELIVER_TASK);

describe('the fan-out sends the first attempts', () => {
  it('writes each delivery once, with its attempt; queues no delivery job; the disabled endpoint gets nothing', async () => {
    const { companyId } = await api.tenant();
    const hooks = [await receiver(), await receiver(), await receiver()];
    const a = await insertEndpoint(api, companyId, { url: hooks[0].url });
    const b = await insertEndpoint(api, companyId, { url: hooks[1].url });
    const off = await insertEndpoint(api, companyId, { url: hooks[2].url, status: 'disabled' });
    const eventIds = await recordEvents(companyId, 3);

    expect(await fanoutEvents(state, companyId, eventIds, LOCAL_SENDING)).toEqual([2, 2, 2]);

    // Signed, the event's id as webhook-id, each event once per active endpoint.
    for (const [hook, endpoint] of [
      [hooks[0], a],
      [hooks[1], b],
    ] as const) {
      expect(hook.requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...eventIds].sort());
      for (const r of hook.requests) {
        expect(new Webhook(endpoint.secret.slice('whsec_'.length)).verify(r.body, signatureHeaders(r))).toMatchObject({
          id: r.headers['webhook-id'],
        });
      }
    }
    expect(hooks[2].requests).toHaveLength(0);

    const deliveries = await deliveriesOf(companyId);
    const sent = deliveries.filter((d) => d.endpoint_id !== off.id);
    expect(sent).toHaveLength(6);
    for (const d of sent) {
      expect(d).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status_code: 200, next_attempt_at: null });
    }
    expect(deliveries.filter((d) => d.endpoint_id === off.id).map((d) => d.status)).toEqual([
      'failed',
      'failed',
      'failed',
    ]);
    const attempts = await attemptsOf(companyId);
    expect(attempts.map((t) => t.delivery_id).sort()).toEqual(sent.map((d) => d.id).sort());
    for (const t of attempts) expect(t).toMatchObject({ attempt_number: 1, status: 'succeeded', trigger: 'scheduled' });
    // A delivery is not made after its first attempt.
    for (const d of sent) {
      const attempt = attempts.find((t) => t.delivery_id === d.id);
      expect(new Date(d.created_at).getTime()).toBeLessThanOrEqual(new Date(attempt?.created_at ?? 0).getTime());
    }
    expect(await deliverJobs(companyId)).toEqual([]);
    const health = await api.sql<{ id: string; last_success_at: Date | null }[]>`
      select id, last_success_at from webhook_endpoints where company_id = ${companyId} order by id`;
    for (const row of health) expect(row.last_success_at === null).toBe(row.id === off.id);

    // Run again (a fan-out job retried after its write): nothing is sent or written again.
    expect(await fanoutEvents(state, companyId, eventIds, LOCAL_SENDING)).toEqual([0, 0, 0]);
    expect(hooks[0].requests).toHaveLength(3);
    expect(await deliveriesOf(companyId)).toEqual(deliveries);
  });

  it('a failing endpoint gets a delivery job; the others are sent at once', async () => {
    const { companyId } = await api.tenant();
    const ok = await receiver();
    const failingHook = await receiver();
    await insertEndpoint(api, companyId, { url: ok.url });
    const failing = await insertEndpoint(api, companyId, { url: failingHook.url });
    await api.sql`update webhook_endpoints set failing_since = now() - interval '1 hour' where id = ${failing.id}`;
    const [eventId] = await recordEvents(companyId, 1);

    expect((await fanout(state, { companyId, eventId }, LOCAL_SENDING)).sort()).toEqual(['queued', 'succeeded']);
    expect(ok.requests).toHaveLength(1);
    expect(failingHook.requests).toHaveLength(0);
    const [queued] = (await deliveriesOf(companyId)).filter((d) => d.endpoint_id === failing.id);
    expect(queued).toMatchObject({ status: 'pending', attempt_count: 0 });
    const jobs = await deliverJobs(companyId);
    expect(jobs.map((j) => j.payload)).toEqual([
      { companyId, endpointId: failing.id, deliveryIds: [queued.id], trigger: 'scheduled' },
    ]);

    // Its job sends it as before.
    expect(
      await deliverBatch(state, { companyId, deliveryIds: [queued.id], trigger: 'scheduled' }, LOCAL_SENDING),
    ).toEqual(['succeeded']);
    expect(failingHook.requests).toHaveLength(1);
  });

  it('an event read with a later endpoint first sent: its data comes with its first pair, whichever is sent', async () => {
    const { companyId } = await api.tenant();
    const hooks = [await receiver(), await receiver()];
    // The lowest endpoint id (the pair that carries the event's data) is not sent to.
    await insertEndpoint(api, companyId, { url: hooks[0].url, status: 'disabled' });
    const later = await insertEndpoint(api, companyId, { url: hooks[1].url });
    const eventIds = await recordEvents(companyId, 2);

    expect(await fanoutEvents(state, companyId, eventIds, LOCAL_SENDING)).toEqual([1, 1]);
    expect(hooks[0].requests).toHaveLength(0);
    expect(hooks[1].requests.map((r) => JSON.parse(r.body).id).sort()).toEqual([...eventIds].sort());
    const sent = (await deliveriesOf(companyId)).filter((d) => d.endpoint_id === later.id);
    expect(sent.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('an event whose stored row does not have the contract’s shape fails its own sends only: a delivery job retries them', async () => {
    const { companyId } = await api.tenant();
    const hook = await receiver();
    await insertEndpoint(api, companyId, { url: hook.url });
    const [good, broken] = await recordEvents(companyId, 2);
    await api.sql`update events set data = '{"object": 1}' where company_id = ${companyId} and id = ${broken}`;

    expect(await fanoutEvents(state, companyId, [good, broken], LOCAL_SENDING)).toEqual([1, 1]);
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual([good]);
    const deliveries = await deliveriesOf(companyId);
    expect(deliveries.find((d) => d.event_id === good)).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    const queued = deliveries.find((d) => d.event_id === broken);
    expect(queued).toMatchObject({ status: 'pending', attempt_count: 0 });
    expect((await deliverJobs(companyId)).map((j) => j.payload)).toMatchObject([{ deliveryIds: [queued?.id] }]);
  });

  it('a failed first attempt is recorded and retried 5 s later: the retry takes the safety job’s key', async () => {
    const { companyId } = await api.tenant();
    const hook = await receiver(() => ({ status: 500, body: 'down' }));
    const endpoint = await insertEndpoint(api, companyId, { url: hook.url });
    const [eventId] = await recordEvents(companyId, 1);

    const before = Date.now();
    expect(await fanout(state, { companyId, eventId }, LOCAL_SENDING)).toEqual(['retrying']);
    const [delivery] = await deliveriesOf(companyId);
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: 500 });
    const attempts = await attemptsOf(companyId);
    expect(attempts).toEqual([expect.objectContaining({ attempt_number: 1, status: 'failed', trigger: 'scheduled' })]);

    // One job for the delivery: the retry at +5 s under the delivery's key (the safety job was replaced).
    const jobs = await deliverJobs(companyId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      key: deliveryJobKey(delivery.id),
      payload: { companyId, deliveryId: delivery.id, endpointId: endpoint.id, trigger: 'scheduled' },
    });
    const delay = (jobs[0]?.runAt.getTime() ?? 0) - before;
    expect(delay).toBeGreaterThanOrEqual(4_000);
    expect(delay).toBeLessThan(SAFETY_DELAY_MS - 5_000);
    const [failingSince] = await api.sql<{ failing_since: Date | null }[]>`
      select failing_since from webhook_endpoints where id = ${endpoint.id}`;
    expect(failingSince?.failing_since).not.toBeNull();
  });

  it('an endpoint deleted while its message was in flight: sent, nothing written', async () => {
    const { companyId } = await api.tenant();
    let endpointId = '';
    const hook = await receiver(() => ({ delayMs: 50 }));
    const endpoint = await insertEndpoint(api, companyId, { url: hook.url });
    endpointId = endpoint.id;
    const [eventId] = await recordEvents(companyId, 1);
    const sending = fanout(state, { companyId, eventId }, LOCAL_SENDING);
    for (let wait = 0; wait < 100 && hook.requests.length === 0; wait++) await new Promise((r) => setTimeout(r, 5));
    await api.sql`delete from webhook_endpoints where id = ${endpointId}`;

    expect(await sending).toEqual([]);
    expect(hook.requests).toHaveLength(1);
    expect(await deliveriesOf(companyId)).toEqual([]);
    expect(await attemptsOf(companyId)).toEqual([]);
    expect(await deliverJobs(companyId)).toEqual([]);
  });
});

describe('sends and write of a batch', () => {
  it('says once, when every send is answered (its write follows; the next batch may send meanwhile)', async () => {
    const { companyId } = await api.tenant();
    const hooks = [await receiver(() => ({ delayMs: 30 })), await receiver(() => ({ delayMs: 30 }))];
    for (const hook of hooks) await insertEndpoint(api, companyId, { url: hook.url });
    const eventIds = await recordEvents(companyId, 2);
    const seen: number[] = [];
    const sendsDone = () => seen.push(hooks[0].requests.length + hooks[1].requests.length);

    expect(await fanoutEvents(state, companyId, eventIds, LOCAL_SENDING, sendsDone)).toEqual([2, 2]);
    // Once, with all four messages received.
    expect(seen).toEqual([4]);
    expect(await deliveriesOf(companyId)).toHaveLength(4);
  });
});

describe('a stopping worker', () => {
  it('its fan-out sends nothing: the first attempts get a delivery job', async () => {
    const { companyId } = await api.tenant();
    const hook = await receiver();
    const endpoint = await insertEndpoint(api, companyId, { url: hook.url });
    const [eventId] = await recordEvents(companyId, 1);
    const stop = new AbortController();
    stop.abort();

    expect(await fanout(state, { companyId, eventId }, { ...LOCAL_SENDING, stop: stop.signal })).toEqual(['queued']);
    expect(hook.requests).toHaveLength(0);
    const [delivery] = await deliveriesOf(companyId);
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 0 });
    expect((await deliverJobs(companyId)).map((j) => j.payload)).toEqual([
      { companyId, endpointId: endpoint.id, deliveryIds: [delivery?.id], trigger: 'scheduled' },
    ]);
  });
});

describe('nothing lost when the write fails after the sends', () => {
  it('the fan-out fails (its job is retried): the run again sends the message again, same webhook-id, and writes it', async () => {
    const { companyId } = await api.tenant();
    const hook = await receiver();
    await insertEndpoint(api, companyId, { url: hook.url });
    const [eventId] = await recordEvents(companyId, 1);
    // The database refuses this event's deliveries once (a fault after the request was answered).
    await api.sql.unsafe(`
      create or replace function test_refuse_delivery() returns trigger language plpgsql as $$
      begin
        if new.event_id = '${eventId}' then raise exception 'refused by the test'; end if;
        return new;
      end $$;
      create trigger test_refuse_delivery before insert on webhook_deliveries
        for each row execute function test_refuse_delivery();`);
    try {
      await expect(fanout(state, { companyId, eventId }, LOCAL_SENDING)).rejects.toThrow(/refused by the test/);
    } finally {
      await api.sql.unsafe('drop trigger test_refuse_delivery on webhook_deliveries');
    }
    expect(hook.requests).toHaveLength(1);
    expect(await deliveriesOf(companyId)).toEqual([]);

    // Graphile Worker runs the failed fan-out job again.
    expect(await fanout(state, { companyId, eventId }, LOCAL_SENDING)).toEqual(['succeeded']);
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(await deliveriesOf(companyId)).toEqual([expect.objectContaining({ status: 'succeeded', attempt_count: 1 })]);
  });
});

describe('a slow endpoint', () => {
  it(`waits ${INLINE_WAIT_MS} ms at most: hands over what is in flight, queues what has not started, and the other endpoint is sent at once`, async () => {
    const { companyId } = await api.tenant();
    // The slow endpoint answers only once the fan-out has returned: it returns after its wait without those answers
    // (were it to wait for them, the test would hang), however slow the machine.
    let answerSlow = () => {};
    const fanoutReturned = new Promise<void>((resolve) => {
      answerSlow = resolve;
    });
    const slow = await holdingReceiver('slow', fanoutReturned);
    const fast = await receiver();
    const slowEndpoint = await insertEndpoint(api, companyId, { url: slow.url });
    await insertEndpoint(api, companyId, { url: fast.url });
    const eventIds = await recordEvents(companyId, 20);

    const started = Date.now();
    expect(await fanoutEvents(state, companyId, eventIds, LOCAL_SENDING)).toEqual(eventIds.map(() => 2));
    expect(Date.now() - started).toBeGreaterThanOrEqual(INLINE_WAIT_MS - 20);

    // The fast endpoint got everything; the slow one the 16 it may have in flight (SENDS_PER_ENDPOINT).
    expect(fast.requests).toHaveLength(20);
    expect(slow.stats.ids).toHaveLength(16);
    const deliveries = await deliveriesOf(companyId);
    const toSlow = deliveries.filter((d) => d.endpoint_id === slowEndpoint.id);
    expect(toSlow.every((d) => d.status === 'pending' && d.attempt_count === 0)).toBe(true);
    expect(deliveries.filter((d) => d.endpoint_id !== slowEndpoint.id).every((d) => d.status === 'succeeded')).toBe(
      true,
    );

    // In flight: one safety job each, under the delivery's key, SAFETY_DELAY_MS later. Not started: one job.
    const inFlight = new Set(slow.stats.ids);
    const handedOver = toSlow.filter((d) => inFlight.has(d.event_id));
    const notStarted = toSlow.filter((d) => !inFlight.has(d.event_id));
    expect(notStarted).toHaveLength(4);
    const jobs = await deliverJobs(companyId);
    const safety = jobs.filter((j) => j.key !== null);
    expect(safety.map((j) => j.key).sort()).toEqual(handedOver.map((d) => deliveryJobKey(d.id)).sort());
    for (const job of safety) {
      expect(job.runAt.getTime()).toBeGreaterThan(started + SAFETY_DELAY_MS - 1_000);
    }
    for (const d of handedOver)
      expect(new Date(d.next_attempt_at ?? 0).getTime()).toBeGreaterThan(started + SAFETY_DELAY_MS - 1_000);
    const batches = jobs.filter((j) => j.key === null);
    expect(batches.map((j) => j.payload)).toEqual([
      { companyId, endpointId: slowEndpoint.id, deliveryIds: notStarted.map((d) => d.id), trigger: 'scheduled' },
    ]);

    // A new event meanwhile: the slow endpoint gets a delivery job (it was handed over), the fast one is sent.
    const [next] = await recordEvents(companyId, 1);
    expect(await fanout(state, { companyId, eventId: next }, LOCAL_SENDING)).toEqual(
      expect.arrayContaining(['queued', 'succeeded']),
    );
    expect(fast.requests).toHaveLength(21);
    expect(slow.stats.ids).toHaveLength(16);

    // The answers come: recorded as the first attempts; the safety jobs then find them settled.
    answerSlow();
    await state.handedOver.settle();
    const after = await deliveriesOf(companyId);
    for (const d of handedOver) {
      expect(after.find((x) => x.id === d.id)).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    }
    const safetyIds = handedOver.map((d) => d.id);
    expect(
      await deliverBatch(state, { companyId, deliveryIds: safetyIds, trigger: 'scheduled' }, LOCAL_SENDING),
    ).toEqual(safetyIds.map(() => 'skipped'));
    expect(slow.stats.ids).toHaveLength(16);
  });

  it(`is sent through delivery jobs for ${SLOW_ENDPOINT_MS / 1000} s after a handover, then inline again`, async () => {
    const { companyId } = await api.tenant();
    // Slow to its first request only: that send is handed over and marks the endpoint slow.
    const endpointReceiver = await receiver((n) => (n === 1 ? { delayMs: INLINE_WAIT_MS + 300 } : {}));
    await insertEndpoint(api, companyId, { url: endpointReceiver.url });
    const [first, during, stillDuring, after] = await recordEvents(companyId, 4);
    const handedOverAt = Date.now();
    const at = (ms: number) => ({ ...LOCAL_SENDING, now: () => new Date(handedOverAt + ms) });

    expect(await fanout(state, { companyId, eventId: first }, at(0))).toEqual(['in_flight']);
    expect(await fanout(state, { companyId, eventId: during }, at(1_000))).toEqual(['queued']);
    expect(await fanout(state, { companyId, eventId: stillDuring }, at(SLOW_ENDPOINT_MS - 1_000))).toEqual(['queued']);
    await state.handedOver.settle();
    // The mark has expired (the clock of the sending options decides): sent at once, answered, written.
    expect(await fanout(state, { companyId, eventId: after }, at(SLOW_ENDPOINT_MS + 2_000))).toEqual(['succeeded']);
    expect(endpointReceiver.requests.map((r) => r.headers['webhook-id'])).toEqual([first, after]);
  });

  it(`is not marked slow by a send started less than ${SLOW_SEND_MS} ms before the wait was over`, async () => {
    const { companyId } = await api.tenant();
    // The 16 sends in flight at once are answered once all 16 arrived; the 17th then starts, and the wait ends as it
    // arrives: still in flight then, started just before (a long batch on a busy machine, not a slow endpoint). The
    // test ends the wait itself, so no machine is too slow to answer the 16 within a real second.
    let releaseSixteen = () => {};
    const sixteenAnswered = new Promise<void>((resolve) => {
      releaseSixteen = resolve;
    });
    let seventeenthArrived = () => {};
    const waitOver = new Promise<void>((resolve) => {
      seventeenthArrived = resolve;
    });
    let releaseSeventeenth = () => {};
    const seventeenthAnswered = new Promise<void>((resolve) => {
      releaseSeventeenth = resolve;
    });
    const endpointReceiver = await receiver((n) => {
      if (n === 16) releaseSixteen();
      if (n === 17) seventeenthArrived();
      return n <= 16 ? { heldUntil: sixteenAnswered } : n === 17 ? { heldUntil: seventeenthAnswered } : {};
    });
    await insertEndpoint(api, companyId, { url: endpointReceiver.url });
    const eventIds = await recordEvents(companyId, 17);

    const outcomes = await fanoutEvents(state, companyId, eventIds, { ...LOCAL_SENDING, inlineWaitOver: waitOver });
    releaseSeventeenth();
    expect(outcomes).toEqual(eventIds.map(() => 1));
    expect(endpointReceiver.requests).toHaveLength(17);
    const deliveries = await deliveriesOf(companyId);
    expect(deliveries.filter((d) => d.status === 'succeeded')).toHaveLength(16);
    expect(deliveries.filter((d) => d.status === 'pending')).toHaveLength(1);

    // Handed over, but the endpoint was not slow: the next event is sent at once.
    const [next] = await recordEvents(companyId, 1);
    expect(await fanout(state, { companyId, eventId: next }, LOCAL_SENDING)).toEqual(['succeeded']);
    await state.handedOver.settle();
    expect((await deliveriesOf(companyId)).every((d) => d.status === 'succeeded')).toBe(true);
  });
});
