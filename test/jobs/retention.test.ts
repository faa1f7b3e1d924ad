// Retention: the hourly cron task purges idempotency keys older than 24 hours across every company, as the
// app_maintenance role (so that role's grants and policies are what make it work), and keeps younger ones.
import { type JobHelpers, parseCrontab } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRONTAB, taskList } from '../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

/** An idempotency record of `companyId` written `age` ago (as superuser: no tenant needed). */
async function record(companyId: string, key: string, age: string) {
  await api.sql`
    insert into idempotency_keys (company_id, key, request_hash, response_status, response_body, response_headers, created_at)
    values (${companyId}, ${key}, 'hash', 201, '{}'::jsonb, '{}'::jsonb, now() - ${age}::interval)`;
}

/** Runs a purge task as the worker would; it uses neither its payload nor the worker's helpers. */
async function purge(name: 'purge_idempotency_keys' | 'purge_events' = 'purge_idempotency_keys') {
  const task = taskList(api.deps)[name];
  if (!task) throw new Error(`taskList has no ${name}`);
  await task({}, {} as JobHelpers);
}

const remaining = async () =>
  (await api.sql`select company_id, key from idempotency_keys order by key`).map((r) => `${r.company_id}/${r.key}`);

describe('purge_idempotency_keys', () => {
  it('deletes records older than 24 hours of every company and keeps the younger ones', async () => {
    const a = (await api.company({ name: 'A' })).id;
    const b = (await api.company({ name: 'B' })).id;
    await record(a, 'a-old', '25 hours');
    await record(a, 'a-new', '1 hour');
    await record(b, 'b-old', '25 hours');
    await record(b, 'b-older', '30 days');
    await record(b, 'b-new', '23 hours');
    expect(await remaining()).toHaveLength(5);

    await purge();

    expect(await remaining()).toEqual([`${a}/a-new`, `${b}/b-new`]);
  });

  it("runs as app_maintenance: without that role's delete policy it removes nothing", async () => {
    const company = (await api.company({ name: 'C' })).id;
    await record(company, 'c-old', '25 hours');
    // As a superuser (no row-level security) the task would delete the record anyway.
    await api.sql`drop policy retention_delete on idempotency_keys`;
    try {
      await purge();
      expect(await remaining()).toContain(`${company}/c-old`);
    } finally {
      await api.sql`create policy retention_delete on idempotency_keys for delete to app_maintenance using (true)`;
    }
    await purge();
    expect(await remaining()).not.toContain(`${company}/c-old`);
  });

  it('is scheduled by the crontab every hour', () => {
    const items = parseCrontab(CRONTAB);
    const item = items.find((i) => i.task === 'purge_idempotency_keys');
    expect(item).toBeDefined();
    const at = (hour: number, min: number) => item?.match({ min, hour, date: 1, month: 1, dow: 1 });
    // Once an hour, in every hour: a record is never kept much past its 24 hours.
    for (let hour = 0; hour < 24; hour++) {
      expect(Array.from({ length: 60 }, (_, min) => at(hour, min)).filter(Boolean)).toHaveLength(1);
    }
  });
});

describe('purge_events: the delivery log', () => {
  /** A delivery with one attempt, both written `age` ago (as superuser: no tenant needed). */
  async function logged(companyId: string, id: string, age: string) {
    await api.sql`
      insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status, created_at)
      values (${companyId}, ${`wd_${id}`}, 'we_x', ${`evt_${id}`}, 'customer.updated', 'succeeded', now() - ${age}::interval)`;
    await api.sql`
      insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger, url,
        status, status_code, duration_ms, created_at)
      values (${companyId}, ${`wa_${id}`}, ${`wd_${id}`}, 'we_x', ${`evt_${id}`}, 1, 'scheduled', 'https://example.com/',
        'succeeded', 204, 12, now() - ${age}::interval)`;
  }

  const left = async () => ({
    deliveries: (await api.sql`select id from webhook_deliveries order by id`).map((r) => r.id),
    attempts: (await api.sql`select id from webhook_attempts order by id`).map((r) => r.id),
  });

  it('deletes deliveries and attempts older than 30 days of every company and keeps the younger ones', async () => {
    const a = (await api.company({ name: 'Log A' })).id;
    const b = (await api.company({ name: 'Log B' })).id;
    await logged(a, 'a_old', '31 days');
    await logged(a, 'a_new', '29 days');
    await logged(b, 'b_old', '90 days');
    await logged(b, 'b_new', '1 hour');

    await purge('purge_events');

    expect(await left()).toEqual({ deliveries: ['wd_a_new', 'wd_b_new'], attempts: ['wa_a_new', 'wa_b_new'] });
  });
});
