// `npm run mock` as integrators use it for contract tests: the contract served under /api/v1 like the service,
// answering with its examples, and the integrator's journey with the typed client run against it — every call
// the journey makes is accepted by the mock's request validation and answered with a schema-valid example.
// With CRM_MOCK_URL (ending in /api/v1) set, it runs against that mock instead of starting one (README).
import { createCrmClient } from 'crm-workflow-service/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Started, startHttpProcess } from '../harness/processes.ts';
import { integratorJourney } from './journey.ts';

const MOCK_KEY = 'svc_mockmockmockmockmockmockmockmockmockmockmockmockmo';
let mock: Started | undefined;
let api: string;

beforeAll(async () => {
  if (process.env.CRM_MOCK_URL) {
    api = process.env.CRM_MOCK_URL;
    return;
  }
  const port = await freePort();
  mock = await startHttpProcess(
    process.execPath,
    ['--import', 'tsx', 'scripts/mock.ts', '--port', String(port)],
    `http://127.0.0.1:${port}`,
  );
  api = `${mock.url}/api/v1`;
});

afterAll(async () => {
  await mock?.stop();
});

describe('the integrator journey against npm run mock', () => {
  it('serves the contract under /api/v1, as the service does', async () => {
    const response = await fetch(`${api}/me`, { headers: { authorization: `Bearer ${MOCK_KEY}` } });
    expect(response.status).toBe(200);
    expect((await response.json()).data.object).toBe('api_key');
    if (mock) expect((await fetch(`${mock.url}/me`)).status).toBe(404);
  });

  it('answers every step of the journey with the contract’s examples', async () => {
    const calls: string[] = [];
    const client = createCrmClient({
      baseUrl: api,
      apiKey: MOCK_KEY,
      fetch: async (request) => {
        const response = await fetch(request);
        calls.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
        expect(response.headers.get('sl-violations'), request.url).toBeNull();
        return response;
      },
    });
    const { customer, deal, endpoint } = await integratorJourney(client, {
      behaviour: false,
      webhookUrl: 'https://hooks.example.com/crm',
      email: 'eva@example.nl',
    });
    expect(customer.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(deal.object).toBe('deal');
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(
      calls.every((c) => /\s2\d\d$/.test(c)),
      calls.join('\n'),
    ).toBe(true);
    expect(calls.length).toBeGreaterThanOrEqual(9);
  }, 60_000);

  it('refuses a request outside the contract, as the service would', async () => {
    const client = createCrmClient({ baseUrl: api, apiKey: MOCK_KEY });
    // A deliberately wrong body (the type checker would refuse it too).
    const wrong = { email: 12 } as unknown as { email: string };
    const { response } = await client.POST('/customers', { body: wrong });
    expect(response.status).toBe(422);
  });
});
