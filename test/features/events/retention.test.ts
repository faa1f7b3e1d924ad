// The 30-day retention: the feed (GET /events, GET /events/{id}) and webhooks stop at 30 days, but a
// customer's events stay for its timeline, which the contract says is not purged. The purge removes only
// events on no customer's timeline; the delivery log is purged at 30 days whatever happens to its events.
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { purgeOldEvents } from '../../../src/events/retention.ts';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

/** A new customer of the tenant whose customer.created event happened `age` ago; answers both ids. */
async function customerCreatedAgo(key: string, age: string) {
  const res = await api.call('createCustomer', { key, body: { email: `${crypto.randomUUID()}@example.nl` } });
  expect(res.status).toBe(201);
  const customer: string = res.body.data.id;
  const [{ id }] = await api.sql`select id from events where customer_id = ${customer}`;
  await api.sql`update events set created_at = now() - ${age}::interval where id = ${id}`;
  return { customer, event: id as string };
}

/** An event on no customer's timeline, `age` ago (as superuser: no tenant needed). */
async function eventWithoutCustomer(companyId: string, age: string) {
  const id = `evt_${crypto.randomUUID().replaceAll('-', '').slice(0, 22)}`;
  await api.sql`
    insert into events (company_id, id, type, scope, customer_id, data, created_at)
    values (${companyId}, ${id}, 'customer.updated', 'customers.read', null, '{"object":{}}'::jsonb,
            now() - ${age}::interval)`;
  return id;
}

const stored = async (ids: string[]) =>
  (await api.sql`select id from events where id = any(${ids})`).map((r) => r.id as string).sort();

describe('purgeOldEvents', () => {
  it("keeps a customer's event of 40 days ago: on the timeline, not in the feed nor at GET /events/{id}", async () => {
    const t = await api.tenant();
    const old = await customerCreatedAgo(t.key, '40 days');

    await purgeOldEvents(api.sql);

    expect(await stored([old.event])).toEqual([old.event]);
    const timeline = await api.call('listCustomerTimeline', { key: t.key, params: { customer: old.customer } });
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.map((e: { id: string }) => e.id)).toEqual([old.event]);
    const feed = await api.call('listEvents', {
      key: t.key,
      query: { 'filter[created_since]': '2000-01-01T00:00:00Z' },
    });
    expect(feed.body.data.map((e: { id: string }) => e.id)).not.toContain(old.event);
    const got = await api.call('getEvent', { key: t.key, params: { event: old.event } });
    expect(got.status).toBe(404);
    expect(got.body.code).toBe('not_found');
  });

  it("deletes the old events on no customer's timeline of every company, in batches, and nothing else", async () => {
    const companies = [await api.tenant(), await api.tenant()];
    const old: string[] = [];
    const kept: string[] = [];
    for (const t of companies) {
      for (const age of ['31 days', '400 days']) old.push(await eventWithoutCustomer(t.companyId, age));
      kept.push(await eventWithoutCustomer(t.companyId, '29 days'));
      kept.push((await customerCreatedAgo(t.key, '400 days')).event);
    }
    // Earlier tests may have left old rows too; the purge reaches them as well, in batches smaller than the backlog.
    const before = await api.sql`
      select id from events where created_at < now() - interval '30 days' and customer_id is null`;
    expect(before.map((r) => r.id)).toEqual(expect.arrayContaining(old));

    expect(await purgeOldEvents(api.sql, { batchSize: 2 })).toBe(before.length);

    expect(await stored([...old, ...kept])).toEqual([...kept].sort());
    expect(await purgeOldEvents(api.sql)).toBe(0);
  });
});

describe('purge_events with the delivery log', () => {
  it("deletes a delivery of 31 days ago and its attempt while the customer's event stays", async () => {
    const t = await api.tenant();
    const old = await customerCreatedAgo(t.key, '31 days');
    await api.sql`
      insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, created_at)
      values (${t.companyId}, 'wd_purged', 'we_x', ${old.event}, 'customer.created', 'succeeded',
              now() - interval '31 days')`;
    await api.sql`
      insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger, url,
        status, status_code, duration_ms, created_at)
      values (${t.companyId}, 'wa_purged', 'wd_purged', 'we_x', ${old.event}, 1, 'scheduled', 'https://example.com/',
        'succeeded', 204, 12, now() - interval '31 days')`;

    await taskList(api.deps).purge_events?.({}, {} as JobHelpers);

    expect(await api.sql`select id from webhook_deliveries where id = 'wd_purged'`).toHaveLength(0);
    expect(await api.sql`select id from webhook_attempts where id = 'wa_purged'`).toHaveLength(0);
    expect(await stored([old.event])).toEqual([old.event]);
    // The event is past the feed's 30 days: its deliveries are not found either, as before the purge.
    const deliveries = await api.call('listEventDeliveries', { key: t.key, params: { event: old.event } });
    expect(deliveries.status).toBe(404);
    const timeline = await api.call('listCustomerTimeline', { key: t.key, params: { customer: old.customer } });
    expect(timeline.body.data.map((e: { id: string }) => e.id)).toEqual([old.event]);
  });
});
