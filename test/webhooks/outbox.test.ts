// The outbox: an event and its fan-out job commit in the change's transaction, or neither does. So a crash
// between the commit and the delivery loses nothing: the job is waiting in Postgres when a worker starts.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withTenant } from '../../src/db/tenant.ts';
import { recordEvent } from '../../src/events/record.ts';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { FANOUT_TASK } from '../../src/webhooks/jobs/webhook-fanout.ts';
import {
  createCustomer,
  customerObject,
  deliveriesOf,
  insertEndpoint,
  jobsOf,
  latestEventId,
  receiver,
  runDueJobs,
  signatureHeaders,
} from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { withDatabase } from '../harness/db.ts';

let api: TestApi;
let runner: Worker | undefined;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

afterAll(async () => {
  await runner?.stop();
});

const CUSTOMER = customerObject('outbox@example.nl');

const record = (tx: Parameters<Parameters<typeof withTenant>[2]>[0], companyId: string) =>
  recordEvent(tx, companyId, { type: 'customer.created', scope: 'customers.read', customerId: null, object: CUSTOMER });

const eventCount = async (companyId: string) =>
  (await api.sql`select count(*)::int as n from events where company_id = ${companyId}`)[0].n;

describe('the event and its fan-out job commit together', () => {
  it('a rolled-back transaction leaves neither the event nor the job', async () => {
    const { companyId } = await api.tenant();
    await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook' });
    const rolledBack = new Error('the change failed after recording its event');
    await expect(
      withTenant(api.db, companyId, async (tx) => {
        await record(tx, companyId);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await eventCount(companyId)).toBe(0);
    expect(await jobsOf(api, companyId)).toEqual([]);
  });

  it('a committed transaction leaves both', async () => {
    const { companyId } = await api.tenant();
    await insertEndpoint(api, companyId, { url: 'http://127.0.0.1:9/hook' });
    const eventId = await withTenant(api.db, companyId, (tx) => record(tx, companyId));
    expect(await eventCount(companyId)).toBe(1);
    expect(await jobsOf(api, companyId)).toEqual([
      expect.objectContaining({ task: FANOUT_TASK, payload: { companyId, eventId } }),
    ]);
  });

  it('a company without any endpoint gets the event but no job', async () => {
    const { companyId } = await api.tenant();
    await withTenant(api.db, companyId, (tx) => record(tx, companyId));
    expect(await eventCount(companyId)).toBe(1);
    expect(await jobsOf(api, companyId)).toEqual([]);
  });

  it('a company whose only endpoint is disabled gets the job: the delivery is logged as failed, unsent', async () => {
    const { companyId } = await api.tenant();
    const hook = await receiver();
    const { id } = await insertEndpoint(api, companyId, { url: hook.url, status: 'disabled' });
    const eventId = await withTenant(api.db, companyId, (tx) => record(tx, companyId));
    expect(await jobsOf(api, companyId)).toHaveLength(1);
    expect(await runDueJobs(api, companyId)).toEqual([]);
    expect(await deliveriesOf(api, id)).toEqual([
      expect.objectContaining({ event_id: eventId, status: 'failed', attempt_count: 0, next_attempt_at: null }),
    ]);
    expect(hook.requests).toHaveLength(0);
  });
});

describe('with the real worker', () => {
  it('a customer created while no worker runs reaches the receiver, signed, once a worker starts', async () => {
    const { companyId, key } = await api.tenant();
    const hook = await receiver();
    const { id: endpointId, secret } = await insertEndpoint(api, companyId, { url: hook.url });
    const customer = await createCustomer(api, key, { name: 'Na de crash' });
    const eventId = await latestEventId(api, customer.id);
    // Committed and waiting: nothing has been sent yet.
    expect(await jobsOf(api, companyId)).toHaveLength(1);
    expect(hook.requests).toHaveLength(0);

    const [{ name }] = await api.sql`select current_database() as name`;
    runner = await startWorker(withDatabase(inject('pgAdminUrl'), name), api.deps);
    const deadline = Date.now() + 10_000;
    while (hook.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

    expect(hook.requests).toHaveLength(1);
    const [message] = hook.requests;
    expect(() => new Webhook(secret).verify(message.body, signatureHeaders(message))).not.toThrow();
    expect(message.headers['webhook-id']).toBe(eventId);
    expect(JSON.parse(message.body)).toMatchObject({
      id: eventId,
      type: 'customer.created',
      data: { object: customer },
    });
    // The worker records the success just after the receiver answered.
    for (let i = 0; i < 100 && (await deliveriesOf(api, endpointId))[0]?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await deliveriesOf(api, endpointId))[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });
});
