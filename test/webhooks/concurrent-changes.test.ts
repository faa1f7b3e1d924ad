// Webhook state under concurrent changes: an attempt answered after another one settled or reopened its delivery,
// DELETE while a fan-out writes, Recover against DELETE and the worker (lock order: deliveries before the
// endpoint), and an event committed while an endpoint is being created. Where timing matters, a lock held from a
// separate connection stops one side at a known point (it stands in for a slow DNS answer, a PATCH, or the worker
// recording an attempt); the repeated variants run the two sides together without it.
import type postgres from 'postgres';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliver } from '../../src/webhooks/delivery-attempts.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { fanout } from '../../src/webhooks/fanout.ts';
import { customerOf, dealOf, pipelineOf } from '../features/deals/fixtures.ts';
import {
  type Answer,
  createCustomer,
  deliveriesOf,
  deliverJobsOf,
  insertEndpoint,
  jobsOf,
  LOCAL_SENDING,
  latestEventId,
  receiver,
  runDueJobs,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { deferred, until } from '../harness/async.ts';
import { waitsForLock as waitsForLockIn } from '../harness/locks.ts';

let api: TestApi;
beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

// The worker's delivery state, fresh for each test.
let state: DeliveryState;
beforeEach(() => {
  state = new DeliveryState(api.db, api.config.publicUrl);
});

const HOUR = 3600_000;

const waitsForLock = (pattern: string) => waitsForLockIn(api.sql, pattern);

/** Settles within `ms` or fails the test with `what` (instead of hanging on a lock until the test's timeout). */
function within<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeUp]).finally(() => clearTimeout(timer));
}

/** A company with one endpoint, one event and its delivery written pending (no job left queued). */
async function pendingDelivery(answer: (n: number) => Answer) {
  const { companyId, key } = await api.tenant();
  const hook = await receiver(answer);
  const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
  const customer = await createCustomer(api, key);
  const eventId = await latestEventId(api, customer.id);
  await fanout(state, { companyId, eventId }); // no sending: pending, with a delivery job
  const [delivery] = await deliveriesOf(api, endpointId);
  await api.sql`delete from graphile_worker._private_jobs where payload->>'companyId' = ${companyId}`;
  return { companyId, key, hook, endpointId, eventId, delivery };
}

describe('an attempt answered after its delivery changed', () => {
  it('a late scheduled failure leaves a delivery a resend settled as succeeded', async () => {
    // The scheduled attempt is answered 500 once the resend, sent meanwhile and answered 200 at once, settled.
    const resendSettled = deferred<void>();
    const { companyId, key, hook, endpointId, delivery } = await pendingDelivery((n) =>
      n === 1 ? { status: 500, heldUntil: resendSettled.promise } : { status: 200 },
    );
    const scheduled = deliver(state, { companyId, deliveryId: delivery.id, trigger: 'scheduled' }, LOCAL_SENDING);
    await until(() => hook.requests.length === 1, 'the scheduled attempt is sent');
    const resend = await api.call('resendWebhookDelivery', {
      key,
      params: { endpoint: endpointId, delivery: delivery.id },
    });
    expect(resend.status).toBe(202);
    const resent = { companyId, deliveryId: delivery.id, trigger: 'manual_resend' as const, endpointId };
    expect(await deliver(state, resent, LOCAL_SENDING)).toBe('succeeded');
    resendSettled.resolve();

    expect(await scheduled).toBe('failed');
    const attempts = await api.sql`select attempt_number, trigger, status from webhook_attempts
      where delivery_id = ${delivery.id} order by attempt_number`;
    expect(attempts.map((a) => `${a.attempt_number}:${a.trigger}:${a.status}`)).toEqual([
      '1:manual_resend:succeeded',
      '2:scheduled:failed',
    ]);
    const got = await api.call('getWebhookDelivery', { key, params: { endpoint: endpointId, delivery: delivery.id } });
    expect(got.body.data).toMatchObject({ status: 'succeeded', attempt_count: 2, next_attempt_at: null });
    // No retry was scheduled (the resend's own job, run by hand above, is all that is queued).
    expect((await deliverJobsOf(api, delivery.id)).map((j) => j.payload.trigger)).toEqual(['manual_resend']);
  });

  it('a late scheduled failure does not replace the one attempt of a recovery with the old schedule', async () => {
    const recoveredFirst = deferred<void>();
    const { companyId, key, hook, endpointId, delivery } = await pendingDelivery((n) =>
      n === 1 ? { status: 500, heldUntil: recoveredFirst.promise } : { status: 200 },
    );
    const scheduled = deliver(state, { companyId, deliveryId: delivery.id, trigger: 'scheduled' }, LOCAL_SENDING);
    await until(() => hook.requests.length === 1, 'the scheduled attempt is sent');
    // While it is in flight: disabled (the delivery fails), enabled again, and recovered (pending again).
    const patch = (status: 'active' | 'disabled') =>
      api.call('updateWebhookEndpoint', { key, params: { endpoint: endpointId }, body: { status } });
    expect((await patch('disabled')).status).toBe(200);
    expect((await patch('active')).status).toBe(200);
    const since = new Date(Date.now() - HOUR).toISOString();
    const recovered = await api.call('recoverWebhookEndpoint', {
      key,
      params: { endpoint: endpointId },
      body: { since },
    });
    expect(recovered.body.data.queued).toBe(1);
    recoveredFirst.resolve();

    expect(await scheduled).toBe('retrying'); // the 500 arrives: logged, nothing else
    expect((await deliverJobsOf(api, delivery.id)).map((j) => j.payload.trigger)).toEqual(['recovery']);
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({ status: 'pending', attempt_count: 1 });

    expect(await runDueJobs(api, companyId)).toEqual(['succeeded']);
    const attempts = await api.sql`select trigger, status from webhook_attempts
      where delivery_id = ${delivery.id} order by attempt_number`;
    expect(attempts.map((a) => `${a.trigger}:${a.status}`)).toEqual(['scheduled:failed', 'recovery:succeeded']);
  });
});

describe('DELETE while a fan-out writes', () => {
  it('leaves no delivery of the deleted endpoint behind (the DELETE held between its steps)', async () => {
    const { companyId, key } = await api.tenant();
    const hook = await receiver(() => ({ status: 200 }));
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
    const customer = await createCustomer(api, key);
    const eventId = await latestEventId(api, customer.id);

    // The endpoint's row lock, held elsewhere, stops the DELETE after its first pass over the delivery log.
    const holder = await api.sql.reserve();
    await holder`begin`;
    await holder`select 1 from webhook_endpoints where id = ${endpointId} for update`;
    const deleting = api.call('deleteWebhookEndpoint', { key, params: { endpoint: endpointId } });
    await until(() => waitsForLock('%webhook_endpoints%for update%'), 'the DELETE waits for the endpoint');
    // The fan-out writes its delivery now, or waits for the endpoint until the DELETE is through.
    let written = false;
    const fanningOut = fanout(state, { companyId, eventId }).finally(() => {
      written = true;
    });
    // (The statement's text as pg_stat_activity keeps it: its first kilobyte.)
    const write = '%with input as%json_to_recordset%';
    await until(async () => written || (await waitsForLock(write)), 'the fan-out writes or waits');
    await holder`commit`;
    holder.release();
    expect((await deleting).status).toBe(200);
    await fanningOut;

    expect(await api.sql`select id from webhook_deliveries where endpoint_id = ${endpointId}`).toEqual([]);
    const listed = await api.call('listEventDeliveries', { key, params: { event: eventId } });
    expect(listed.body.data).toEqual([]);
  });

  it('leaves none behind when the two run together, again and again', async () => {
    const { companyId, key } = await api.tenant();
    const hook = await receiver(() => ({ status: 200 }));
    const left: number[] = [];
    for (let i = 0; i < 30; i++) {
      const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
      const customer = await createCustomer(api, key);
      const eventId = await latestEventId(api, customer.id);
      const [deleted] = await Promise.all([
        api.call('deleteWebhookEndpoint', { key, params: { endpoint: endpointId } }),
        new Promise((r) => setTimeout(r, i % 4)).then(() => fanout(state, { companyId, eventId })),
      ]);
      expect(deleted.status).toBe(200);
      const [row] = await api.sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId}`;
      left.push(row.n);
    }
    expect(left.filter((n) => n > 0)).toEqual([]);
  });
});

describe('Recover against DELETE and the worker', () => {
  async function endpointWithFailedDeliveries(n: number) {
    const { companyId, key } = await api.tenant();
    const hook = await receiver(() => ({ status: 500 }));
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
    for (let i = 0; i < n; i++) {
      const customer = await createCustomer(api, key);
      await fanout(state, { companyId, eventId: await latestEventId(api, customer.id) });
    }
    await api.sql`delete from graphile_worker._private_jobs where payload->>'companyId' = ${companyId}`;
    await api.sql`update webhook_deliveries set status = 'failed', next_attempt_at = null
      where endpoint_id = ${endpointId}`;
    return { companyId, key, endpointId, deliveries: await deliveriesOf(api, endpointId) };
  }
  const since = () => new Date(Date.now() - HOUR).toISOString();

  it('Recover and DELETE overlapping on a delivery someone holds: DELETE 200, Recover 202 or 404, no deadlock', async () => {
    const { key, endpointId, deliveries } = await endpointWithFailedDeliveries(3);
    const holder = await api.sql.reserve();
    await holder`begin`;
    await holder`select 1 from webhook_deliveries where id = ${deliveries[0].id} for update`;
    const deleting = api.call('deleteWebhookEndpoint', { key, params: { endpoint: endpointId } });
    await until(() => waitsForLock('%delete from "webhook_deliveries"%'), 'the DELETE waits for the delivery');
    const body = { since: since() };
    const recovering = api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body });
    await until(() => waitsForLock('%with picked as%'), 'the Recover waits for the delivery');
    await holder`commit`;
    holder.release();
    const [deleted, recovered] = await Promise.all([deleting, recovering]);
    expect(deleted.status).toBe(200);
    expect([202, 404]).toContain(recovered.status);
  });

  it('Recover and DELETE sent together, again and again: never a 500', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { key, endpointId } = await endpointWithFailedDeliveries(20);
      const [recovered, deleted] = await Promise.all([
        api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body: { since: since() } }),
        new Promise((r) => setTimeout(r, i % 3)).then(() =>
          api.call('deleteWebhookEndpoint', { key, params: { endpoint: endpointId } }),
        ),
      ]);
      statuses.push(`recover ${recovered.status} delete ${deleted.status}`);
    }
    expect(statuses.filter((s) => s.includes('500'))).toEqual([]);
  });

  it('the worker records a failed resend while a Recover waits: both finish', async () => {
    const { companyId, key, endpointId, deliveries } = await endpointWithFailedDeliveries(2);
    const [older, resent] = deliveries;
    const holder = await api.sql.reserve();
    await holder`begin`;
    await holder`select 1 from webhook_deliveries where id = ${older.id} for update`;
    const body = { since: since() };
    const recovering = api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body });
    await until(() => waitsForLock('%with picked as%'), 'the Recover waits for the older delivery');
    // The recording locks its delivery, then the endpoint (a failure): the Recover holds neither yet.
    const resend = { companyId, deliveryId: resent.id, trigger: 'manual_resend' as const };
    expect(await within(deliver(state, resend, LOCAL_SENDING), 'recording the failed resend')).toBe('failed');
    await holder`commit`;
    holder.release();
    expect((await recovering).status).toBe(202);
  });
});

describe('an event recorded while an endpoint is being created', () => {
  // The creation holds the company's endpoint lock from before it takes its time until it commits; recording an
  // event takes that lock shared (migration 0019). A change pauses after recording its event while it waits for
  // its deal's customer, held from another connection; the creation is paused with the endpoints table held.

  /** Starts a deal update that records its event, then waits for the customer held by `holder`. */
  async function pausedChange(key: string, dealId: string, customerId: string, holder: postgres.ReservedSql) {
    await holder`begin`;
    await holder`select 1 from customers where id = ${customerId} for update`;
    return api.call('updateDeal', { key, params: { deal: dealId }, body: { title: 'Meanwhile' } });
  }
  const eventOf = async (dealId: string) =>
    (
      await api.sql`select id, created_at from events where type = 'deal.updated' and data->'object'->>'id' = ${dealId}`
    )[0] as { id: string; created_at: Date };
  const fanoutsOf = async (companyId: string, eventId: string) =>
    (await jobsOf(api, companyId)).filter((j) => j.payload.eventId === eventId);

  it('an event newer than the company’s first endpoint, committed after it, is fanned out', async () => {
    const { companyId, key } = await api.tenant();
    await pipelineOf(api, companyId);
    const customer = await customerOf(api, key);
    const deal = await dealOf(api, key, { customer_id: customer });
    const tables = await api.sql.reserve();
    const customers = await api.sql.reserve();
    try {
      await tables`begin`;
      await tables`lock table webhook_endpoints in share mode`;
      const creating = api.call('createWebhookEndpoint', {
        key,
        body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      });
      await until(() => waitsForLock('%insert into "webhook_endpoints"%'), 'the creation took its time and waits');
      await new Promise((r) => setTimeout(r, 5));
      const changing = pausedChange(key, deal.id, customer, customers);
      await until(() => waitsForLock('%app_has_webhook_endpoint%'), 'the change waits for the creation');
      await tables`commit`;
      const created = await creating;
      expect(created.status).toBe(201);
      await customers`commit`;
      expect((await changing).status).toBe(200);

      const event = await eventOf(deal.id);
      expect(new Date(event.created_at).getTime()).toBeGreaterThan(Date.parse(created.body.data.created_at));
      expect(await fanoutsOf(companyId, event.id)).toHaveLength(1);
    } finally {
      for (const held of [tables, customers]) {
        await held`rollback`.catch(() => {});
        held.release();
      }
    }
  });

  it.each([
    ['the company’s first endpoint', false],
    ['an endpoint beside another one', true],
  ])('an event older than %s does not reach it', async (_, withOther) => {
    const { companyId, key } = await api.tenant();
    await pipelineOf(api, companyId);
    const customer = await customerOf(api, key);
    const deal = await dealOf(api, key, { customer_id: customer });
    const hook = await receiver(() => ({ status: 200 }));
    if (withOther) {
      const other = await receiver(() => ({ status: 200 }));
      expect((await api.call('createWebhookEndpoint', { key, body: { url: other.url, events: ['*'] } })).status).toBe(
        201,
      );
    }
    const customers = await api.sql.reserve();
    try {
      // The change records its event (holding the lock shared) before the creation starts; the creation waits.
      const changing = pausedChange(key, deal.id, customer, customers);
      await until(() => waitsForLock('%customers%'), 'the change recorded its event and waits');
      const creating = api.call('createWebhookEndpoint', { key, body: { url: hook.url, events: ['*'] } });
      await until(() => waitsForLock('%pg_advisory_xact_lock%'), 'the creation waits for the change');
      await customers`commit`;
      expect((await changing).status).toBe(200);
      const created = await creating;
      expect(created.status).toBe(201);

      const event = await eventOf(deal.id);
      expect(new Date(event.created_at).getTime()).toBeLessThan(Date.parse(created.body.data.created_at));
      await runDueJobs(api, companyId);
      expect(hook.requests.filter((r) => r.headers['webhook-id'] === event.id)).toEqual([]);
    } finally {
      await customers`rollback`.catch(() => {});
      customers.release();
    }
  });
});

describe('a failure recorded while a success of the same endpoint waits to be written', () => {
  it('does not disable an endpoint that failed for 5 days but has just answered 2xx', async () => {
    const { companyId, key } = await api.tenant();
    const other = await receiver(() => ({ status: 200 }));
    const hook = await receiver((n) => (n === 1 ? { status: 200 } : { status: 500 }));
    const { id: otherId } = await insertEndpoint(api, companyId, { url: other.url });
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
    for (let i = 0; i < 2; i++) {
      const customer = await createCustomer(api, key);
      await fanout(state, { companyId, eventId: await latestEventId(api, customer.id) });
    }
    await api.sql`delete from graphile_worker._private_jobs where payload->>'companyId' = ${companyId}`;
    await api.sql`update webhook_endpoints set failing_since = now() - interval '6 days' where id = ${endpointId}`;
    const [toOther] = await deliveriesOf(api, otherId);
    const [first, second] = await deliveriesOf(api, endpointId);
    const attempt = (deliveryId: string) =>
      deliver(state, { companyId, deliveryId, trigger: 'scheduled' }, LOCAL_SENDING);

    // The company's batch of attempts is held (a lock on the other endpoint's delivery, standing in for a DELETE or
    // resend of it), so the endpoint's success waits in the next batch when its failure comes in: the two are
    // written together, or the failure after the success.
    const holder = await api.sql.reserve();
    await holder`begin`;
    await holder`select 1 from webhook_deliveries where id = ${toOther.id} for update`;
    const held = attempt(toOther.id);
    await until(() => waitsForLock('%from webhook_deliveries%for update%'), 'the batch of attempts waits');
    const succeeded = attempt(first.id);
    await until(() => hook.requests.length === 1, 'the endpoint answered 2xx');
    const failed = attempt(second.id);
    await until(() => hook.requests.length === 2, 'the endpoint answered 500');
    await holder`commit`;
    holder.release();
    expect([await held, await succeeded, await failed]).toEqual(['succeeded', 'succeeded', 'retrying']);

    const got = await api.call('getWebhookEndpoint', { key, params: { endpoint: endpointId } });
    expect(got.body.data).toMatchObject({ status: 'active', disabled_reason: null });
    expect(await api.sql`select kind from outbound_emails where company_id = ${companyId}`).toEqual([]);
  });
});
