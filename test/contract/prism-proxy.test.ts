// Prism in the loop: a client's end-to-end flow sent through `prism proxy --errors` to the real server, so
// every request and answer is also checked by a second, independent validator of the contract (any violation
// makes Prism answer 500 or report it in `sl-violations`); and the flow's read-only part against `prism mock`,
// whose answers come from the contract's examples and must be schema-valid.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperationId, operations } from '../../generated/operations.ts';
import { pipelineOf } from '../features/deals/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { conformanceProblems } from '../harness/contract.ts';
import { forRequests, freePort, PROCESS_START_HANG_MS, type Started, startHttpProcess } from '../harness/processes.ts';

type Send = {
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
};
// Bodies are checked against the contract (conformanceProblems) before a step reads them.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Answer = { status: number; headers: Headers; body: any };

const prismBin = join(process.cwd(), 'node_modules', '.bin', 'prism');

/** A client of one base URL that checks every answer: no Prism violation, declared by the contract. */
function clientOf(base: string, key: string) {
  const log: string[] = [];
  async function send(id: OperationId, opts: Send = {}): Promise<Answer> {
    const op = operations[id];
    let path: string = op.path;
    for (const [k, v] of Object.entries(opts.params ?? {})) path = path.replace(`{${k}}`, encodeURIComponent(v));
    const query = new URLSearchParams(Object.entries(opts.query ?? {}).map(([k, v]) => [k, String(v)]));
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}${query.size ? `?${query}` : ''}`, {
      method: op.method.toUpperCase(),
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    const violations = response.headers.get('sl-violations');
    log.push(`${id} ${response.status}`);
    expect(violations, `${id}: Prism reports violations`).toBeNull();
    expect(response.status, `${id}: ${text.slice(0, 1500)}`).toBeLessThan(500);
    expect(conformanceProblems(id, { status: response.status, headers: response.headers, body }), id).toEqual([]);
    return { status: response.status, headers: response.headers, body };
  }
  return { send, log };
}

describe('the client flow through prism proxy --errors to the real server', () => {
  let api: TestApi;
  let server: ReturnType<typeof serve>;
  let prism: Started;
  let key: string;
  let companyId: string;

  beforeAll(async () => {
    api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    ({ key, companyId } = await api.tenant());
    const address = await new Promise<AddressInfo>((resolve) => {
      // A request carrying X-Gate-Break gets a broken answer, to show Prism catches a non-conforming response.
      const fetch = (request: Request) =>
        request.headers.has('x-gate-break')
          ? Response.json({ data: { object: 'api_key', id: 42 } }, { status: 200 })
          : api.app.fetch(request);
      server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info));
    });
    const port = await freePort();
    prism = await startHttpProcess(
      prismBin,
      [
        'proxy',
        'generated/openapi.en.json',
        `http://127.0.0.1:${address.port}/api/v1`,
        '--errors',
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
      ],
      `http://127.0.0.1:${port}`,
    );
  }, PROCESS_START_HANG_MS);

  afterAll(async () => {
    await prism?.stop();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('notices a contract violation (the check is live)', async () => {
    // A request the contract refuses: Prism answers it itself, with a problem naming the violation.
    const response = await fetch(`${prism.url}/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 12 }),
    });
    expect(response.status).toBe(422);
    expect(await response.text()).toMatch(/email/);
  });

  it('notices a response outside the contract (the check is live)', async () => {
    const response = await fetch(`${prism.url}/me`, {
      headers: { authorization: `Bearer ${key}`, 'x-gate-break': '1' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/problem\+json/);
    expect(response.headers.get('sl-violations')).toContain('data.id must be string');
  });

  it(
    'runs customers, notes, deals, events, webhook endpoints, users, company and me without a violation',
    async () => {
      const { send, log } = clientOf(prism.url, key);
      const stages = await pipelineOf(api, companyId);

      expect((await send('getMe')).body.data.object).toBe('api_key');
      expect((await send('getCompany')).body.data.id).toBe(companyId);
      expect((await send('listUsers')).status).toBe(200);

      const created = await send('createCustomer', {
        body: { email: 'anna@bakkerij.example', name: 'Anna de Bakker', country: 'nl' },
        headers: { 'Idempotency-Key': 'flow-create-1' },
      });
      expect(created.status).toBe(201);
      const customer = created.body.data.id as string;
      const got = await send('getCustomer', { params: { customer } });
      expect(got.body.data.country).toBe('NL');
      const etag = got.headers.get('etag') as string;
      expect(etag).toBeTruthy();
      const patched = await send('updateCustomer', {
        params: { customer },
        body: { phone: '+31 20 123 4567' },
        headers: { 'If-Match': etag },
      });
      expect(patched.status).toBe(200);
      const stale = await send('updateCustomer', {
        params: { customer },
        body: { phone: '+31 20 000 0000' },
        headers: { 'If-Match': etag },
      });
      expect(stale.status).toBe(412);

      for (const n of [2, 3]) await send('createCustomer', { body: { email: `klant${n}@example.nl` } });
      const first = await send('listCustomers', { query: { limit: 2 } });
      expect(first.body.data).toHaveLength(2);
      const second = await send('listCustomers', { query: { limit: 2, cursor: first.body.meta.next_cursor } });
      expect(second.body.data).toHaveLength(1);

      const note = await send('createCustomerNote', {
        params: { customer },
        body: { content: 'Belt terug na 14:00.' },
      });
      expect(note.status).toBe(201);
      expect((await send('listCustomerNotes', { params: { customer } })).body.data).toHaveLength(1);
      const deleted = await send('deleteCustomerNote', { params: { customer, note: note.body.data.id } });
      expect(deleted.status).toBe(200);

      const converted = await send('convertCustomer', { params: { customer } });
      expect(converted.body.data.status).toBe('customer');
      expect((await send('listCustomerTimeline', { params: { customer } })).status).toBe(200);

      expect((await send('listPipelineStages')).body.data.length).toBeGreaterThanOrEqual(5);
      const deal = await send('createDeal', {
        body: { customer_id: customer, title: 'Nieuwe pui', value: '18450.00' },
      });
      expect(deal.status).toBe(201);
      const dealId = deal.body.data.id as string;
      const moved = await send('moveDeal', { params: { deal: dealId }, body: { stage_id: stages.qualified } });
      expect(moved.status).toBe(200);
      const won = await send('winDeal', { params: { deal: dealId } });
      expect(won.body.data.status).toBe('won');
      expect((await send('getDeal', { params: { deal: dealId } })).status).toBe(200);

      const events = await send('listEvents', { query: { limit: 5 } });
      expect(events.body.data.length).toBeGreaterThan(0);
      expect((await send('getEvent', { params: { event: events.body.data[0].id } })).status).toBe(200);

      const endpoint = await send('createWebhookEndpoint', {
        body: { url: 'http://127.0.0.1:9/crm-hooks', events: ['customer.created', 'deal.won'] },
      });
      expect(endpoint.status).toBe(201);
      const endpointId = endpoint.body.data.id as string;
      expect((await send('getWebhookEndpoint', { params: { endpoint: endpointId } })).status).toBe(200);
      expect((await send('listWebhookEndpoints')).body.data).toHaveLength(1);
      expect((await send('deleteWebhookEndpoint', { params: { endpoint: endpointId } })).status).toBe(200);
      expect((await send('getWebhookEndpoint', { params: { endpoint: endpointId } })).status).toBe(404);

      expect(log.length).toBeGreaterThanOrEqual(28);
    },
    forRequests(27),
  );
});

describe('the read-only part of the flow against prism mock', () => {
  let prism: Started;

  beforeAll(async () => {
    const port = await freePort();
    prism = await startHttpProcess(
      prismBin,
      ['mock', 'generated/openapi.en.json', '--port', String(port), '--host', '127.0.0.1', '--errors'],
      `http://127.0.0.1:${port}`,
    );
  }, PROCESS_START_HANG_MS);

  afterAll(async () => {
    await prism?.stop();
  });

  it(
    'answers every read with a schema-valid example',
    async () => {
      const { send } = clientOf(prism.url, 'svc_mockmockmockmockmockmockmockmockmockmockmockmockmo');
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
