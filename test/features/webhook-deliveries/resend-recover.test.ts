// Sending again: a resend is one extra attempt (trigger manual_resend) that leaves state and schedule alone
// unless it succeeds; a recovery queues every failed delivery of a window, oldest first (trigger recovery).
import { beforeAll, describe, expect, it } from 'vitest';
import { DELIVER_TASK } from '../../../src/webhooks/delivery-job-key.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import {
  type Answer,
  createCustomer,
  deliveriesOf,
  deliverJobsOf,
  insertEndpoint,
  jobsOf,
  receiver,
  runDueJobs,
} from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

const HOUR = 3600_000;

/** A company whose receiver answers what `state.answer` says at the moment. */
async function setup() {
  const { companyId, key } = await api.tenant();
  const state: { answer: Answer } = { answer: { status: 500 } };
  const hook = await receiver(() => state.answer);
  const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
  return { companyId, key, hook, endpointId, state };
}

const triggersOf = async (deliveryId: string) =>
  (
    await api.sql`select trigger, status from webhook_attempts where delivery_id = ${deliveryId} order by attempt_number`
  ).map((a) => `${a.trigger}:${a.status}`);

describe('resendWebhookDelivery', () => {
  it('resends a failed delivery: 202 pending now; a failure leaves it failed, a success settles it', async () => {
    const { companyId, key, hook, endpointId, state } = await setup();
    await createCustomer(api, key);
    // All eight scheduled attempts fail (a clock far enough ahead for each retry).
    let clock = new Date();
    for (let i = 0; i < 8; i++) {
      await runDueJobs(api, companyId, { now: clock });
      clock = new Date(clock.getTime() + 11 * HOUR);
    }
    const [delivery] = await deliveriesOf(api, endpointId);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 8 });

    const before = Date.now();
    const res = await api.call('resendWebhookDelivery', {
      key,
      params: { endpoint: endpointId, delivery: delivery.id },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id: delivery.id, status: 'pending', attempt_count: 8 });
    expect(Date.parse(res.body.data.next_attempt_at)).toBeGreaterThanOrEqual(before - 1);
    expect(await deliverJobsOf(api, delivery.id)).toEqual([
      expect.objectContaining({
        task: DELIVER_TASK,
        key: null,
        payload: { companyId, deliveryId: delivery.id, trigger: 'manual_resend', endpointId },
      }),
    ]);

    expect(await runDueJobs(api, companyId)).toEqual(['failed']);
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({
      status: 'failed',
      attempt_count: 9,
      next_attempt_at: null,
    });
    expect(await jobsOf(api, companyId)).toEqual([]);

    state.answer = { status: 200 };
    await api.call('resendWebhookDelivery', { key, params: { endpoint: endpointId, delivery: delivery.id } });
    expect(await runDueJobs(api, companyId)).toEqual(['succeeded']);
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({ status: 'succeeded', attempt_count: 10 });
    expect((await triggersOf(delivery.id)).slice(-2)).toEqual(['manual_resend:failed', 'manual_resend:succeeded']);
    expect(new Set(hook.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(hook.requests).toHaveLength(10);
  });

  it('a failed resend of a pending delivery keeps its retry schedule; retries do not count resends', async () => {
    const { companyId, key, endpointId } = await setup();
    await createCustomer(api, key);
    const t0 = new Date();
    await runDueJobs(api, companyId, { now: t0 }); // scheduled attempt 1 fails: retry at t0 + 5 s
    const [delivery] = await deliveriesOf(api, endpointId);
    const [retry] = await deliverJobsOf(api, delivery.id);

    await api.call('resendWebhookDelivery', { key, params: { endpoint: endpointId, delivery: delivery.id } });
    expect(await runDueJobs(api, companyId, { now: t0 })).toEqual(['retrying']);
    const after = await deliveriesOf(api, endpointId);
    expect(after[0]).toMatchObject({ status: 'pending', attempt_count: 2, next_attempt_at: delivery.next_attempt_at });
    expect(await deliverJobsOf(api, delivery.id)).toEqual([
      expect.objectContaining({ id: retry.id, runAt: retry.runAt }),
    ]);

    // The scheduled retry (the 2nd scheduled attempt, 3rd attempt) is followed by the 5-minute delay.
    await runDueJobs(api, companyId, { now: retry.runAt });
    const [next] = await deliverJobsOf(api, delivery.id);
    expect(next.runAt.getTime()).toBe(retry.runAt.getTime() + 300_000);
    expect(await triggersOf(delivery.id)).toEqual(['scheduled:failed', 'manual_resend:failed', 'scheduled:failed']);
  });

  it('a repeat with the same Idempotency-Key replays the answer and queues no second attempt', async () => {
    const { companyId, key, endpointId } = await setup();
    await createCustomer(api, key);
    await runDueJobs(api, companyId); // attempt 1 fails: a retry is scheduled
    const [delivery] = await deliveriesOf(api, endpointId);
    const resend = (idempotencyKey: string) =>
      api.call('resendWebhookDelivery', {
        key,
        params: { endpoint: endpointId, delivery: delivery.id },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    const manualJobs = async () =>
      (await deliverJobsOf(api, delivery.id)).filter((j) => j.payload.trigger === 'manual_resend');

    const first = await resend('resend-1');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await resend('resend-1');
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await manualJobs()).toHaveLength(1);

    // Another key is another request.
    expect((await resend('resend-2')).status).toBe(202);
    expect(await manualJobs()).toHaveLength(2);
  });
});

describe('recoverWebhookEndpoint', () => {
  it('queues every failed delivery of the window oldest first; they are sent in that order, once', async () => {
    const { companyId, key, hook, endpointId, state } = await setup();
    await api.sql`update webhook_endpoints set status = 'disabled', disabled_reason = 'disabled_by_user' where id = ${endpointId}`;
    // While disabled, events are logged as failed deliveries without attempts.
    for (let i = 0; i < 3; i++) await createCustomer(api, key);
    await runDueJobs(api, companyId);
    const logged = await deliveriesOf(api, endpointId);
    expect(logged.map((d) => [d.status, d.attempt_count])).toEqual([
      ['failed', 0],
      ['failed', 0],
      ['failed', 0],
    ]);
    // The oldest one falls before the window.
    const [{ created_at: windowStart }] =
      await api.sql`select created_at from webhook_deliveries where id = ${logged[1].id}`;

    await api.sql`update webhook_endpoints set status = 'active', disabled_reason = null where id = ${endpointId}`;
    state.answer = { status: 204, body: '' };
    const res = await api.call('recoverWebhookEndpoint', {
      key,
      params: { endpoint: endpointId },
      body: { since: new Date(windowStart).toISOString() },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      object: 'webhook_recovery',
      endpoint_id: endpointId,
      since: new Date(windowStart).toISOString(),
      queued: 2,
    });
    const jobs = await jobsOf(api, companyId);
    expect(jobs.map((j) => [j.payload.deliveryId, j.payload.trigger])).toEqual([
      [logged[1].id, 'recovery'],
      [logged[2].id, 'recovery'],
    ]);
    // They carry their endpoint: the worker postpones them while it is busy (src/webhooks/jobs/webhook-deliver.ts).
    expect(jobs.every((j) => j.payload.endpointId === endpointId)).toBe(true);
    expect((await deliveriesOf(api, endpointId)).map((d) => d.status)).toEqual(['failed', 'pending', 'pending']);

    const again = await api.call('recoverWebhookEndpoint', {
      key,
      params: { endpoint: endpointId },
      body: { since: new Date(windowStart).toISOString() },
    });
    expect(again.body.data.queued).toBe(0);

    expect(await runDueJobs(api, companyId)).toEqual(['succeeded', 'succeeded']);
    const [, second, third] =
      await api.sql`select event_id from webhook_deliveries where endpoint_id = ${endpointId} order by created_at, id`;
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual([second.event_id, third.event_id]);
    expect(await triggersOf(logged[1].id)).toEqual(['recovery:succeeded']);
  });

  it('a recovered delivery that fails again is failed again, with no new schedule', async () => {
    const { companyId, key, endpointId } = await setup();
    await api.sql`update webhook_endpoints set status = 'disabled' where id = ${endpointId}`;
    await createCustomer(api, key);
    await runDueJobs(api, companyId);
    await api.sql`update webhook_endpoints set status = 'active' where id = ${endpointId}`;
    const since = new Date(Date.now() - HOUR).toISOString();
    const res = await api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body: { since } });
    expect(res.body.data.queued).toBe(1);
    expect(await runDueJobs(api, companyId)).toEqual(['failed']);
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      next_attempt_at: null,
    });
    expect(await jobsOf(api, companyId)).toEqual([]);
  });

  it('replaces a retry left over from before the endpoint was disabled (no revived schedule)', async () => {
    const { companyId, key, endpointId } = await setup();
    await createCustomer(api, key);
    await runDueJobs(api, companyId); // attempt 1 fails; a retry is queued
    const [delivery] = await deliveriesOf(api, endpointId);
    expect(await deliverJobsOf(api, delivery.id)).toHaveLength(1);
    // Disabled (pending deliveries fail) and re-enabled: the old retry is still in the queue.
    await api.sql`update webhook_endpoints set status = 'disabled' where id = ${endpointId}`;
    await api.sql`update webhook_deliveries set status = 'failed', next_attempt_at = null where id = ${delivery.id}`;
    await api.sql`update webhook_endpoints set status = 'active' where id = ${endpointId}`;

    const since = new Date(Date.now() - HOUR).toISOString();
    await api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body: { since } });
    const jobs = await deliverJobsOf(api, delivery.id);
    expect(jobs.map((j) => j.payload.trigger)).toEqual(['recovery']);
  });

  it('replays the answer for a repeated Idempotency-Key', async () => {
    const { key, endpointId } = await setup();
    const since = new Date(Date.now() - HOUR).toISOString();
    const send = () =>
      api.call('recoverWebhookEndpoint', {
        key,
        params: { endpoint: endpointId },
        body: { since },
        headers: { 'Idempotency-Key': 'recover-1' },
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });
});
