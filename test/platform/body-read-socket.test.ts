// JSON bodies over a real socket (@hono/node-server, as src/main.ts serves the app) are read from Node's
// IncomingMessage into one buffer, with the rules of the Web path that app.request() tests take (request-body.ts):
// - No Web Request is built for a JSON POST, PATCH or a DELETE without a body: building it, with a web stream over
//   the socket and a second Request around it, was most of the pipeline's time for a small body (issue 40).
// - The body rules hold on this path too: malformed JSON, bytes that are not UTF-8 and U+0000 are 422, another
//   charset 415; a chunked body is read whole; an Idempotency-Key hashes the same text (a repeat is replayed, another
//   body with the key refused). The limits (413 and the lingering close) are tested over sockets in
//   lingering-close.test.ts and slow-clients.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';

let api: TestApi;
let key: string;
let origin: string;
/** The requests node-server handed the app, in order. */
const handed: Request[] = [];

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  ({ key } = await api.tenant());
  const app = api.app;
  ({ origin } = await listenOnLoopback(
    {
      fetch: (request: Request, env?: unknown) => {
        handed.push(request);
        return app.fetch(request, env);
      },
    },
    api.config,
  ));
});

/**
 * Whether node-server built the Web Request behind its lightweight one (it keeps it under a symbol of that name).
 * The lightweight request's own symbols are looked for too, so that a change of node-server's internals fails here
 * rather than passing unnoticed.
 */
function webRequestBuilt(request: Request): boolean {
  const symbols = Object.getOwnPropertySymbols(request).map((symbol) => symbol.description);
  expect(symbols).toContain('incomingKey');
  return symbols.includes('requestCache');
}

async function send(method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}) {
  const before = handed.length;
  const res = await fetch(`${origin}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'accept-language': 'en', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await res.text();
  expect(handed.length).toBe(before + 1);
  return { status: res.status, body: text ? JSON.parse(text) : null, request: handed[before], headers: res.headers };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const email = () => `sok${Math.random().toString(36).slice(2)}@example.nl`;

describe('a JSON body read from the socket', () => {
  it('creates and updates without building a Web Request', async () => {
    const created = await send(
      'POST',
      '/customers',
      JSON.stringify({ email: email(), name: 'Eva de Boer' }),
      JSON_TYPE,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.name).toBe('Eva de Boer');
    expect(webRequestBuilt(created.request)).toBe(false);

    const updated = await send('PATCH', `/customers/${created.body.data.id}`, JSON.stringify({ city: 'Utrecht' }), {
      ...JSON_TYPE,
      'if-match': created.headers.get('etag') ?? '',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.city).toBe('Utrecht');
    expect(webRequestBuilt(updated.request)).toBe(false);
  });

  it('hashes the same text for an Idempotency-Key: a repeat is replayed, another body refused', async () => {
    const body = JSON.stringify({ email: email(), name: 'Jan Bakker' });
    const headers = { ...JSON_TYPE, 'idempotency-key': `socket-${Math.random()}` };
    const first = await send('POST', '/customers', body, headers);
    expect(first.status).toBe(201);
    expect(webRequestBuilt(first.request)).toBe(false);
    const again = await send('POST', '/customers', body, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await send('POST', '/customers', JSON.stringify({ email: email(), name: 'Jan Bakker' }), headers);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('reads a body sent chunked, without Content-Length', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ email: email(), name: 'In Stukken' }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const res = await send('POST', '/customers', body, JSON_TYPE);
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('In Stukken');
  });

  it('takes a byte order mark and drops it, as before', async () => {
    const res = await send(
      'POST',
      '/customers',
      `\uFEFF${JSON.stringify({ email: email(), name: 'Met BOM' })}`,
      JSON_TYPE,
    );
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Met BOM');
  });

  it.each([
    ['malformed JSON', '{"email":', 'invalid_json', ''],
    [
      'bytes that are not UTF-8',
      Buffer.from([...Buffer.from('{"name":"Caf'), 0xe9, ...Buffer.from('"}')]),
      'invalid_json',
      '',
    ],
    ['U+0000 in a string', JSON.stringify({ email: email(), name: 'a\u0000b' }), 'invalid_format', '/name'],
    ['an invalid field', JSON.stringify({ email: 'not an address' }), 'invalid_format', '/email'],
  ])('refuses %s with 422, without building a Web Request', async (_, body, code, pointer) => {
    const res = await send('POST', '/customers', body, JSON_TYPE);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ code, pointer })]);
    expect(webRequestBuilt(res.request)).toBe(false);
  });

  it('refuses another charset with 415', async () => {
    const res = await send('POST', '/customers', JSON.stringify({ email: email() }), {
      'content-type': 'application/json; charset=latin1',
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });
});

describe('an operation without a body, over the socket', () => {
  it('a DELETE without a body builds no Web Request', async () => {
    const created = await send(
      'POST',
      '/webhook-endpoints',
      JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['customer.created'] }),
      JSON_TYPE,
    );
    expect(created.status).toBe(201);
    const deleted = await send('DELETE', `/webhook-endpoints/${created.body.data.id}`);
    expect(deleted.status).toBe(200);
    expect(webRequestBuilt(deleted.request)).toBe(false);
  });

  it('still refuses a field sent to it', async () => {
    const res = await send('DELETE', '/webhook-endpoints/we_missing', JSON.stringify({ reason: 'x' }), JSON_TYPE);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('unknown_field');
  });
});
