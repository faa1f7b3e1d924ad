// The conventions every response follows: problems for unknown routes and methods, body rules (413, 415,
// malformed JSON), unknown query parameters on every operation, request ids, no CORS, the language of
// problems, no stack traces, 501.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type OperationId, operations } from '../../generated/operations.ts';
import { problems } from '../../generated/problems.ts';
import { routes } from '../../generated/routes.ts';
import { notImplementedOperations } from '../../src/resources/index.ts';
import { type CallResult, setupApi, type TestApi } from '../harness/api.ts';
import { contract } from '../harness/contract.ts';
import { request } from '../security/scope-matrix.ts';

/** An operation not built yet (a GET without path parameters), while there is one. */
// An unbuilt operation to try the 501 on, while there is one (none once every operation of the contract is built).
const PENDING: OperationId | undefined = notImplementedOperations.find(
  (id) => operations[id].method === 'get' && !operations[id].path.includes('{'),
);

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(contract as unknown as object, 'contract');
/** For answers outside any operation (unknown routes and methods), which api.call cannot check. */
const validateProblem = ajv.compile({ $ref: 'contract#/components/schemas/Problem' });

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'fr' }));
});

/** A request outside the contract's operations, read like api.call reads its answers. */
async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const response = await api.app.request(`http://api.test${path}`, { method, ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

function expectProblem(result: Pick<CallResult, 'status' | 'headers' | 'body'>, status: number, code: string) {
  expect({ status: result.status, code: result.body?.code }).toEqual({ status, code });
  expect(result.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(validateProblem(result.body), JSON.stringify(validateProblem.errors)).toBe(true);
  expect(result.body.status).toBe(status);
  expect(result.body.type).toBe(`http://api.test/errors/${code}`);
  expect(result.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]+$/);
  expect(result.body.request_id).toBe(result.headers.get('x-request-id'));
}

describe('routes', () => {
  it('answers an unknown address under /api/v1 with 404 not_found', async () => {
    const result = await raw('GET', '/api/v1/nope', { headers: { authorization: `Bearer ${key}` } });
    expectProblem(result, 404, 'not_found');
    expect(result.body.instance).toBe('/api/v1/nope');
  });

  it('answers an unknown address outside the API with a 404 problem too', async () => {
    const result = await raw('GET', '/nope');
    expect(result.status).toBe(404);
    expect(result.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(result.body.code).toBe('not_found');
  });

  it('gives answers outside the operations (404 at /nope, openapi.json) a request id and an absolute type', async () => {
    const nope = await raw('GET', '/nope');
    expect(nope.headers.get('x-request-id')).toMatch(/^req_/);
    expect(nope.body.request_id).toBe(nope.headers.get('x-request-id'));
    expect(nope.body.type).toBe('http://api.test/errors/not_found');
    const contract = await raw('GET', '/api/v1/openapi.json');
    expect(contract.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers a method the address does not have with 405 and Allow', async () => {
    const result = await raw('DELETE', '/api/v1/customers', { headers: { authorization: `Bearer ${key}` } });
    expectProblem(result, 405, 'method_not_allowed');
    expect(
      result.headers
        .get('allow')
        ?.split(',')
        .map((m) => m.trim())
        .sort(),
    ).toEqual(['GET', 'POST']);
  });

  it('answers 405 before authentication (no key needed to learn the methods)', async () => {
    const result = await raw('PUT', '/api/v1/customers/0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30');
    expectProblem(result, 405, 'method_not_allowed');
    expect(result.headers.get('allow')).toBe('GET, PATCH');
  });

  it.skipIf(PENDING === undefined)(
    'answers an operation that is not built yet with 501 not_implemented after the usual checks',
    async () => {
      if (PENDING === undefined) return;
      const result = await api.call(PENDING, { key });
      expectProblem(result, 501, 'not_implemented');
      expect(result.body.detail).toMatch(new RegExp(PENDING));
      expect(result.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
      const anonymous = await api.call(PENDING);
      expectProblem(anonymous, 401, 'unauthenticated');
    },
  );
});

describe('request bodies', () => {
  it('refuses a JSON body over 1 MiB with 413 payload_too_large', async () => {
    const big = JSON.stringify({ email: 'jan@example.nl', name: 'x'.repeat(1024 * 1024) });
    const result = await api.call('createCustomer', {
      key,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(result, 413, 'payload_too_large');
    // Also when the client announces the size, without the body being read.
    const announced = await api.call('createCustomer', {
      key,
      rawBody: '{}',
      headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024 + 1) },
    });
    expectProblem(announced, 413, 'payload_too_large');
  });

  it('accepts a body of exactly 1 MiB as far as size goes', async () => {
    const body = JSON.stringify({ email: 'jan@example.nl', name: '' });
    const padded = body.replace('"name"', `${' '.repeat(1024 * 1024 - body.length)}"name"`);
    expect(Buffer.byteLength(padded)).toBe(1024 * 1024);
    const result = await api.call('createCustomer', {
      key,
      rawBody: padded,
      headers: { 'content-type': 'application/json' },
    });
    expect(result.status).not.toBe(413);
  });

  it('refuses a text/plain body with 415 unsupported_media_type', async () => {
    const result = await api.call('createCustomer', {
      key,
      rawBody: JSON.stringify({ email: 'jan@example.nl' }),
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(result, 415, 'unsupported_media_type');
  });

  it('answers malformed JSON with 422 validation_failed, code invalid_json', async () => {
    const result = await api.call('createCustomer', {
      key,
      rawBody: '{"email": "jan@example.nl",',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(result, 422, 'validation_failed');
    expect(result.body.errors).toHaveLength(1);
    expect(result.body.errors[0]).toMatchObject({ code: 'invalid_json', parameter: null });
  });

  it('refuses text the database cannot store (U+0000, an unpaired surrogate) with 422 at its pointer', async () => {
    const cases: [string, string][] = [
      ['{"email":"jan@example.nl","name":"Jan\\u0000"}', '/name'],
      ['{"email":"jan@example.nl","name":"Jan \\ud83d"}', '/name'],
      ['{"email":"jan@example.nl","name":"\\ude00 Jan"}', '/name'],
      ['{"email":"jan@example.nl","name":"Jan","custom_fields":{"k\\udc00":"v"}}', '/custom_fields/k\udc00'],
    ];
    for (const [rawBody, pointer] of cases) {
      const result = await api.call('createCustomer', {
        key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(result, 422, 'validation_failed');
      expect(result.body.errors, rawBody).toEqual([
        { pointer, parameter: null, code: 'invalid_format', detail: expect.any(String) },
      ]);
    }
    const nulInQuery = await api.call('listCustomers', { key, query: { q: 'a\u0000b' } });
    expectProblem(nulInQuery, 422, 'validation_failed');
    expect(nulInQuery.body.errors).toEqual([
      { pointer: null, parameter: 'q', code: 'invalid_format', detail: expect.any(String) },
    ]);
  });

  it('stores a surrogate pair (an emoji written as escapes) as the character it is', async () => {
    const result = await api.call('createCustomer', {
      key,
      rawBody: `{"email":"emoji${Date.now()}@example.nl","name":"Jan \\ud83d\\ude00"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data.name).toBe('Jan 😀');
  });

  it('answers an unknown query parameter with 422 naming it', async () => {
    const result = await api.call('listCustomers', { key, query: { colour: 'red' } });
    expectProblem(result, 422, 'validation_failed');
    expect(result.body.errors).toEqual([
      { pointer: null, parameter: 'colour', code: 'unknown_parameter', detail: expect.any(String) },
    ]);
  });
});

/** Whether the operation takes no body or a JSON one (what `request` sends). */
function takesJson(id: OperationId): boolean {
  const { request } = routes[id];
  return !('body' in request) || 'application/json' in request.body.content;
}

describe('unknown query parameters', () => {
  // Every operation's query is closed, also where the contract declares no query parameter at all (getMe,
  // getCustomer, the creations): the same 422 as for an unknown filter. An operation of a later release
  // answers 501 after the usual checks and validates nothing, not even its declared parameters.
  const pending = notImplementedOperations as readonly string[];
  const unknown = { pointer: null, parameter: 'zz_unknown', code: 'unknown_parameter', detail: expect.any(String) };

  it.each(Object.keys(operations) as OperationId[])('%s refuses one', async (id) => {
    const result = await api.call(...request(id, key, { query: { zz_unknown: '1' } }));
    // An upload sent without its multipart body, or a raw email sent as JSON, is refused by the body's gate first
    // (415), built or not.
    if (!takesJson(id)) return expectProblem(result, 415, 'unsupported_media_type');
    if (pending.includes(id)) return expectProblem(result, 501, 'not_implemented');
    expectProblem(result, 422, 'validation_failed');
    expect(result.body.errors).toContainEqual(unknown);
    // Nothing else is wrong with the request (an operation with required query parameters would add those).
    expect(result.body.errors.filter((e: { code: string }) => e.code !== 'required')).toEqual([unknown]);
  });

  it('answers HEAD and OPTIONS with 405 as without one (they are no operations)', async () => {
    for (const method of ['HEAD', 'OPTIONS']) {
      const result = await raw(method, '/api/v1/me?zz_unknown=1', { headers: { authorization: `Bearer ${key}` } });
      expect(result.status, method).toBe(405);
      expect(result.headers.get('allow'), method).toBe('GET');
    }
  });
});

describe('request ids', () => {
  it('gives every answer, success or problem, its own X-Request-Id', async () => {
    const answers = [
      await api.call('getMe', { key }),
      await api.call('listCustomers', { key }),
      await api.call('getMe'),
      await api.call('getCustomer', { key, params: { customer: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30' } }),
      await api.call('createCustomer', { key, rawBody: '{', headers: { 'content-type': 'application/json' } }),
      ...(PENDING ? [await api.call(PENDING, { key })] : []),
      await raw('GET', '/api/v1/nope'),
      await raw('DELETE', '/api/v1/customers'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 422, ...(PENDING ? [501] : []), 404, 405]);
    const ids = answers.map((a) => a.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('no CORS', () => {
  const noCors = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

  it('sends no Access-Control-* headers, even to a request with an Origin', async () => {
    const origin = { Origin: 'https://evil.example' };
    for (const result of [
      await api.call('getMe', { key, headers: origin }),
      await api.call('getMe', { headers: origin }),
      await raw('GET', '/api/v1/nope', { headers: origin }),
    ]) {
      expect(noCors(result.headers)).toEqual([]);
    }
  });

  it('does not answer a preflight with CORS allow headers', async () => {
    const result = await raw('OPTIONS', '/api/v1/customers', {
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(result.status).toBe(405);
    expect(noCors(result.headers)).toEqual([]);
  });
});

describe('language of problems', () => {
  it('has a title for every code in all four languages, different from the English', () => {
    for (const [code, { titles }] of Object.entries(problems)) {
      for (const lang of ['nl', 'de', 'fr'] as const) {
        expect(titles[lang], `${code} ${lang}`).toBeTruthy();
        expect(titles[lang], `${code} ${lang}`).not.toBe(titles.en);
      }
    }
  });

  it('localizes the per-field details of a validation problem', async () => {
    const result = await api.call('createCustomer', { key, body: {}, headers: { 'Accept-Language': 'nl' } });
    expect(result.body.title).toBe('Validatie mislukt');
    expect(result.body.errors[0]).toMatchObject({
      pointer: '/email',
      code: 'required',
      detail: 'Dit veld is verplicht.',
    });
  });

  const languageOf = async (acceptLanguage: string | undefined, withKey: boolean) => {
    const result = await api.call('getCustomer', {
      key: withKey ? key : null,
      params: { customer: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30' },
      headers: acceptLanguage ? { 'Accept-Language': acceptLanguage } : {},
    });
    expect(result.status).toBe(withKey ? 404 : 401);
    const language = result.headers.get('content-language') as 'nl' | 'en' | 'de' | 'fr';
    // The title is the code's title in the language the response names.
    expect(result.body.title).toBe(problems[withKey ? 'not_found' : 'unauthenticated'].titles[language]);
    return language;
  };

  it('follows Accept-Language among nl, en, de and fr', async () => {
    expect(await languageOf('de-DE,de;q=0.9', true)).toBe('de');
    expect(await languageOf('nl', true)).toBe('nl');
    expect(await languageOf('en-GB', true)).toBe('en');
    expect(await languageOf('es, fr;q=0.5, nl;q=0.8', true)).toBe('nl');
    expect(await languageOf('de-DE,de;q=0.9', false)).toBe('de');
  });

  it('falls back to the company’s language when the header names no supported language', async () => {
    expect(await languageOf('es-ES, it;q=0.5', true)).toBe('fr');
    expect(await languageOf(undefined, true)).toBe('fr');
    expect(await languageOf('nl;q=0', true)).toBe('fr');
  });

  it('falls back to English when there is no company to ask', async () => {
    expect(await languageOf('es-ES', false)).toBe('en');
    expect(await languageOf(undefined, false)).toBe('en');
  });
});

/** The next list of customers fails in its page read (readPage: one statement on the tenant pool). */
const failNextPageRead = (error: Error) => vi.spyOn(api.deps.tenantSql, 'unsafe').mockRejectedValueOnce(error);

describe('unexpected failures', () => {
  it('answer 500 internal_error with the request id and never a stack trace', async () => {
    const failure = new Error('connection to database lost: secret-detail');
    vi.spyOn(api.deps.keys, 'find').mockRejectedValueOnce(failure);
    const result = await api.call('getMe', { key }); // contract-checked: X-Request-Id and RateLimit too
    expectProblem(result, 500, 'internal_error');
    const text = JSON.stringify(result.body);
    expect(text).not.toContain('secret-detail');
    expect(text).not.toMatch(/\bat .+\(.+:\d+:\d+\)|\.ts:\d+/);
    expect(text).not.toContain('stack');
  });

  it("answer a handler's failure the same way", async () => {
    failNextPageRead(new Error('deadlock: secret-detail'));
    const result = await api.call('listCustomers', { key });
    expectProblem(result, 500, 'internal_error');
    expect(JSON.stringify(result.body)).not.toContain('secret-detail');
  });

  it('answer 503 service_unavailable with Retry-After when the database cannot be reached (checks and handlers)', async () => {
    // The shape of postgres.js's error when the database refuses the connection.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    vi.spyOn(api.deps.keys, 'find').mockRejectedValueOnce(refused);
    const checks = await api.call('getMe', { key });
    expectProblem(checks, 503, 'service_unavailable');
    expect(checks.headers.get('retry-after')).toBe('5');
    const closed = new Error('query failed', {
      cause: Object.assign(new Error('closed'), { code: 'CONNECTION_CLOSED' }),
    });
    failNextPageRead(closed);
    const handler = await api.call('listCustomers', { key });
    expectProblem(handler, 503, 'service_unavailable');
    expect(handler.headers.get('retry-after')).toBe('5');
    expect(handler.body.detail).toMatch(/ne parvient pas à joindre sa base de données/); // the company speaks French
    // The database answered but gave up (statement_timeout): the detail says nothing was changed.
    const timedOut = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    failNextPageRead(timedOut);
    const busy = await api.call('listCustomers', { key, headers: { 'accept-language': 'de' } });
    expectProblem(busy, 503, 'service_unavailable');
    expect(busy.body.detail).toMatch(/nicht rechtzeitig abschließen.*es wurde nichts geändert/);
  });

  it('a client that went away while sending (ECONNRESET "aborted" without a syscall) is no database outage and no failure of ours', async () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    failNextPageRead(aborted);
    // The answer reaches nobody; its status is nginx's "client closed request" (slow-clients.test.ts, real sockets).
    const res = await api.call('listCustomers', { key, unchecked: true });
    expect(res.status).toBe(499);
  });

  it('never put a stack trace in a problem', async () => {
    const result = await api.call('createCustomer', { key, body: { email: 'not an email', bogus: true } });
    expect(result.status).toBe(422);
    expect(JSON.stringify(result.body)).not.toMatch(/\.ts:\d+|node_modules|stack/);
  });
});

describe('a database outage during authentication', () => {
  let limited: TestApi;
  beforeAll(async () => {
    limited = await setupApi({}, { authFailureWindows: [{ name: 'auth', limit: 2, windowSeconds: 60 }] });
  });

  it('answers 503 each time and does not count against the address as failed attempts', async () => {
    const { key: other } = await limited.tenant();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    const find = vi.spyOn(limited.deps.keys, 'find').mockRejectedValue(refused);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await limited.call('getMe', { key: other })).status);
    expect(statuses).toEqual([503, 503, 503, 503]);
    find.mockRestore();
    expect((await limited.call('getMe', { key: other })).status).toBe(200);
  });
});
