// The contract's examples are usable: `npm run mock` (Prism's mock of the bundle, under /api/v1 as the service)
// answers every operation, called the way a client would call it (path parameters, required query parameters and
// bodies from the examples), with a declared 2xx response whose body matches the schema; the read-only part of
// prism-proxy.test.ts's client flow runs against it, and so does the integrator's journey with the typed client as
// integrators run it for contract tests (one mock for all three: each Prism start loads and dereferences the whole
// contract, about 6 s of CPU).
// With CRM_MOCK_URL (ending in /api/v1) set, it runs against that mock instead of starting one (README).
import { createCrmClient } from 'crm-workflow-service/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { conformanceProblems, contract, contractOperations } from '../harness/contract.ts';
import { prismClientOf, type Send } from '../harness/prism.ts';
import { forRequests, freePort, PROCESS_START_HANG_MS, type Started, startHttpProcess } from '../harness/processes.ts';
import { integratorJourney } from '../integrator/journey.ts';

const MOCK_KEY = 'svc_mockmockmockmockmockmockmockmockmockmockmockmockmo';

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: { example?: unknown; default?: unknown; enum?: unknown[] };
};
type Media = { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown; $ref?: string }> };

const resolve = <T>(value: T | { $ref: string }): T => {
  if (value && typeof value === 'object' && '$ref' in value) {
    const [, section, name] = value.$ref.match(/^#\/components\/([^/]+)\/(.+)$/) ?? [];
    return contract.components[section][name] as T;
  }
  return value as T;
};

const exampleOf = (media: Media): unknown => {
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first ? resolve(first).value : undefined;
};

const parameterValue = (p: Parameter) =>
  String(p.example ?? p.schema?.example ?? p.schema?.default ?? p.schema?.enum?.[0] ?? 'x');

function requestFor(path: string, pathItem: Record<string, unknown>, operation: Record<string, unknown>) {
  const params = [
    ...((pathItem.parameters ?? []) as Parameter[]),
    ...((operation.parameters ?? []) as Parameter[]),
  ].map((p) => resolve(p));
  let url = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of params) {
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(parameterValue(p)));
    if (p.in === 'query' && p.required) query.set(p.name, parameterValue(p));
  }
  if (((operation.security as unknown[] | undefined) ?? [{}]).length > 0) {
    headers.authorization = `Bearer ${MOCK_KEY}`;
  }
  let body: string | FormData | undefined;
  const requestBody = operation.requestBody as { content: Record<string, Media> } | undefined;
  if (requestBody) {
    const [type, media] = Object.entries(requestBody.content)[0];
    const example = exampleOf(media) as Record<string, unknown>;
    if (type === 'multipart/form-data') {
      const form = new FormData();
      for (const [k, v] of Object.entries(example ?? {})) {
        form.set(k, k === 'file' ? new Blob([String(v)], { type: 'application/pdf' }) : String(v));
      }
      body = form;
    } else if (type === 'application/x-www-form-urlencoded') {
      // A payment provider's webhook (Mollie posts `id=tr_…` as a form).
      headers['content-type'] = type;
      body = new URLSearchParams(Object.entries(example ?? {}).map(([k, v]) => [k, String(v)])).toString();
    } else {
      headers['content-type'] = type;
      body = JSON.stringify(example);
    }
  }
  return { url: `${url}${query.size ? `?${query}` : ''}`, headers, body };
}

let mock: Started | undefined;
/** The mock's base URL, ending in /api/v1. */
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
}, PROCESS_START_HANG_MS);

afterAll(async () => {
  await mock?.stop();
});

describe('Prism mock of the contract', () => {
  const operations = contractOperations();

  it('covers every operation of the contract', () => {
    expect(operations.length).toBeGreaterThanOrEqual(102);
  });

  it.each(
    operations.map((o) => [o.operation.operationId, o] as const),
  )('%s answers a schema-valid example', async (_id, o) => {
    const request = requestFor(o.path, o.pathItem, o.operation);
    const response = await fetch(`${api}${request.url}`, {
      method: o.method.toUpperCase(),
      headers: request.headers,
      body: request.body,
    });
    const type = response.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await response.json() : await response.text();
    expect(response.status, JSON.stringify(body).slice(0, 1500)).toBeGreaterThanOrEqual(200);
    expect(response.status, JSON.stringify(body).slice(0, 1500)).toBeLessThan(300);
    expect(
      conformanceProblems(o.operation.operationId, { status: response.status, headers: response.headers, body }),
    ).toEqual([]);
  });
});

describe('the read-only part of the flow against prism mock', () => {
  it(
    'answers every read with a schema-valid example',
    async () => {
      const { send } = prismClientOf(api, MOCK_KEY);
      const customer = '01900000-0000-7000-8000-000000000001';
      const reads: [OperationId, Send][] = [
        ['getMe', {}],
        ['getCompany', {}],
        ['listUsers', {}],
        ['listCustomers', { query: { limit: 2 } }],
        ['getCustomer', { params: { customer } }],
        ['listCustomerNotes', { params: { customer } }],
        ['listCustomerTimeline', { params: { customer } }],
        ['listPipelineStages', {}],
        ['listDeals', {}],
        ['getDeal', { params: { deal: customer } }],
        ['listEvents', {}],
        ['getEvent', { params: { event: 'evt_0123456789abcdef' } }],
        ['listWebhookEndpoints', {}],
        ['getWebhookEndpoint', { params: { endpoint: 'we_0123456789abcdef' } }],
      ];
      for (const [id, opts] of reads) {
        const answer = await send(id, opts);
        expect(answer.status, id).toBe(200);
        expect(answer.body.data, id).toBeDefined();
      }
    },
    forRequests(14),
  );
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
