// Several failed attempts to one endpoint recorded at the same time, one of which disables the endpoint.
// record() locks its delivery, then the endpoint; disable() used to wait for the other pending deliveries of
// the endpoint, held by the other failure transactions that waited for the endpoint: a lock cycle (40P01
// deadlock detected after 1 s, attempts lost, the job failed). disable() now fails only the deliveries it can
// lock without waiting (skip locked); the others settle themselves as failed once they see it disabled. A
// batch job makes this routine: up to 16 requests per endpoint at once, and a url_not_allowed refusal comes
// back at once for all of them.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverBatch } from '../../src/webhooks/delivery-attempts.ts';
import { DELIVER_TASK } from '../../src/webhooks/delivery-job-key.ts';
import { DeliveryState } from '../../src/webhooks/delivery-state.ts';
import { fanoutEvents } from '../../src/webhooks/fanout.ts';
import { insertEndpoint, jobsOf, LOCAL_SENDING, recordCustomerEvents } from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

// The worker's delivery state, fresh for each test.
let state: DeliveryState;
beforeEach(() => {
  state = new DeliveryState(api.db, api.config.publicUrl);
});

describe('failed attempts recorded at the same time, one of them disabling the endpoint', () => {
  it('all are recorded, the endpoint is disabled, and the job does not fail (no deadlock)', async () => {
    const { companyId } = await api.tenant();
    await api.sql`insert into users (company_id, name, email, role) values (${companyId}, 'Beheer', 'beheer@example.nl', 'administrator')`;
    // The metadata service: refused at delivery whatever the policy (url_not_allowed, disables the endpoint).
    const { id: endpointId } = await insertEndpoint(api, companyId, {
      url: 'http://169.254.169.254/latest/meta-data/',
    });
    const eventIds = await recordCustomerEvents(api, companyId, 5, 'deadlock@example.nl');
    expect(await fanoutEvents(state, companyId, eventIds)).toEqual([1, 1, 1, 1, 1]);
    const [job] = (await jobsOf(api, companyId)).filter((j) => j.task === DELIVER_TASK);
    const deliveryIds = job.payload.deliveryIds as string[];
    expect(deliveryIds).toHaveLength(5);

    // Today: rejects after ~1 s with PostgresError 40P01 "deadlock detected" (wrapped by drizzle).
    const result = await deliverBatch(state, { companyId, deliveryIds, trigger: 'scheduled' }, LOCAL_SENDING).catch(
      (error: { cause?: { code?: string; message?: string } }) =>
        `rejected: ${error.cause?.code} ${error.cause?.message}`,
    );
    // Let any transaction still running end before reading the outcome: waited for in pg_stat_activity (a fixed
    // 2.5 s was idle time on a quiet machine and no guarantee on a loaded one).
    await until(async () => {
      const [{ open }] = await api.sql<{ open: number }[]>`
        select count(*)::int as open from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`;
      return open === 0;
    }, 'no other transaction runs in the database');

    expect(result).toEqual(expect.any(Array));
    for (const outcome of result as string[]) expect(['retrying', 'failed']).toContain(outcome);
    const attempts = await api.sql`
      select delivery_id, attempt_number, error from webhook_attempts where endpoint_id = ${endpointId}`;
    expect(attempts.map((a) => a.delivery_id).sort()).toEqual([...deliveryIds].sort());
    for (const a of attempts) expect(a).toMatchObject({ attempt_number: 1, error: 'url_not_allowed' });
    const [endpoint] = await api.sql`select status, disabled_reason from webhook_endpoints where id = ${endpointId}`;
    expect(endpoint).toEqual({ status: 'disabled', disabled_reason: 'url_not_allowed' });
    const deliveries = await api.sql`select status from webhook_deliveries where endpoint_id = ${endpointId}`;
    expect(deliveries.map((d) => d.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    const emails = await api.sql`select kind from outbound_emails where company_id = ${companyId}`;
    expect(emails).toEqual([{ kind: 'webhook_endpoint_disabled' }]);
  });
});
