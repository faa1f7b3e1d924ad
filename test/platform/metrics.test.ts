// /metrics: Prometheus figures behind METRICS_TOKEN — request durations by operation and status, rate-limit
// refusals, and the queue, webhook and connection figures read from PostgreSQL when scraped.
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/tenant.ts';
import { queueEmail } from '../../src/mail/outbox.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let api: TestApi;
let unset: TestApi;

beforeAll(async () => {
  api = await setupApi({ METRICS_TOKEN: TOKEN }, { keyWindows: [{ name: 'minute', limit: 3, windowSeconds: 60 }] });
  unset = await setupApi();
});

const scrape = async (app = api.app, authorization = `Bearer ${TOKEN}`) =>
  app.request('/metrics', { headers: authorization ? { authorization } : {} });

/** The value of one sample line, e.g. `crm_job_queue_depth` or `name{label="x"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('is not served without METRICS_TOKEN, and needs the token when it is', async () => {
    expect((await scrape(unset.app)).status).toBe(404);
    expect((await scrape(api.app, '')).status).toBe(401);
    expect((await scrape(api.app, `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await scrape(api.app, TOKEN)).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
  });

  it('times requests by operationId and status, and counts rate-limit refusals', async () => {
    const { key } = await api.tenant();
    for (let i = 0; i < 4; i++) await api.call('getMe', { key });
    const text = await (await scrape()).text();
    expect(sample(text, 'crm_http_request_duration_seconds_count{operation="getMe",status="200"}')).toBe(3);
    expect(sample(text, 'crm_http_request_duration_seconds_count{operation="getMe",status="429"}')).toBe(1);
    expect(sample(text, 'crm_rate_limit_refusals_total{operation="getMe"}')).toBe(1);
    expect(sample(text, 'crm_http_requests_in_flight')).toBe(1); // the scrape itself
  });

  it('reads the job queue, the webhook log and the connections from the database', async () => {
    const { companyId } = await api.tenant();
    await withTenant(api.db, companyId, (tx) =>
      queueEmail(tx, companyId, { to: ['a@example.nl'], subject: 's', text: 't', kind: 'test' }),
    );
    await api.sql`insert into events (company_id, id, type, scope, data, created_at)
                  values (${companyId}, 'evt_metrics', 'customer.created', 'customers.read', '{}', now() - interval '2 seconds')`;
    await api.sql`insert into webhook_attempts (company_id, id, delivery_id, endpoint_id, event_id, attempt_number, trigger,
                  url, status, duration_ms)
                  values (${companyId}, 'wa_metrics', 'wd_x', 'we_x', 'evt_metrics', 1, 'scheduled',
                  'https://hooks.example.nl/crm', 'failed', 12)`;
    const text = await (await scrape()).text();
    expect(sample(text, 'crm_job_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'crm_job_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'crm_webhook_attempts_recent{outcome="failed"}')).toBe(1);
    expect(sample(text, 'crm_webhook_attempts_recent{outcome="succeeded"}')).toBe(0);
    expect(sample(text, 'crm_webhook_event_to_delivery_seconds{quantile="0.50"}')).toBeGreaterThanOrEqual(1.9);
    expect(text).toMatch(/^crm_db_connections\{state="(idle|active)"\} \d+$/m);
  });
});
