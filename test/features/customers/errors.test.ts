// Every error the customer operations can give: status, code and the extras (errors[], required_scope).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;
let lead: { id: string; email: string };

const MISSING_ID = '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30';

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  lead = (await api.call('createCustomer', { key, body: { email: 'Bestaand@Example.nl', name: 'Bestaand' } })).body
    .data;
});

const customerCount = async () =>
  Number((await api.sql`select count(*)::int as n from customers where company_id = ${companyId}`)[0].n);

function expectFieldError(
  res: { status: number; body: { code: string; errors: unknown[] } },
  problem: string,
  error: Record<string, unknown>,
) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe(problem);
  expect(res.body.errors).toEqual([expect.objectContaining(error)]);
}

describe('createCustomer', () => {
  it('an email in use answers 422 already_exists on /email, compared case-insensitively', async () => {
    const before = await customerCount();
    for (const email of ['Bestaand@Example.nl', 'bestaand@example.nl', 'BESTAAND@EXAMPLE.NL']) {
      const res = await api.call('createCustomer', { key, body: { email } });
      expectFieldError(res, 'validation_failed', { pointer: '/email', parameter: null, code: 'already_exists' });
    }
    expect(await customerCount()).toBe(before);
  });

  it('the same email in another company is fine', async () => {
    const other = await api.tenant();
    const res = await api.call('createCustomer', { key: other.key, body: { email: 'bestaand@example.nl' } });
    expect(res.status).toBe(201);
  });

  it('an unknown field answers 422 unknown_field with its pointer', async () => {
    const res = await api.call('createCustomer', { key, body: { email: 'x@example.nl', colour: 'blue' } });
    expectFieldError(res, 'unknown_field', { pointer: '/colour', code: 'unknown_field' });
  });

  it('status cannot be sent', async () => {
    const res = await api.call('createCustomer', { key, body: { email: 'st@example.nl', status: 'customer' } });
    expectFieldError(res, 'unknown_field', { pointer: '/status', code: 'unknown_field' });
  });

  it('a missing email answers 422 required', async () => {
    const res = await api.call('createCustomer', { key, body: { name: 'Zonder mail' } });
    expectFieldError(res, 'validation_failed', { pointer: '/email', code: 'required' });
  });

  it('a name longer than 255 characters answers 422 too_long', async () => {
    const res = await api.call('createCustomer', { key, body: { email: 'lang@example.nl', name: 'n'.repeat(256) } });
    expectFieldError(res, 'validation_failed', { pointer: '/name', code: 'too_long' });
    const ok = await api.call('createCustomer', { key, body: { email: 'lang@example.nl', name: 'n'.repeat(255) } });
    expect(ok.status).toBe(201);
  });

  it.each([
    ['email', 'geen-email', 'invalid_format'],
    ['type', 'company', 'invalid_enum'],
    ['country', 'NLD', 'too_long'],
    ['country', 'N', 'too_short'],
    ['vat_number', 'X'.repeat(21), 'too_long'],
    ['coc_number', '1'.repeat(31), 'too_long'],
    ['postal_code', '1'.repeat(65), 'too_long'],
  ])('%s = %j answers 422 %s', async (field, value, code) => {
    const body = { email: 'veld@example.nl', [field]: value };
    const res = await api.call('createCustomer', { key, body });
    expectFieldError(res, 'validation_failed', { pointer: `/${field}`, code });
  });

  it('answers invalid_type (not required) for a value of the wrong type', async () => {
    const nullEmail = await api.call('createCustomer', { key, body: { email: null } });
    expectFieldError(nullEmail, 'validation_failed', { pointer: '/email', code: 'invalid_type' });
    const numberName = await api.call('createCustomer', { key, body: { email: 'typed@example.nl', name: 42 } });
    expectFieldError(numberName, 'validation_failed', { pointer: '/name', code: 'invalid_type' });
  });

  it('lists every invalid input at once', async () => {
    const res = await api.call('createCustomer', { key, body: { type: 'x', name: 'n'.repeat(256) } });
    expect(res.status).toBe(422);
    const found = res.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer}:${e.code}`).sort();
    expect(found).toEqual(['/email:required', '/name:too_long', '/type:invalid_enum']);
  });

  it('malformed JSON answers 422 invalid_json', async () => {
    const res = await api.call('createCustomer', {
      key,
      rawBody: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0]).toMatchObject({ pointer: '', code: 'invalid_json' });
  });

  it('a body that is not an object answers 422', async () => {
    const res = await api.call('createCustomer', { key, body: ['x@example.nl'] });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
  });

  it('another media type answers 415 unsupported_media_type', async () => {
    const res = await api.call('createCustomer', {
      key,
      rawBody: 'email=x@example.nl',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('a body over 1 MiB answers 413 payload_too_large', async () => {
    const rawBody = JSON.stringify({ email: 'groot@example.nl', name: 'x'.repeat(1024 * 1024) });
    const res = await api.call('createCustomer', { key, rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('a key without customers.write answers 403 insufficient_scope and creates nothing', async () => {
    const reader = await api.key(companyId, { scopes: ['customers.read'] });
    const before = await customerCount();
    const res = await api.call('createCustomer', { key: reader.key, body: { email: 'lezer@example.nl' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.write' });
    expect(await customerCount()).toBe(before);
  });

  it('no key answers 401 unauthenticated', async () => {
    const res = await api.call('createCustomer', { body: { email: 'anoniem@example.nl' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });
});

describe('getCustomer', () => {
  it('an unknown id answers 404 not_found', async () => {
    const res = await api.call('getCustomer', { key, params: { customer: MISSING_ID } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('a malformed id answers 422 for parameter customer', async () => {
    const res = await api.call('getCustomer', { key, params: { customer: 'not-a-uuid' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0]).toMatchObject({ parameter: 'customer', pointer: null, code: 'invalid_format' });
  });

  it('a key without customers.read answers 403 with required_scope', async () => {
    const other = await api.key(companyId, { scopes: ['deals.read'] });
    const res = await api.call('getCustomer', { key: other.key, params: { customer: lead.id } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.read' });
  });
});

describe('updateCustomer', () => {
  it('an unknown id answers 404 not_found', async () => {
    const res = await api.call('updateCustomer', { key, params: { customer: MISSING_ID }, body: { name: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('a malformed id answers 422 for parameter customer', async () => {
    const res = await api.call('updateCustomer', { key, params: { customer: '1234' }, body: { name: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'customer', code: 'invalid_format' });
  });

  it("another customer's email answers 422 already_exists and changes nothing", async () => {
    const mine = (await api.call('createCustomer', { key, body: { email: 'mijn@example.nl' } })).body.data;
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: mine.id },
      body: { email: 'BESTAAND@example.nl', name: 'Gewijzigd' },
    });
    expectFieldError(res, 'validation_failed', { pointer: '/email', code: 'already_exists' });
    const got = await api.call('getCustomer', { key, params: { customer: mine.id } });
    expect(got.body.data).toEqual(mine);
    expect(got.headers.get('etag')).toBe('"1"');
  });

  it('status cannot be changed: 422 unknown_field', async () => {
    const res = await api.call('updateCustomer', { key, params: { customer: lead.id }, body: { status: 'customer' } });
    expectFieldError(res, 'unknown_field', { pointer: '/status', code: 'unknown_field' });
    const got = await api.call('getCustomer', { key, params: { customer: lead.id } });
    expect(got.body.data.status).toBe('lead');
  });

  it.each([
    ['type', null, 'invalid_enum'],
    ['name', 'n'.repeat(256), 'too_long'],
    ['country', 'NLD', 'too_long'],
  ])('%s = %j answers 422 %s', async (field, value, code) => {
    const res = await api.call('updateCustomer', { key, params: { customer: lead.id }, body: { [field]: value } });
    expectFieldError(res, 'validation_failed', { pointer: `/${field}`, code });
  });

  it('email = null answers 422 invalid_type on /email', async () => {
    const res = await api.call('updateCustomer', { key, params: { customer: lead.id }, body: { email: null } });
    expectFieldError(res, 'validation_failed', { pointer: '/email', code: 'invalid_type' });
  });

  it('a key with only customers.read answers 403 insufficient_scope', async () => {
    const reader = await api.key(companyId, { scopes: ['customers.read'] });
    const res = await api.call('updateCustomer', {
      key: reader.key,
      params: { customer: lead.id },
      body: { name: 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.write' });
  });
});

describe('convertCustomer', () => {
  it('converting a customer a second time answers 409 conflict', async () => {
    const c = (await api.call('createCustomer', { key, body: { email: 'tweemaal@example.nl' } })).body.data;
    const first = await api.call('convertCustomer', { key, params: { customer: c.id } });
    expect(first.status).toBe(200);
    const second = await api.call('convertCustomer', { key, params: { customer: c.id } });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('conflict');
    const got = await api.call('getCustomer', { key, params: { customer: c.id } });
    expect(got.body.data).toEqual(first.body.data);
    expect(got.headers.get('etag')).toBe('"2"');
  });

  it('an unknown id answers 404 not_found', async () => {
    const res = await api.call('convertCustomer', { key, params: { customer: MISSING_ID } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('a malformed id answers 422 for parameter customer', async () => {
    const res = await api.call('convertCustomer', { key, params: { customer: 'abc' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'customer', code: 'invalid_format' });
  });

  it('a key with only customers.read answers 403 insufficient_scope', async () => {
    const reader = await api.key(companyId, { scopes: ['customers.read'] });
    const res = await api.call('convertCustomer', { key: reader.key, params: { customer: lead.id } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.write' });
  });
});

describe('listCustomerTimeline', () => {
  it('an unknown id answers 404 not_found', async () => {
    const res = await api.call('listCustomerTimeline', { key, params: { customer: MISSING_ID } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('a malformed id answers 422 for parameter customer', async () => {
    const res = await api.call('listCustomerTimeline', { key, params: { customer: 'xyz' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'customer', code: 'invalid_format' });
  });

  it.each([0, 101])('limit=%s answers 422 for parameter limit', async (limit) => {
    const res = await api.call('listCustomerTimeline', { key, params: { customer: lead.id }, query: { limit } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'limit' });
  });

  it('a damaged cursor answers 422 invalid_cursor', async () => {
    const res = await api.call('listCustomerTimeline', {
      key,
      params: { customer: lead.id },
      query: { cursor: 'kapot' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'cursor', code: 'invalid_cursor' });
  });

  it('an unknown query parameter answers 422 unknown_parameter', async () => {
    const res = await api.call('listCustomerTimeline', {
      key,
      params: { customer: lead.id },
      query: { 'filter[type]': 'note.created' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'filter[type]', code: 'unknown_parameter' });
  });
});

describe('listCustomers', () => {
  it('a key without customers.read answers 403 with required_scope', async () => {
    const other = await api.key(companyId, { scopes: ['deals.read'] });
    const res = await api.call('listCustomers', { key: other.key });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.read' });
  });
});

describe('email addresses the contract does not accept', () => {
  it.each(['x@a-.nl', 'jan@-bakker.nl', 'jan@bakker'])('%s answers 422 invalid_format on /email', async (email) => {
    const { key: k } = await api.tenant();
    const res = await api.call('createCustomer', { key: k, body: { email } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/email', code: 'invalid_format' });
  });
});
