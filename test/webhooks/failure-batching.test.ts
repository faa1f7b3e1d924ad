// Failed attempts are recorded in the company's batches, with the successes (record-attempts.ts): many failures
// to one endpoint take a few transactions, not one each (each used to lock the endpoint's row: ~15 a second,
// docs/drills.md), and every rule of a failure holds inside a batch — contiguous attempt numbers for a delivery
// answered twice, resends and recoveries, late answers, the retry schedule with the delivery's job key, the
// endpoint's health written once, disabling. Which transaction wrote a row is its `xmin`.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverBatch } from '../../src/webhooks/delivery-attempts.ts';
import { DELIVER_TASK, deliveryJobKey } from '../../src/webhooks/delivery-job-key.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { fanoutEvents } from '../../src/webhooks/fanout.ts';
import type { PostResult } from '../../src/webhooks/http-post.ts';
import { type Recording, recordAttempts, type UnwrittenSuccesses } from '../../src/webhooks/record-attempts.ts';
import {
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

let state: DeliveryState;
beforeEach(() => {
  state = new DeliveryState(api.db, api.config.publicUrl);
});

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const noneUnwritten: UnwrittenSuccesses = { hasUnwritten: () => false };

/** A company with one endpoint and `n` pending deliveries to it, queued in one delivery job (none sent). */
async function pendingDeliveries(n: number, url = 'http://127.0.0.1:9/hook') {
  const { companyId } = await api.tenant();
  await api.sql`insert into users (company_id, name, email, role)
    values (${companyId}, 'Beheer', 'beheer@example.nl', 'administrator')`;
  const { id: endpointId } = await insertEndpoint(api, companyId, { url });
  const eventIds = await recordCustomerEvents(api, companyId, n, 'failures@example.nl');
  await fanoutEvents(state, companyId, eventIds);
  const jobs = (await jobsOf(api, companyId)).filter((j) => j.task === DELIVER_TASK);
  const ids = jobs.flatMap((j) => j.payload.deliveryIds as string[]);
  // The test drives the attempts itself.
  await api.sql`delete from graphile_worker._private_jobs where payload->>'companyId' = ${companyId}`;
  return { companyId, endpointId, ids };
}

const failure = (statusCode = 500): PostResult => ({
  statusCode,
  durationMs: 7,
  error: 'http_status',
  responseBody: 'down',
});
const success: PostResult = { statusCode: 200, durationMs: 5, error: null, responseBody: 'ok' };

function answer(
  companyId: string,
  deliveryId: string,
  at: Date,
  result: PostResult,
  more: Partial<Recording> = {},
): Recording {
  return { companyId, deliveryId, url: 'http://127.0.0.1:9/hook', trigger: 'scheduled', result, at, ...more };
}

const attemptsOf = (companyId: string) =>
  api.sql<
    { delivery_id: string; attempt_number: number; trigger: string; status: string; created_at: number; tx: string }[]
  >`select delivery_id, attempt_number, trigger, status, (extract(epoch from created_at) * 1000)::float8 as created_at, xmin::text as tx from webhook_attempts
    where company_id = ${companyId} order by delivery_id, attempt_number`;

const deliveryRow = async (id: string) =>
  (
    await api.sql<{ status: string; attempt_count: number; next_attempt_at: number | null }[]>`
      select status, attempt_count, (extract(epoch from next_attempt_at) * 1000)::float8 as next_attempt_at from webhook_deliveries where id = ${id}`
  )[0];

const endpointRow = async (id: string) =>
  (
    await api.sql<
      {
        status: string;
        disabled_reason: string | null;
        failing_since: number | null;
        last_failure_at: number | null;
        last_success_at: number | null;
        tx: string;
      }[]
    >`select status, disabled_reason, (extract(epoch from failing_since) * 1000)::float8 as failing_since, (extract(epoch from last_failure_at) * 1000)::float8 as last_failure_at,
      (extract(epoch from last_success_at) * 1000)::float8 as last_success_at, xmin::text as tx
      from webhook_endpoints where id = ${id}`
  )[0];

const retriesOf = async (companyId: string) =>
  (await jobsOf(api, companyId)).filter((j) => j.task === DELIVER_TASK && j.payload.deliveryId !== undefined);

describe('failures to one endpoint answered at the same time', () => {
  it('are recorded in a few transactions, not one each, each delivery retried 5 s after its failure', async () => {
    const hook = await receiver(() => ({ status: 500, body: 'down', delayMs: 20 }));
    const { companyId, endpointId, ids } = await pendingDeliveries(64, hook.url);

    const outcomes = await deliverBatch(state, { companyId, deliveryIds: ids, trigger: 'scheduled' }, LOCAL_SENDING);
    expect(outcomes).toEqual(ids.map(() => 'retrying'));

    const attempts = await attemptsOf(companyId);
    expect(attempts.map((a) => [a.delivery_id, a.attempt_number, a.status])).toEqual(
      [...ids].sort().map((id) => [id, 1, 'failed']),
    );
    // One transaction per failure before (64); answers arrive 16 at a time (SENDS_PER_ENDPOINT).
    const transactions = new Set(attempts.map((a) => a.tx)).size;
    expect(transactions).toBeLessThanOrEqual(16);

    // Each delivery: pending, its retry 5 s after its own failure, queued with its job key.
    const retries = await retriesOf(companyId);
    expect(retries).toHaveLength(ids.length);
    for (const a of attempts) {
      const due = a.created_at + 5 * SECOND;
      expect(await deliveryRow(a.delivery_id)).toMatchObject({ status: 'pending', attempt_count: 1 });
      expect((await deliveryRow(a.delivery_id)).next_attempt_at).toBe(due);
      const retry = retries.find((j) => j.payload.deliveryId === a.delivery_id);
      expect(retry).toMatchObject({ key: deliveryJobKey(a.delivery_id) });
      expect(retry?.payload).toEqual({ companyId, deliveryId: a.delivery_id, trigger: 'scheduled', endpointId });
      expect(retry?.runAt.getTime()).toBe(due);
    }

    // The endpoint: failing since the first failure, its last failure the latest.
    const times = attempts.map((a) => a.created_at);
    const endpoint = await endpointRow(endpointId);
    expect(endpoint.failing_since).toBe(Math.min(...times));
    expect(endpoint.last_failure_at).toBe(Math.max(...times));
    expect(endpoint.status).toBe('active');
  });
});

describe('recordAttempts: failures in one batch', () => {
  const t0 = new Date('2030-01-01T10:00:00.000Z');
  const at = (seconds: number) => new Date(t0.getTime() + seconds * SECOND);
  /** The same moment as the rows' milliseconds. */
  const ms = (seconds: number) => at(seconds).getTime();

  it('a delivery answered twice gets contiguous numbers; the resend leaves the schedule alone', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(1);
    const [id] = ids;
    const dueAt = (await deliveryRow(id)).next_attempt_at ?? null;

    const outcomes = await recordAttempts(api.db, noneUnwritten, companyId, [
      answer(companyId, id, at(0), failure(500), { dueAt, endpointId }),
      answer(companyId, id, at(1), failure(502), { trigger: 'manual_resend', endpointId }),
    ]);
    expect(outcomes).toEqual(['retrying', 'retrying']);

    const attempts = await attemptsOf(companyId);
    expect(attempts.map((a) => `${a.attempt_number}:${a.trigger}:${a.status}`)).toEqual([
      '1:scheduled:failed',
      '2:manual_resend:failed',
    ]);
    // One transaction wrote both, and the endpoint once.
    expect(new Set(attempts.map((a) => a.tx)).size).toBe(1);
    expect((await endpointRow(endpointId)).tx).toBe(attempts[0]?.tx);
    // The scheduled failure's retry: 5 s after it, not after the resend.
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', attempt_count: 2, next_attempt_at: ms(5) });
    const retries = await retriesOf(companyId);
    expect(retries.map((j) => [j.key, j.runAt.toISOString()])).toEqual([[deliveryJobKey(id), at(5).toISOString()]]);
  });

  it('a success after a failure of the same delivery settles it; the endpoint is healthy again', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(1);
    const [id] = ids;
    const outcomes = await recordAttempts(api.db, noneUnwritten, companyId, [
      answer(companyId, id, at(0), failure()),
      answer(companyId, id, at(1), success, { trigger: 'manual_resend' }),
    ]);
    expect(outcomes).toEqual(['retrying', 'succeeded']);
    expect((await attemptsOf(companyId)).map((a) => `${a.attempt_number}:${a.status}`)).toEqual([
      '1:failed',
      '2:succeeded',
    ]);
    expect(await deliveryRow(id)).toMatchObject({ status: 'succeeded', attempt_count: 2, next_attempt_at: null });
    expect(await endpointRow(endpointId)).toMatchObject({
      failing_since: null,
      last_failure_at: ms(0),
      last_success_at: ms(1),
    });
  });

  it('the endpoint fails from its first failure after its last success in the batch', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(3);
    await recordAttempts(api.db, noneUnwritten, companyId, [
      answer(companyId, ids[0] as string, at(0), failure()),
      answer(companyId, ids[1] as string, at(1), success),
      answer(companyId, ids[2] as string, at(2), failure()),
    ]);
    expect(await endpointRow(endpointId)).toMatchObject({
      failing_since: ms(2),
      last_failure_at: ms(2),
      last_success_at: ms(1),
    });
  });

  it('the schedule counts scheduled attempts only; after the 8th the delivery fails; recovery and late answers', async () => {
    const { companyId, ids } = await pendingDeliveries(4);
    const [afterResends, last, recovered, late] = ids as [string, string, string, string];
    // Earlier attempts: one scheduled and two resends; seven scheduled.
    const earlier = async (id: string, triggers: string[]) => {
      for (const [i, trigger] of triggers.entries()) {
        await api.sql`insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number,
            trigger, url, status, status_code, duration_ms, created_at)
          select company_id, ${`wa_test${id}${i}`}, id, endpoint_id, event_id, ${i + 1}, ${trigger}, 'http://x', 'failed',
            500, 1, now() from webhook_deliveries where id = ${id}`;
      }
      await api.sql`update webhook_deliveries set attempt_count = ${triggers.length} where id = ${id}`;
    };
    await earlier(afterResends, ['scheduled', 'manual_resend', 'manual_resend']);
    await earlier(
      last,
      Array.from({ length: 7 }, () => 'scheduled'),
    );
    // Reopened while its request was in flight: its due time is no longer the one the job read.
    const dueAt = (await deliveryRow(late)).next_attempt_at ?? 0;
    await api.sql`update webhook_deliveries set next_attempt_at = now() + interval '1 minute' where id = ${late}`;

    const outcomes = await recordAttempts(api.db, noneUnwritten, companyId, [
      answer(companyId, afterResends, at(0), failure()),
      answer(companyId, last, at(0), failure()),
      answer(companyId, recovered, at(0), failure(), { trigger: 'recovery' }),
      answer(companyId, late, at(0), failure(), { dueAt }),
    ]);
    expect(outcomes).toEqual(['retrying', 'failed', 'failed', 'retrying']);

    // The second scheduled failure: 5 min, whatever the resends in between.
    expect(await deliveryRow(afterResends)).toMatchObject({
      status: 'pending',
      attempt_count: 4,
      next_attempt_at: ms(300),
    });
    expect(await deliveryRow(last)).toMatchObject({ status: 'failed', attempt_count: 8, next_attempt_at: null });
    expect(await deliveryRow(recovered)).toMatchObject({ status: 'failed', attempt_count: 1, next_attempt_at: null });
    // Logged, its new due time kept.
    const lateRow = await deliveryRow(late);
    expect(lateRow).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(lateRow.next_attempt_at).toBeGreaterThan(Date.now());
    expect((await retriesOf(companyId)).map((j) => j.payload.deliveryId)).toEqual([afterResends]);
  });

  it('5 days of only failures: disabled once, pending deliveries failed, one email — unless a success is unwritten', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(3);
    await api.sql`update webhook_endpoints set failing_since = ${new Date(t0.getTime() - 6 * DAY).toISOString()} where id = ${endpointId}`;
    const [first, second, third] = ids as [string, string, string];

    // A success of the endpoint waits to be written elsewhere (a fan-out's write): not disabled.
    const unwritten: UnwrittenSuccesses = { hasUnwritten: (id) => id === endpointId };
    expect(await recordAttempts(api.db, unwritten, companyId, [answer(companyId, first, at(0), failure())])).toEqual([
      'retrying',
    ]);
    expect(await endpointRow(endpointId)).toMatchObject({ status: 'active' });

    expect(
      await recordAttempts(api.db, noneUnwritten, companyId, [
        answer(companyId, second, at(1), failure()),
        answer(companyId, third, at(2), failure()),
      ]),
    ).toEqual(['retrying', 'retrying']);
    expect(await endpointRow(endpointId)).toMatchObject({ status: 'disabled', disabled_reason: 'failing_for_5_days' });
    for (const id of ids) expect((await deliveryRow(id)).status).toBe('failed');
    const emails = await api.sql`select kind from outbound_emails where company_id = ${companyId}`;
    expect(emails).toEqual([{ kind: 'webhook_endpoint_disabled' }]);
  });

  it('url_not_allowed disables at once', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(1);
    const refused: PostResult = { statusCode: null, durationMs: 0, error: 'url_not_allowed', responseBody: null };
    expect(
      await recordAttempts(api.db, noneUnwritten, companyId, [answer(companyId, ids[0] as string, at(0), refused)]),
    ).toEqual(['retrying']);
    expect(await endpointRow(endpointId)).toMatchObject({ status: 'disabled', disabled_reason: 'url_not_allowed' });
    expect((await deliveryRow(ids[0] as string)).status).toBe('failed');
  });

  it('a disabling that fails after the batch committed leaves the batch recorded: its answers resolve, nothing is sent twice', async () => {
    const { companyId, endpointId, ids } = await pendingDeliveries(1);
    // The database refuses to disable this one endpoint (as a lost connection or a timeout would).
    await api.sql.unsafe(`
      create function refuse_disabling() returns trigger language plpgsql as $$
        begin raise exception 'disabling refused by the test'; end $$;
      create trigger refuse_disabling before update on webhook_endpoints for each row
        when (new.id = '${endpointId}' and new.status = 'disabled') execute function refuse_disabling()`);
    try {
      const refused: PostResult = { statusCode: null, durationMs: 0, error: 'url_not_allowed', responseBody: null };
      // Before: the batch's answers rejected with the disabling's error, and their jobs ran (and sent) again.
      expect(
        await recordAttempts(api.db, noneUnwritten, companyId, [answer(companyId, ids[0] as string, at(0), refused)]),
      ).toEqual(['retrying']);
      expect((await attemptsOf(companyId)).map((a) => `${a.attempt_number}:${a.status}`)).toEqual(['1:failed']);
      expect(await endpointRow(endpointId)).toMatchObject({ status: 'active' });
    } finally {
      await api.sql.unsafe('drop trigger refuse_disabling on webhook_endpoints; drop function refuse_disabling()');
    }
  });
});
