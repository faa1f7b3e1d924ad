// The SDK's retries, timeout, paging and webhook check against a real local HTTP server (node:http on 127.0.0.1)
// that answers as a script says: 429 with Retry-After then 201, a dropped connection, a hang past the timeout, a 422.
// The backoff's waits go through an injected sleep, so they are asserted as asked for, not measured.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  Crm,
  CrmApiError,
  CrmError,
  CrmNetworkError,
  CrmTimeoutError,
  ok,
  verifyWebhook,
} from '../../src/client/index.ts';

type Step = (req: IncomingMessage, res: ServerResponse) => void;
let steps: Step[] = [];
let seen: { method: string; url: string; key: string | undefined }[] = [];
let baseUrl: string;
const server = createServer((req, res) => {
  seen.push({
    method: req.method ?? '',
    url: req.url ?? '',
    key: req.headers['idempotency-key'] as string | undefined,
  });
  req.resume();
  req.on('end', () => (steps.shift() ?? notFound)(req, res));
});

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
const notFound = json(404, { code: 'not_found' });
const created = json(201, { data: { object: 'customer', id: 'c1', email: 'a@example.nl' } });
const dropped: Step = (req) => req.socket.destroy();
const hanging: Step = () => {};

let waits: number[] = [];
const crm = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
  new Crm({ apiKey: 'svc_test', baseUrl, sleep: async (ms) => void waits.push(ms), ...options });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  steps = [];
  seen = [];
  waits = [];
});

describe('retries', () => {
  it('retries a 429 after its Retry-After, with the same Idempotency-Key on each attempt', async () => {
    steps = [json(429, { code: 'rate_limited' }, { 'retry-after': '7' }), created];
    const customer = await crm().customers.create({ email: 'a@example.nl' });
    expect(customer.id).toBe('c1');
    expect(seen).toHaveLength(2);
    expect(seen[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.key).toBe(seen[0]?.key);
    expect(waits).toEqual([7000]);
  });

  it('retries a dropped connection and a 503, then answers; the caller’s key is kept', async () => {
    steps = [dropped, json(503, { code: 'service_unavailable' }), created];
    await crm().customers.create({ email: 'a@example.nl' }, { idempotencyKey: 'mine' });
    expect(seen.map((s) => s.key)).toEqual(['mine', 'mine', 'mine']);
    expect(waits).toHaveLength(2);
  });

  it('never retries another 4xx, and throws it as a typed error', async () => {
    const problem = { code: 'validation_failed', status: 422, request_id: 'req_1', errors: [{ pointer: '/email' }] };
    steps = [json(422, problem)];
    const error = await crm()
      .customers.create({ email: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', request_id: 'req_1' });
    expect((error as CrmError).errors).toEqual([{ pointer: '/email' }]);
    expect(seen).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('stops after maxRetries and answers the last 503 as an error', async () => {
    steps = [0, 1, 2].map(() => json(503, { code: 'service_unavailable' }));
    await expect(crm({ maxRetries: 2 }).customers.get('c1')).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.key === undefined)).toBe(true); // a GET needs no key
  });

  it('aborts an attempt that hangs past the timeout, as a CrmTimeoutError', async () => {
    steps = [hanging, hanging];
    const error = await crm({ timeoutMs: 200, maxRetries: 1 })
      .customers.get('c1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, attempts: 2 });
    expect(seen).toHaveLength(2);
  });
});

describe('errors', () => {
  it('throws a list’s problem as CrmError, the same class as every other method’s (and CrmApiError is it)', async () => {
    steps = [
      json(422, { code: 'validation_failed', status: 422, request_id: 'req_2', errors: [{ pointer: '/limit' }] }),
    ];
    const error = await (async () => {
      for await (const _ of crm().customers.list({ limit: 1000 })) return 'no error';
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmError);
    expect(error).toBeInstanceOf(CrmApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', request_id: 'req_2' });
  });

  it('ok() of the openapi-fetch client throws CrmError too', () => {
    const response = new Response(null, { status: 404, headers: { 'X-Request-Id': 'req_3' } });
    expect(() => ok({ error: { code: 'not_found' }, response })).toThrow(CrmError);
  });

  it('without any answer after the retries, throws CrmNetworkError (not fetch’s TypeError) with the cause', async () => {
    steps = [dropped, dropped, dropped];
    const error = await crm({ maxRetries: 2 })
      .customers.get('c1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmNetworkError);
    expect(error).not.toBeInstanceOf(CrmTimeoutError);
    expect(error).toMatchObject({ name: 'CrmNetworkError', method: 'GET', attempts: 3 });
    expect((error as CrmNetworkError).url).toBe(`${baseUrl}/customers/c1`);
    expect((error as CrmNetworkError).cause).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(3);
  });

  it('a timeout is a CrmNetworkError too', () => {
    expect(new CrmTimeoutError(100, 2)).toBeInstanceOf(CrmNetworkError);
  });
});

describe('every resource', () => {
  it('has its methods: a path parameter in the path, the query, the body and the unwrapped answer', async () => {
    steps = [json(200, { data: { object: 'invoice', id: 'i1' } }), json(201, { data: { object: 'note', id: 'n1' } })];
    const invoice = await crm().invoices.get('i 1');
    expect(invoice).toMatchObject({ id: 'i1' });
    const note = await crm().deals.createNote('d1', { content: 'Gebeld' });
    expect(note).toMatchObject({ id: 'n1' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/v1/invoices/i%201',
      'POST /api/v1/deals/d1/notes',
    ]);
  });

  it('answers a PDF as its bytes', async () => {
    steps = [(_req, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from('%PDF-1.7'))];
    const pdf = await crm().invoices.getPdf('i1');
    expect(Buffer.from(pdf).toString()).toBe('%PDF-1.7');
  });
});

describe('paging and webhooks', () => {
  it('lists every item over three pages, following next_cursor', async () => {
    const page = (ids: string[], next: string | null) =>
      json(200, { data: ids.map((id) => ({ id })), meta: { next_cursor: next } });
    steps = [page(['a', 'b'], 'p2'), page(['c', 'd'], 'p3'), page(['e'], null)];
    const ids: string[] = [];
    for await (const customer of crm().customers.list({ limit: 2 })) ids.push(customer.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(seen.map((s) => new URL(s.url, baseUrl).searchParams.get('cursor'))).toEqual([null, 'p2', 'p3']);
  });

  it('verifyWebhook accepts a signed delivery and refuses a changed body', () => {
    const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
    const body = JSON.stringify({ object: 'event', id: 'evt_1', type: 'deal.created' });
    const id = 'msg_1';
    const at = new Date();
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, body),
    };
    expect(verifyWebhook(body, headers, secret)).toMatchObject({ id: 'evt_1', type: 'deal.created' });
    expect(() => verifyWebhook(body.replace('deal.created', 'deal.won'), headers, secret)).toThrow();
  });
});
