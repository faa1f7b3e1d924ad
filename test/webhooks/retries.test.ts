// The retry schedule with a controllable clock (the tasks' `now`): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h
// after each failure, scheduled by the task itself; the same webhook-id on every attempt; and disabling an
// endpoint after 5 days of nothing but failures, with an email to the company's administrators.
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  deliveriesOf,
  deliverJobsOf,
  insertEndpoint,
  jobsOf,
  latestEventId,
  receiver,
  runDueJobs,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
const later = (date: Date, ms: number) => new Date(date.getTime() + ms);

const attemptsOf = (deliveryId: string) =>
  api.sql`select attempt_number, trigger, status, status_code, error, response_body
          from webhook_attempts where delivery_id = ${deliveryId} order by attempt_number`;

const endpointRow = async (endpointId: string) =>
  (
    await api.sql`select status, disabled_reason, disabled_at, failing_since from webhook_endpoints where id = ${endpointId}`
  )[0];

describe('the retry schedule', () => {
  it('queues attempt n+1 at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after failure n; fails after the 8th', async () => {
    const { companyId, key } = await api.tenant();
    const hook = await receiver(() => ({ status: 500, body: 'down' }));
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
    await createCustomer(api, key);

    let clock = new Date();
    let deliveryId = '';
    const delays = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
    for (const [n, delay] of delays.entries()) {
      expect(await runDueJobs(api, companyId, { now: clock })).toEqual(['retrying']);
      deliveryId ||= (await deliveriesOf(api, endpointId))[0].id;
      const [job] = await deliverJobsOf(api, deliveryId);
      expect(job.runAt.getTime(), `after attempt ${n + 1}`).toBe(clock.getTime() + delay);
      expect(job.payload).toEqual({ companyId, deliveryId, trigger: 'scheduled', endpointId });
      // Not due a millisecond earlier: nothing runs.
      expect(await runDueJobs(api, companyId, { now: later(clock, delay - 1) })).toEqual([]);
      const [delivery] = await deliveriesOf(api, endpointId);
      expect(delivery).toMatchObject({ status: 'pending', attempt_count: n + 1 });
      expect(new Date(delivery.next_attempt_at ?? 0).getTime()).toBe(job.runAt.getTime());
      clock = job.runAt;
    }
    expect(await runDueJobs(api, companyId, { now: clock })).toEqual(['failed']);
    expect(await jobsOf(api, companyId)).toEqual([]);
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({
      status: 'failed',
      attempt_count: 8,
      next_attempt_at: null,
    });
    const attempts = await attemptsOf(deliveryId);
    expect(attempts.map((a) => [a.attempt_number, a.trigger, a.status, a.status_code, a.error])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'scheduled', 'failed', 500, 'http_status']),
    );
    expect(hook.requests).toHaveLength(8);
  });

  it('a receiver failing 3 times then answering gets the same webhook-id each time and ends succeeded', async () => {
    const { companyId, key } = await api.tenant();
    const hook = await receiver((n) => (n <= 3 ? { status: 503, body: `busy ${n}` } : { status: 204, body: '' }));
    const { id: endpointId, secret } = await insertEndpoint(api, companyId, { url: hook.url });
    const customer = await createCustomer(api, key);
    const eventId = await latestEventId(api, customer.id);

    let clock = new Date();
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(...(await runDueJobs(api, companyId, { now: clock })));
      clock = later(clock, 3 * HOUR); // past every delay of the first three retries
    }
    expect(outcomes).toEqual(['retrying', 'retrying', 'retrying', 'succeeded']);
    expect(hook.requests.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId, eventId]);
    // Each attempt is signed anew for its own timestamp (the clock is simulated, so compare with the library's
    // signature for that timestamp rather than verify against the real time).
    const webhook = new Webhook(secret);
    for (const r of hook.requests) {
      const timestamp = new Date(Number(r.headers['webhook-timestamp']) * 1000);
      expect(r.headers['webhook-signature']).toBe(webhook.sign(eventId, timestamp, r.body));
    }
    expect(new Set(hook.requests.map((r) => r.headers['webhook-timestamp'])).size).toBe(4);
    expect(new Set(hook.requests.map((r) => r.body)).size).toBe(1);

    const [delivery] = await deliveriesOf(api, endpointId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 4, next_attempt_at: null });
    expect(await attemptsOf(delivery.id)).toEqual([
      {
        attempt_number: 1,
        trigger: 'scheduled',
        status: 'failed',
        status_code: 503,
        error: 'http_status',
        response_body: 'busy 1',
      },
      {
        attempt_number: 2,
        trigger: 'scheduled',
        status: 'failed',
        status_code: 503,
        error: 'http_status',
        response_body: 'busy 2',
      },
      {
        attempt_number: 3,
        trigger: 'scheduled',
        status: 'failed',
        status_code: 503,
        error: 'http_status',
        response_body: 'busy 3',
      },
      {
        attempt_number: 4,
        trigger: 'scheduled',
        status: 'succeeded',
        status_code: 204,
        error: null,
        response_body: '',
      },
    ]);
    expect(await jobsOf(api, companyId)).toEqual([]);
  });
});

describe('disabling after 5 days of only failures', () => {
  async function failingCompany() {
    const { companyId, key } = await api.tenant();
    const hook = await receiver(() => ({ status: 500 }));
    const { id: endpointId } = await insertEndpoint(api, companyId, { url: hook.url });
    return { companyId, key, hook, endpointId };
  }

  /** A new event, fanned out and attempted at `at`, with whatever retries are due by then. */
  async function eventAttemptedAt(api: TestApi, companyId: string, key: string, at: Date) {
    await createCustomer(api, key);
    return runDueJobs(api, companyId, { now: at });
  }

  it('disables the endpoint, fails its pending deliveries and emails the administrators', async () => {
    const { companyId, key, endpointId } = await failingCompany();
    await api.sql`
      insert into users (company_id, name, email, role, is_owner, status) values
        (${companyId}, 'Eigenaar', 'eigenaar@example.nl', null, true, 'active'),
        (${companyId}, 'Beheerder', 'beheer@example.nl', 'administrator', false, 'active'),
        (${companyId}, 'Monteur', 'monteur@example.nl', 'technician', false, 'active'),
        (${companyId}, 'Oud', 'oud@example.nl', 'administrator', false, 'inactive')`;
    const t0 = new Date();
    expect(await eventAttemptedAt(api, companyId, key, t0)).toEqual(['retrying']);
    expect(await eventAttemptedAt(api, companyId, key, later(t0, 2 * DAY))).toContain('retrying');
    // Just under 5 days of failures: still active.
    expect(await eventAttemptedAt(api, companyId, key, later(t0, 5 * DAY - SECOND))).toContain('retrying');
    expect(await endpointRow(endpointId)).toMatchObject({ status: 'active', disabled_reason: null });
    expect(await api.sql`select 1 from outbound_emails where company_id = ${companyId}`).toHaveLength(0);

    const disabledAt = later(t0, 5 * DAY);
    expect(await eventAttemptedAt(api, companyId, key, disabledAt)).toContain('retrying');
    const endpoint = await endpointRow(endpointId);
    expect(endpoint).toMatchObject({ status: 'disabled', disabled_reason: 'failing_for_5_days' });
    expect(new Date(endpoint.disabled_at).getTime()).toBe(disabledAt.getTime());
    const deliveries = await deliveriesOf(api, endpointId);
    expect(deliveries.map((d) => [d.status, d.next_attempt_at])).toEqual(deliveries.map(() => ['failed', null]));

    const emails = await api.sql`select "to", subject, body, kind from outbound_emails where company_id = ${companyId}`;
    expect(emails).toHaveLength(1);
    expect([...emails[0].to].sort()).toEqual(['beheer@example.nl', 'eigenaar@example.nl']);
    expect(emails[0]).toMatchObject({ kind: 'webhook_endpoint_disabled', body: expect.stringContaining(endpointId) });

    // The retries still queued find the endpoint disabled and send nothing.
    const stillQueued = (await jobsOf(api, companyId)).length;
    expect(stillQueued).toBeGreaterThan(0);
    expect(await runDueJobs(api, companyId, { now: later(disabledAt, 2 * DAY) })).toEqual(
      Array(stillQueued).fill('skipped'),
    );
  });

  it('a success in between starts the 5-day window again', async () => {
    const { companyId, key, endpointId } = await failingCompany();
    const good = await receiver();
    const t0 = new Date();
    await eventAttemptedAt(api, companyId, key, t0);

    await api.sql`update webhook_endpoints set url = ${good.url} where id = ${endpointId}`;
    // The new event and the first one's retry both get through.
    expect(await eventAttemptedAt(api, companyId, key, later(t0, 3 * DAY))).toEqual(['succeeded', 'succeeded']);
    expect((await endpointRow(endpointId)).failing_since).toBeNull();
    const bad = (await receiver(() => ({ status: 500 }))).url;
    await api.sql`update webhook_endpoints set url = ${bad} where id = ${endpointId}`;

    await eventAttemptedAt(api, companyId, key, later(t0, 4 * DAY));
    // 6 days after the first failure, but only 2 after the failures began again.
    await eventAttemptedAt(api, companyId, key, later(t0, 6 * DAY));
    expect((await endpointRow(endpointId)).status).toBe('active');
    await eventAttemptedAt(api, companyId, key, later(t0, 9 * DAY));
    expect(await endpointRow(endpointId)).toMatchObject({ status: 'disabled', disabled_reason: 'failing_for_5_days' });
  });
});
