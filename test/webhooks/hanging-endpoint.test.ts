// With the real worker (startWorker): an endpoint that accepts connections and never answers holds up the
// fan-out once (INLINE_WAIT_MS, then its sends are handed over) and at most JOBS_PER_ENDPOINT jobs; the company's other endpoint receives every message meanwhile, and the hanging
// endpoint's further jobs are postponed through the worker's own job ids (app_postpone_job).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { DELIVER_TASK } from '../../src/webhooks/delivery-job-key.ts';
import { JOBS_PER_ENDPOINT } from '../../src/webhooks/endpoint-admission.ts';
import {
  hangingReceiver,
  insertEndpoint,
  queuedJobs,
  receiver,
  recordCustomerEvents,
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a hanging endpoint with the real worker', () => {
  it('holds back only its own messages', async () => {
    const { companyId } = await api.tenant();
    const hanging = await hangingReceiver();
    const fast = await receiver();
    const slow = await insertEndpoint(api, companyId, { url: hanging.url });
    await insertEndpoint(api, companyId, { url: fast.url });
    const [{ name }] = await api.sql`select current_database() as name`;
    runner = await startWorker(withDatabase(inject('pgAdminUrl'), name), api.deps);

    // Events in separate moments, so that the hanging endpoint gets more jobs than it may run at once.
    let sent = 0;
    for (let i = 0; i < 2 * JOBS_PER_ENDPOINT; i++) {
      sent += (await recordCustomerEvents(api, companyId, 5, 'hanging@example.nl')).length;
      for (let wait = 0; wait < 40 && fast.requests.length < sent; wait++) await sleep(25);
    }
    // The other endpoint gets every message, while the hanging one answers none.
    for (let wait = 0; wait < 200 && fast.requests.length < sent; wait++) await sleep(50);
    expect(fast.requests).toHaveLength(sent);
    expect(hanging.received()).toBeGreaterThan(0);
    expect(hanging.received()).toBeLessThanOrEqual(16);

    // Its jobs beyond the limit were postponed by the worker: queued again, marked, 5 s later.
    const deadline = Date.now() + 5_000;
    let postponed: Awaited<ReturnType<typeof queuedJobs>> = [];
    while (postponed.length === 0 && Date.now() < deadline) {
      await sleep(100);
      postponed = (await queuedJobs(api)).filter(
        (j) => j.task === DELIVER_TASK && j.payload.endpointId === slow.id && j.payload.postponed === 1,
      );
    }
    expect(postponed.length).toBeGreaterThan(0);
    for (const job of postponed) expect(job.runAt.getTime()).toBeGreaterThan(Date.now());

    // The first messages were sent by the fan-out and handed over when they did not come back in time: once
    // the endpoint answers, they are recorded as their first attempts.
    // The worker stops: its running jobs start no further request (the hanging endpoint's messages waiting for
    // a turn stay unsent when it answers); what is in flight gets its answer.
    const receivedBeforeStop = hanging.received();
    const stopped = runner;
    const stopping = runner.stop();
    runner = undefined;
    await sleep(100);
    hanging.release();
    await stopping;
    await stopped.settleHandedOver();
    expect(hanging.received()).toBe(receivedBeforeStop);
    const [{ n }] = await api.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_deliveries
      where endpoint_id = ${slow.id} and status = 'succeeded' and attempt_count = 1`;
    expect(n).toBeGreaterThan(0);
  });
});
