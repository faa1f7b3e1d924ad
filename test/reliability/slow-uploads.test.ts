// Issue 46, point 1: no request holds a pooled database connection while it waits for its client. More slow uploads
// (a byte every 100 ms) than the process has connections are under way, and another company's writes are answered
// meanwhile: while every one of those uploads is still open.
import type { Gauge } from 'prom-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { setConcurrencyLimits } from '../../src/services/companies.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';
import { type SlowUpload, slowUpload } from '../harness/slow-upload.ts';

const POOL = 3;
const UPLOADS = POOL + 2;

let api: TestApi;
let origin: string;
let slowCompany: { companyId: string; key: string };
let quoteId: string;

beforeAll(async () => {
  // A small pool, so that a few slow uploads would fill it; time enough for a slow machine to send them.
  api = await setupApi({ DATABASE_POOL_SIZE: String(POOL), HTTP_REQUEST_TIMEOUT_MS: '120000' });
  ({ origin } = await listenOnLoopback(api.app, api.config));
  slowCompany = await api.tenant();
  // More uploads than its default share: this test is about the pool, not the per-company limits.
  await setConcurrencyLimits(api.db, slowCompany.companyId, { uploads: UPLOADS });
  const customer = await api.call('createCustomer', {
    key: slowCompany.key,
    body: { email: 'bouw@example.nl', name: 'Bouwbedrijf Smit' },
  });
  const quote = await api.call('createQuote', {
    key: slowCompany.key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Dakkapel',
      items: [{ name: 'Dakkapel plaatsen', quantity: 1, unit_price: 4200, tax_rate: 21 }],
    },
  });
  quoteId = quote.body.data.id;
});

const inFlight = async () => {
  const gauge = api.deps.metrics.registry.getSingleMetric('crm_http_requests_in_flight') as Gauge;
  return (await gauge.get()).values[0]?.value ?? 0;
};

describe('slow uploads and the database pool', () => {
  it(`${UPLOADS} slow uploads on a pool of ${POOL}: another company's create is answered while all are open`, async () => {
    const other = await api.tenant();
    const uploads: SlowUpload[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      uploads.push(slowUpload(`${origin}/api/v1/quotes/${quoteId}/attachments`, slowCompany.key));
    }
    try {
      // Every upload has reached the service and is sending its file.
      await until(async () => (await inFlight()) >= UPLOADS, 'every slow upload is in flight', 30_000);
      const start = uploads.map((u) => u.sent());
      await until(() => uploads.every((u, i) => u.sent() >= start[i] + 5), 'the uploads send their bytes', 30_000);

      const created = await api.call('createCustomer', {
        key: other.key,
        body: { email: 'info@bakkerij.example.nl', name: 'Bakkerij Jansen' },
      });
      const stillOpen = uploads.filter((u) => !u.answered()).length;
      expect(created.status).toBe(201);
      // Answered while every slow upload was still sending: none of them held a connection it needed.
      expect(stillOpen).toBe(UPLOADS);
      const me = await api.call('getMe', { key: other.key });
      expect(me.status).toBe(200);
      expect(uploads.filter((u) => !u.answered()).length).toBe(UPLOADS);
    } finally {
      for (const upload of uploads) upload.finish();
    }
    // And then the uploads themselves are stored.
    const results = await Promise.all(uploads.map((u) => u.result));
    for (const result of results) expect(result === 'aborted' ? 0 : result.status).toBe(201);
    // Time for a loaded machine: the uploads finish by themselves after their 300 bytes (30 s), so on a service whose
    // uploads held the pool the create would be answered only then, and `stillOpen` fails instead of the timeout.
  }, 120_000);
});
