// The contract's examples are usable: Prism's mock of the bundle answers every operation, called the way a
// client would call it (path parameters, required query parameters and bodies from the examples), with a
// declared 2xx response whose body matches the schema; and the read-only part of prism-proxy.test.ts's client
// flow runs against it (one mock for both: each Prism start loads and dereferences the whole contract).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { conformanceProblems, contract, contractOperations } from '../harness/contract.ts';
import { prismClientOf, type Send, startPrism } from '../harness/prism.ts';
import { forRequests, PROCESS_START_HANG_MS, type Started } from '../harness/processes.ts';

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
    headers.authorization = 'Bearer svc_mockmockmockmockmockmockmockmockmockmockmockmockmo';
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

let prism: Started;

beforeAll(async () => {
  prism = await startPrism();
}, PROCESS_START_HANG_MS);

afterAll(async () => {
  await prism?.stop();
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
    const response = await fetch(`${prism.url}${request.url}`, {
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
      const { send } = prismClientOf(prism.url, 'svc_mockmockmockmockmockmockmockmockmockmockmockmockmo');
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
