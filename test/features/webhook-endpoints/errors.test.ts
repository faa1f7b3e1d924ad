// Every refusal of the webhook endpoint operations: the SSRF guard through the API, event choices beyond the
// key's read scopes, the 10-endpoint limit (also under concurrency), If-Match, idempotency, 404 and 403.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prefixedId } from '../../../src/ids.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

const URL_OK = 'https://1.1.1.1/webhooks';

beforeAll(async () => {
  api = await setupApi();
});

beforeEach(async () => {
  ({ key, companyId } = await api.tenant());
});

const endpointCount = async () =>
  Number((await api.sql`select count(*)::int as n from webhook_endpoints where company_id = ${companyId}`)[0].n);

function expectFieldError(
  res: { status: number; body: { code: string; errors: unknown[] } },
  problem: string,
  error: Record<string, unknown>,
) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe(problem);
  expect(res.body.errors).toEqual([expect.objectContaining({ parameter: null, ...error })]);
}

async function createOne(body: Record<string, unknown> = { url: URL_OK, events: ['*'] }, withKey = key) {
  const res = await api.call('createWebhookEndpoint', { key: withKey, body });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('createWebhookEndpoint: the SSRF guard', () => {
  // WEBHOOK_ALLOW_PRIVATE_URLS is not set here: only public https targets on 443/80/8443 pass.
  const refused = [
    'http://1.1.1.1/hooks', // plain http
    'http://127.0.0.1:8080/hooks', // plain http to loopback
    'https://127.0.0.1/hooks', // loopback
    'https://127.1/hooks', // loopback in a short notation
    'https://2130706433/hooks', // loopback as one number
    'https://localhost/hooks', // a name that resolves to loopback
    'https://169.254.169.254/latest/meta-data', // cloud metadata
    'https://10.0.0.1/hooks', // RFC 1918
    'https://192.168.1.10/hooks', // RFC 1918
    'https://100.64.0.1/hooks', // CGNAT
    'https://0.0.0.0/hooks', // "this host"
    'https://[::1]/hooks', // IPv6 loopback
    'https://[::ffff:127.0.0.1]/hooks', // IPv4-mapped loopback
    'https://[fd00::1]/hooks', // IPv6 unique local
    'https://1.1.1.1:22/hooks', // a port other than 443, 80, 8443
    'https://1.1.1.1:6379/', // a port other than 443, 80, 8443
    'https://user:secret@1.1.1.1/hooks', // user name and password
    'https://hooks.example.invalid/crm', // does not resolve: cannot be shown to be public
  ];

  for (const url of refused) {
    it(`refuses ${url} with 422 url_not_allowed on /url`, async () => {
      const res = await api.call('createWebhookEndpoint', { key, body: { url, events: ['*'] } });
      expectFieldError(res, 'validation_failed', { pointer: '/url', code: 'url_not_allowed' });
      expect(res.body.errors[0].detail).toEqual(expect.any(String));
      expect(await endpointCount()).toBe(0);
    });
  }

  it('a URL that is not absolute answers invalid_format', async () => {
    for (const url of ['/webhooks/crm', 'hooks.example.nl/crm', 'https://1.1.1.1/hooks#part']) {
      const res = await api.call('createWebhookEndpoint', { key, body: { url, events: ['*'] } });
      expect(res.status).toBe(422);
      // The contract's format and pattern may both report it: every error is the same one.
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const error of res.body.errors) expect(error).toMatchObject({ pointer: '/url', code: 'invalid_format' });
    }
    expect(await endpointCount()).toBe(0);
  });
});

describe('createWebhookEndpoint: URI characters', () => {
  // The contract says `format: uri` and returns the URL as sent: what RFC 3986 does not allow is refused, not
  // stored (the URL parser would have accepted each of these and sent something else than was stored).
  for (const url of [
    'https://1.1.1.1/café',
    'https://1.1.1.1/a|b',
    'https://1.1.1.1/?q={x}',
    'https://1.1.1.1/%zz',
    'https://1.1.1.1/a<b>',
    'https://1.1.1.1/a^b',
    'https://1.1.1.1/"quoted"',
    'https://bücher.example/hooks',
  ]) {
    it(`refuses ${url} with 422 invalid_format on /url`, async () => {
      const res = await api.call('createWebhookEndpoint', { key, body: { url, events: ['*'] } });
      expect(res.status).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const error of res.body.errors) expect(error).toMatchObject({ pointer: '/url', code: 'invalid_format' });
      expect(await endpointCount()).toBe(0);
    });
  }

  it('accepts the same URLs percent-encoded, and returns them as sent', async () => {
    for (const url of ['https://1.1.1.1/caf%C3%A9', 'https://1.1.1.1/a%7Cb?q=%7Bx%7D&r=a.b_c~d!$*']) {
      expect((await createOne({ url, events: ['*'] })).url).toBe(url);
    }
  });

  it('accepts a scheme in capitals (schemes are case-insensitive, RFC 3986), stored as sent', async () => {
    const url = 'HTTPS://1.1.1.1/upper';
    expect((await createOne({ url, events: ['*'] })).url).toBe(url);
  });
});

describe('create and update: white space and control characters in the URL', () => {
  // The URL is stored as sent: the URL parser (and zod's url check) would drop these and store another URL
  // (`…/a\nb` became `…/ab`), so each one is refused (the contract's pattern, checked before the format).
  const sent = [
    'https://93.184.215.14/a\nb',
    'https://93.184.215.14/a\tb',
    'https://93.184.215.14/a\rb',
    ' https://93.184.215.14/ab',
    'https://93.184.215.14/ab ',
    '\thttps://93.184.215.14/ab',
    'https://93.184.215.14/a\u00a0b', // no-break space
    'https://93.184.215.14/a\u0085b', // next line (C1)
    'https://93.184.215.14/a\u0001b',
    'https://93.184.215.14/a\u007fb',
    'https://93.184.215.14/a\ufeffb', // byte order mark
  ];
  const refusedAsSent = (res: { status: number; body: { code: string; errors: unknown[] } }, detail: string) => {
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ pointer: '/url', parameter: null, code: 'invalid_format', detail }]);
  };
  const DETAIL = {
    en: 'May not contain white space or control characters (a space, a tab, a line break): they are refused, not removed.',
    nl: 'Mag geen witruimte of stuurtekens bevatten (een spatie, een tab, een regeleinde): die worden geweigerd, niet verwijderd.',
  };

  for (const url of sent) {
    const shown = url.replace(/[^\x21-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    it(`creation refuses ${shown} (422 invalid_format on /url), nothing stored`, async () => {
      const res = await api.call('createWebhookEndpoint', { key, body: { url, events: ['*'] } });
      refusedAsSent(res, DETAIL.en);
      expect(await endpointCount()).toBe(0);
    });
  }

  it('an update refuses each of them and keeps the URL; the detail is in the language of the request', async () => {
    const { id } = await createOne({ url: 'https://93.184.215.14/ab', events: ['*'] });
    for (const url of sent) {
      const res = await api.call('updateWebhookEndpoint', {
        key,
        params: { endpoint: id },
        body: { url },
        headers: { 'accept-language': 'nl' },
      });
      refusedAsSent(res, DETAIL.nl);
    }
    const [row] = await api.sql`select url, version from webhook_endpoints where id = ${id}`;
    expect(row).toEqual({ url: 'https://93.184.215.14/ab', version: 1 });
  });

  it('a URL without them is stored and returned byte for byte', async () => {
    const url = 'https://93.184.215.14/a%20b?c=%09';
    expect((await createOne({ url, events: ['*'] })).url).toBe(url);
  });
});

describe('createWebhookEndpoint: the event selection', () => {
  it('a key with only customers.read cannot choose deal.won (422 insufficient_scope on the item)', async () => {
    const narrow = await api.key(companyId, { scopes: ['webhooks.manage', 'customers.read'] });
    const res = await api.call('createWebhookEndpoint', {
      key: narrow.key,
      body: { url: URL_OK, events: ['customer.created', 'deal.won'] },
    });
    expectFieldError(res, 'validation_failed', { pointer: '/events/1', code: 'insufficient_scope' });
    expect(res.body.errors[0].detail).toContain('deals.read');
    expect(await endpointCount()).toBe(0);
  });

  it('a key with only deals.read cannot choose customer events, but may choose note events', async () => {
    const deals = await api.key(companyId, { scopes: ['webhooks.manage', 'deals.read'] });
    const res = await api.call('createWebhookEndpoint', {
      key: deals.key,
      body: { url: URL_OK, events: ['customer.converted'] },
    });
    expectFieldError(res, 'validation_failed', { pointer: '/events/0', code: 'insufficient_scope' });
    await createOne({ url: URL_OK, events: ['note.updated', 'deal.stage_changed'] }, deals.key);
  });

  it('a key that reads nothing with events can choose nothing, not even "*" or note events', async () => {
    const blind = await api.key(companyId, { scopes: ['webhooks.manage', 'users.read'] });
    for (const events of [['*'], ['note.created']]) {
      const res = await api.call('createWebhookEndpoint', { key: blind.key, body: { url: URL_OK, events } });
      expectFieldError(res, 'validation_failed', { pointer: '/events/0', code: 'insufficient_scope' });
    }
    expect(await endpointCount()).toBe(0);
  });

  it('"*" combined with other types, or a duplicate, answers invalid_enum', async () => {
    const star = await api.call('createWebhookEndpoint', {
      key,
      body: { url: URL_OK, events: ['customer.created', '*'] },
    });
    expectFieldError(star, 'validation_failed', { pointer: '/events/1', code: 'invalid_enum' });
    const starFirst = await api.call('createWebhookEndpoint', {
      key,
      body: { url: URL_OK, events: ['*', 'deal.won'] },
    });
    expectFieldError(starFirst, 'validation_failed', { pointer: '/events/0', code: 'invalid_enum' });
    const twice = await api.call('createWebhookEndpoint', {
      key,
      body: { url: URL_OK, events: ['deal.won', 'deal.lost', 'deal.won'] },
    });
    expectFieldError(twice, 'validation_failed', { pointer: '/events/2', code: 'invalid_enum' });
    expect(await endpointCount()).toBe(0);
  });

  it('an unknown type, ping, or an empty list is refused by the contract', async () => {
    const unknown = await api.call('createWebhookEndpoint', {
      key,
      body: { url: URL_OK, events: ['invoice.deleted'] },
    });
    expectFieldError(unknown, 'validation_failed', { pointer: '/events/0', code: 'invalid_enum' });
    const ping = await api.call('createWebhookEndpoint', { key, body: { url: URL_OK, events: ['ping'] } });
    expectFieldError(ping, 'validation_failed', { pointer: '/events/0', code: 'invalid_enum' });
    const empty = await api.call('createWebhookEndpoint', { key, body: { url: URL_OK, events: [] } });
    expectFieldError(empty, 'validation_failed', { pointer: '/events', code: 'too_small' });
  });

  it('url and events are required; unknown fields (such as secret) are refused', async () => {
    const missing = await api.call('createWebhookEndpoint', { key, body: { events: ['*'] } });
    expectFieldError(missing, 'validation_failed', { pointer: '/url', code: 'required' });
    const secret = await api.call('createWebhookEndpoint', {
      key,
      body: { url: URL_OK, events: ['*'], secret: 'whsec_bWluZQ==' },
    });
    expectFieldError(secret, 'unknown_field', { pointer: '/secret', code: 'unknown_field' });
  });
});

describe('createWebhookEndpoint: at most 10 per company', () => {
  it('the 11th endpoint answers 403 limit_reached; after a delete there is room again', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await createOne()).id);
    const res = await api.call('createWebhookEndpoint', { key, body: { url: URL_OK, events: ['*'] } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('limit_reached');
    expect(await endpointCount()).toBe(10);
    await api.call('deleteWebhookEndpoint', { key, params: { endpoint: ids[0] } });
    await createOne();
  });

  it('disabled endpoints count too', async () => {
    for (let i = 0; i < 10; i++) {
      const { id } = await createOne();
      await api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { status: 'disabled' } });
    }
    expect((await api.call('createWebhookEndpoint', { key, body: { url: URL_OK, events: ['*'] } })).status).toBe(403);
  });

  it('concurrent creations cannot pass the limit together', async () => {
    for (let i = 0; i < 7; i++) await createOne();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.call('createWebhookEndpoint', { key, body: { url: URL_OK, events: ['*'] } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    expect(await endpointCount()).toBe(10);
  });

  it('the limit is per company', async () => {
    for (let i = 0; i < 10; i++) await createOne();
    const other = await api.tenant();
    await createOne({ url: URL_OK, events: ['*'] }, other.key);
  });
});

describe('createWebhookEndpoint: idempotency', () => {
  it('the same key with another body answers 422 idempotency_key_reused', async () => {
    const headers = { 'Idempotency-Key': 'endpoint-create' };
    const first = await api.call('createWebhookEndpoint', { key, headers, body: { url: URL_OK, events: ['*'] } });
    expect(first.status).toBe(201);
    const other = await api.call('createWebhookEndpoint', {
      key,
      headers,
      body: { url: URL_OK, events: ['deal.won'] },
    });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await endpointCount()).toBe(1);
  });

  it('a refusal is replayed as well', async () => {
    const headers = { 'Idempotency-Key': 'endpoint-refused' };
    const body = { url: 'https://10.0.0.1/hooks', events: ['*'] };
    const first = await api.call('createWebhookEndpoint', { key, headers, body });
    const again = await api.call('createWebhookEndpoint', { key, headers, body });
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.errors).toEqual(first.body.errors);
  });
});

describe('updateWebhookEndpoint', () => {
  it('a stale If-Match answers 412 and changes nothing', async () => {
    const { id } = await createOne();
    await api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { description: 'v2' } });
    const res = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: id },
      headers: { 'If-Match': '"1"' },
      body: { status: 'disabled' },
    });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    const now = await api.call('getWebhookEndpoint', { key, params: { endpoint: id } });
    expect(now.body.data.status).toBe('active');
    expect(now.headers.get('etag')).toBe('"2"');
  });

  it('a stale If-Match on disabling leaves pending deliveries pending', async () => {
    const { id } = await createOne();
    await api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { description: 'v2' } });
    const eventId = prefixedId('evt');
    const deliveryId = prefixedId('wd');
    await api.sql`insert into events (company_id, id, type, scope, data)
      values (${companyId}, ${eventId}, 'customer.created', 'customers.read', '{"object":{}}'::jsonb)`;
    await api.sql`insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status)
      values (${companyId}, ${deliveryId}, ${id}, ${eventId}, 'customer.created', 'pending')`;
    const res = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: id },
      headers: { 'If-Match': '"1"' },
      body: { status: 'disabled' },
    });
    expect(res.status).toBe(412);
    const [row] =
      await api.sql`select status from webhook_deliveries where company_id = ${companyId} and id = ${deliveryId}`;
    expect(row.status).toBe('pending');
  });

  it('a new url goes through the SSRF guard again', async () => {
    const { id } = await createOne();
    for (const url of ['https://169.254.169.254/', 'http://1.1.1.1/', 'https://1.1.1.1:22/']) {
      const res = await api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { url } });
      expectFieldError(res, 'validation_failed', { pointer: '/url', code: 'url_not_allowed' });
    }
    const now = await api.call('getWebhookEndpoint', { key, params: { endpoint: id } });
    expect(now.body.data.url).toBe(URL_OK);
  });

  it('a key that cannot read all the endpoint receives may not point it elsewhere (403), unless it chooses the events again', async () => {
    const { id } = await createOne({ url: URL_OK, events: ['deal.won', 'customer.created'] });
    const narrow = await api.key(companyId, { scopes: ['webhooks.manage', 'customers.read'] });
    const redirect = await api.call('updateWebhookEndpoint', {
      key: narrow.key,
      params: { endpoint: id },
      body: { url: 'https://8.8.8.8/mine' },
    });
    expect(redirect.status).toBe(403);
    expect(redirect.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.read' });
    expect((await api.call('getWebhookEndpoint', { key, params: { endpoint: id } })).body.data.url).toBe(URL_OK);
    // Other changes by that key are fine: they send nothing anywhere new.
    const described = await api.call('updateWebhookEndpoint', {
      key: narrow.key,
      params: { endpoint: id },
      body: { description: 'ERP' },
    });
    expect(described.status).toBe(200);
    // Choosing the events again with its own visibility, it may: the endpoint then receives only those.
    const chosen = await api.call('updateWebhookEndpoint', {
      key: narrow.key,
      params: { endpoint: id },
      body: { url: 'https://8.8.8.8/mine', events: ['customer.created'] },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data).toMatchObject({ url: 'https://8.8.8.8/mine', events: ['customer.created'] });
    const [row] = await api.sql`select scopes from webhook_endpoints where company_id = ${companyId} and id = ${id}`;
    expect(row.scopes).toEqual(['customers.read']);
  });

  it('new events follow the rules of creation', async () => {
    const { id } = await createOne();
    const narrow = await api.key(companyId, { scopes: ['webhooks.manage', 'customers.read'] });
    const scope = await api.call('updateWebhookEndpoint', {
      key: narrow.key,
      params: { endpoint: id },
      body: { events: ['deal.lost'] },
    });
    expectFieldError(scope, 'validation_failed', { pointer: '/events/0', code: 'insufficient_scope' });
    const star = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: id },
      body: { events: ['*', 'deal.lost'] },
    });
    expectFieldError(star, 'validation_failed', { pointer: '/events/0', code: 'invalid_enum' });
  });

  it('status accepts only active or disabled; unknown fields are refused', async () => {
    const { id } = await createOne();
    const bad = await api.call('updateWebhookEndpoint', { key, params: { endpoint: id }, body: { status: 'paused' } });
    expectFieldError(bad, 'validation_failed', { pointer: '/status', code: 'invalid_enum' });
    const reason = await api.call('updateWebhookEndpoint', {
      key,
      params: { endpoint: id },
      body: { disabled_reason: 'x' },
    });
    expectFieldError(reason, 'unknown_field', { pointer: '/disabled_reason', code: 'unknown_field' });
  });
});

describe('deleteWebhookEndpoint', () => {
  it('a stale If-Match answers 412 and the endpoint and its deliveries stay', async () => {
    const { id } = await createOne();
    const eventId = prefixedId('evt');
    await api.sql`insert into events (company_id, id, type, scope, data)
      values (${companyId}, ${eventId}, 'customer.created', 'customers.read', '{"object":{}}'::jsonb)`;
    await api.sql`insert into webhook_deliveries (company_id, id, endpoint_id, event_id, event_type, status)
      values (${companyId}, ${prefixedId('wd')}, ${id}, ${eventId}, 'customer.created', 'pending')`;
    const res = await api.call('deleteWebhookEndpoint', {
      key,
      params: { endpoint: id },
      headers: { 'If-Match': '"7"' },
    });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    expect((await api.call('getWebhookEndpoint', { key, params: { endpoint: id } })).status).toBe(200);
    const [{ n }] =
      await api.sql`select count(*)::int as n from webhook_deliveries where company_id = ${companyId} and endpoint_id = ${id}`;
    expect(n).toBe(1);
  });
});

describe('every operation on an endpoint', () => {
  const calls = [
    ['getWebhookEndpoint', {}],
    ['updateWebhookEndpoint', { body: { description: 'x' } }],
    ['deleteWebhookEndpoint', {}],
    ['testWebhookEndpoint', {}],
    ['rotateWebhookEndpointSecret', {}],
  ] as const;

  it("answers 404 for an unknown id and for another company's endpoint", async () => {
    const { id } = await createOne();
    const other = await api.tenant();
    for (const [operation, extra] of calls) {
      for (const endpoint of ['we_doesNotExist123', id]) {
        const res = await api.call(operation, { key: other.key, params: { endpoint }, ...extra });
        expect(res.status, `${operation} ${endpoint}`).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    // Nothing happened to it.
    const still = await api.call('getWebhookEndpoint', { key, params: { endpoint: id } });
    expect(still.headers.get('etag')).toBe('"1"');
  });

  it('a malformed id answers 422 on the parameter', async () => {
    const res = await api.call('getWebhookEndpoint', { key, params: { endpoint: 'evt_123' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: null, parameter: 'endpoint' })]);
  });

  it('needs webhooks.manage (403 insufficient_scope), even for reading', async () => {
    const { id } = await createOne();
    const reader = await api.key(companyId, { scopes: ['customers.read', 'deals.read', 'events.read'] });
    const list = await api.call('listWebhookEndpoints', { key: reader.key });
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'webhooks.manage' });
    for (const [operation, extra] of calls) {
      const res = await api.call(operation, { key: reader.key, params: { endpoint: id }, ...extra });
      expect(res.status, operation).toBe(403);
      expect(res.body.required_scope).toBe('webhooks.manage');
    }
    const create = await api.call('createWebhookEndpoint', { key: reader.key, body: { url: URL_OK, events: ['*'] } });
    expect(create.status).toBe(403);
  });
});

// A PATCH of the description alone sends its conditional write with the lock (one round trip): the locked row still
// decides 404 and 412, and a description it already has is no change.
describe('updateWebhookEndpoint: the description alone', () => {
  it('404 for none, 412 for a stale If-Match, the same version for the same description', async () => {
    const created = await createOne({ url: URL_OK, events: ['*'], description: 'Eerst' });
    const patch = (endpoint: string, description: string | null, ifMatch?: string) =>
      api.call('updateWebhookEndpoint', {
        key,
        params: { endpoint },
        headers: ifMatch ? { 'if-match': ifMatch } : {},
        body: { description },
      });
    expect((await patch(prefixedId('we'), 'Niemand')).status).toBe(404);
    const same = await patch(created.id, 'Eerst', '"1"');
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe('"1"');
    const changed = await patch(created.id, null, '"1"');
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('"2"');
    expect(changed.body.data.description).toBeNull();
    const stale = await patch(created.id, 'Te laat', '"1"');
    expect(stale.status).toBe(412);
    const [row] = await api.sql`select description, version from webhook_endpoints where id = ${created.id}`;
    expect(row).toEqual({ description: null, version: 2 });
  });
});
