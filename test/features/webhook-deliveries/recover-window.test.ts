// The window of a recovery, exactly: stored times are whole milliseconds, so `since` and `until` finer than
// that are compared as the next whole millisecond (as filter[created_since] is); and a repeat with the same
// Idempotency-Key replays the first answer even when the window would no longer be accepted.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { createCustomer, deliveriesOf, insertEndpoint, runDueJobs } from './support.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A company with one failed delivery (logged while the endpoint was disabled) created at `createdAt`. */
async function failedDeliveryAt(createdAt: Date) {
  const { companyId, key } = await api.tenant();
  const { id: endpointId } = await insertEndpoint(api, companyId, {
    url: 'http://127.0.0.1:9/hook',
    status: 'disabled',
  });
  await createCustomer(api, key);
  await runDueJobs(api, companyId);
  const [delivery] = await deliveriesOf(api, endpointId);
  expect(delivery.status).toBe('failed');
  await api.sql`update webhook_deliveries set created_at = ${createdAt.toISOString()}::timestamptz where id = ${delivery.id}`;
  await api.sql`update webhook_endpoints set status = 'active' where id = ${endpointId}`;
  const recover = (body: unknown, headers: Record<string, string> = {}) =>
    api.call('recoverWebhookEndpoint', { key, params: { endpoint: endpointId }, body, headers });
  return { recover };
}

/** `at` plus half a millisecond, written with microseconds: `…T09:30:00.123500Z`. */
const halfMsAfter = (at: Date) => at.toISOString().replace('Z', '500Z');

describe('a since or until finer than a millisecond', () => {
  const createdAt = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);

  it('since half a millisecond after the delivery leaves it out (it was created before that moment)', async () => {
    const { recover } = await failedDeliveryAt(createdAt);
    const res = await recover({ since: halfMsAfter(createdAt) });
    expect(res.status).toBe(202);
    expect(res.body.data.queued).toBe(0);
    // The window applied, in the service's millisecond precision: from the next whole millisecond.
    expect(res.body.data.since).toBe(new Date(createdAt.getTime() + 1).toISOString());
  });

  it('until half a millisecond after the delivery takes it in (it was created before that moment)', async () => {
    const { recover } = await failedDeliveryAt(createdAt);
    const since = new Date(createdAt.getTime() - HOUR).toISOString();
    const res = await recover({ since, until: halfMsAfter(createdAt) });
    expect(res.status).toBe(202);
    expect(res.body.data.queued).toBe(1);
    expect(res.body.data.until).toBe(new Date(createdAt.getTime() + 1).toISOString());
  });

  it('whole milliseconds are applied as they are: since at the delivery takes it in, until at it leaves it out', async () => {
    const { recover } = await failedDeliveryAt(createdAt);
    const since = new Date(createdAt.getTime() - HOUR).toISOString();
    const excluded = await recover({ since, until: createdAt.toISOString() });
    expect([excluded.status, excluded.body.data.queued]).toEqual([202, 0]);
    expect(excluded.body.data).toMatchObject({ since, until: createdAt.toISOString() });
    const included = await recover({ since: createdAt.toISOString() });
    expect([included.status, included.body.data.queued]).toEqual([202, 1]);
    expect(included.body.data.since).toBe(createdAt.toISOString());
  });

  it('an until rounded up past the last millisecond of 9999 is that millisecond; one in year 10000 by its offset is refused', async () => {
    const { recover } = await failedDeliveryAt(createdAt);
    const since = new Date(createdAt.getTime() - HOUR).toISOString();
    const rounded = await recover({ since, until: '9999-12-31T23:59:59.9999Z' });
    expect(rounded.status).toBe(202);
    expect(rounded.body.data.until).toBe('9999-12-31T23:59:59.999Z');
    // Year 10000 in UTC: outside the years 1 to 9999 of every date and time field (422, never a 500).
    const past = await recover({ since, until: '9999-12-31T23:59:59-01:00' });
    expect(past.status).toBe(422);
    expect(JSON.stringify(past.body)).toContain('/until');
  });
});

describe('a repeat with the same Idempotency-Key', () => {
  it('replays the 202 even once since has become older than 30 days', async () => {
    const { recover } = await failedDeliveryAt(new Date(Date.now() - HOUR));
    // Only Date is simulated: the database, timers and the driver keep the real time.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const since = new Date(Date.now() - 30 * DAY + 1500).toISOString();
    const headers = { 'Idempotency-Key': 'recover-at-the-edge' };
    const first = await recover({ since }, headers);
    expect(first.status).toBe(202);
    expect(first.body.data.queued).toBe(1);

    vi.setSystemTime(Date.now() + 60_000);
    // Without the key the same window is now refused: the repeat must not be validated again.
    expect((await recover({ since })).status).toBe(422);
    const again = await recover({ since }, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});
