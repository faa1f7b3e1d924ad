// Every error the note operations can give: validation (422), unknown records and other tenants' records
// (404), keys and scopes (401/403), body rules (415/422 invalid_json) and idempotency (422).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let customer: string;
let note: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  customer = await newCustomer(key);
  note = (await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'bestaand' } })).body.data
    .id;
});

async function newCustomer(withKey: string) {
  const res = await api.call('createCustomer', {
    key: withKey,
    body: { name: 'Klant', email: `${crypto.randomUUID()}@example.nl` },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function noteCount() {
  const [row] = await api.sql`select count(*)::int as n from notes`;
  return row.n as number;
}

function expectFieldError(
  res: { status: number; body: { code: string; errors: unknown[] } },
  problem: string,
  pointer: string,
  code: string,
) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe(problem);
  expect(res.body.errors).toEqual([
    expect.objectContaining({ pointer, parameter: null, code, detail: expect.any(String) }),
  ]);
}

describe('createCustomerNote validation', () => {
  const cases: [string, unknown, string, string][] = [
    ['content missing', { is_important: true }, '/content', 'required'],
    ['content empty', { content: '' }, '/content', 'too_short'],
    ['content longer than 10000', { content: 'x'.repeat(10001) }, '/content', 'too_long'],
    ['content not a string', { content: 42 }, '/content', 'invalid_type'],
    ['content null', { content: null }, '/content', 'invalid_type'],
    ['is_important not a boolean', { content: 'a', is_important: 'yes' }, '/is_important', 'invalid_type'],
  ];
  for (const [name, body, pointer, code] of cases) {
    it(`answers 422 validation_failed for ${name} and creates nothing`, async () => {
      const before = await noteCount();
      const res = await api.call('createCustomerNote', { key, params: { customer }, body });
      expectFieldError(res, 'validation_failed', pointer, code);
      expect(await noteCount()).toBe(before);
    });
  }

  it('answers 422 unknown_field for an undocumented field', async () => {
    const res = await api.call('createCustomerNote', {
      key,
      params: { customer },
      body: { content: 'a', author: 'Sanne' },
    });
    expectFieldError(res, 'unknown_field', '/author', 'unknown_field');
  });

  it('lists every invalid input at once', async () => {
    const res = await api.call('createCustomerNote', {
      key,
      params: { customer },
      body: { is_important: 1, extra: true },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    const found = res.body.errors.map((e: { pointer: string; code: string }) => `${e.pointer} ${e.code}`).sort();
    expect(found).toEqual(['/content required', '/extra unknown_field', '/is_important invalid_type']);
  });

  it('answers 422 invalid_json for a malformed body', async () => {
    const res = await api.call('createCustomerNote', {
      key,
      params: { customer },
      rawBody: '{"content": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '', code: 'invalid_json' })]);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await api.call('createCustomerNote', {
      key,
      params: { customer },
      rawBody: 'content=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });
});

describe('updateCustomerNote validation', () => {
  const cases: [string, unknown, string, string, string][] = [
    ['content empty', { content: '' }, '/content', 'validation_failed', 'too_short'],
    ['content longer than 10000', { content: 'x'.repeat(10001) }, '/content', 'validation_failed', 'too_long'],
    ['content null', { content: null }, '/content', 'validation_failed', 'invalid_type'],
    ['is_important not a boolean', { is_important: 'no' }, '/is_important', 'validation_failed', 'invalid_type'],
    ['an unknown field', { parent: { object: 'customer' } }, '/parent', 'unknown_field', 'unknown_field'],
  ];
  for (const [name, body, pointer, problem, code] of cases) {
    it(`answers 422 ${problem} for ${name} and changes nothing`, async () => {
      const res = await api.call('updateCustomerNote', { key, params: { customer, note }, body });
      expectFieldError(res, problem, pointer, code);
      const [row] = await api.sql`select content, version from notes where id = ${note}`;
      expect(row).toEqual({ content: 'bestaand', version: 1 });
    });
  }
});

describe('list query validation', () => {
  it('answers 422 for a limit out of range', async () => {
    for (const limit of [0, 101]) {
      const res = await api.call('listCustomerNotes', { key, params: { customer }, query: { limit } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'limit', pointer: null })]);
    }
  });

  it('answers 422 invalid_cursor for a damaged cursor', async () => {
    const res = await api.call('listCustomerNotes', { key, params: { customer }, query: { cursor: 'not-a-cursor' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
  });

  it('answers 422 invalid_cursor for a cursor of another sort order', async () => {
    const cursor = Buffer.from(JSON.stringify({ s: 'name', v: ['a', note], d: 'n' })).toString('base64url');
    const res = await api.call('listCustomerNotes', { key, params: { customer }, query: { cursor } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
  });

  it('answers 422 unknown_parameter for an unknown query parameter', async () => {
    const res = await api.call('listCustomerNotes', { key, params: { customer }, query: { sort: 'created_at' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'sort', code: 'unknown_parameter' })]);
  });
});

describe('not found', () => {
  const missing = '01900000-0000-7000-8000-000000000000';

  it('answers 404 for an unknown customer on every operation', async () => {
    const results = [
      await api.call('listCustomerNotes', { key, params: { customer: missing } }),
      await api.call('createCustomerNote', { key, params: { customer: missing }, body: { content: 'a' } }),
      await api.call('updateCustomerNote', { key, params: { customer: missing, note }, body: { content: 'a' } }),
      await api.call('deleteCustomerNote', { key, params: { customer: missing, note } }),
    ];
    for (const res of results) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await api.sql`select 1 from notes where id = ${note}`).length).toBe(1);
  });

  it('answers 404 for an unknown note', async () => {
    const patch = await api.call('updateCustomerNote', {
      key,
      params: { customer, note: missing },
      body: { content: 'a' },
    });
    expect(patch.status).toBe(404);
    expect(patch.body.code).toBe('not_found');
    const del = await api.call('deleteCustomerNote', { key, params: { customer, note: missing } });
    expect(del.status).toBe(404);
    expect(del.body.code).toBe('not_found');
  });

  it("answers 404 for another customer's note addressed through this customer", async () => {
    const other = await newCustomer(key);
    const res = await api.call('updateCustomerNote', {
      key,
      params: { customer: other, note },
      body: { content: 'gekaapt' },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const del = await api.call('deleteCustomerNote', { key, params: { customer: other, note } });
    expect(del.status).toBe(404);
    const [row] = await api.sql`select content, customer_id from notes where id = ${note}`;
    expect(row).toEqual({ content: 'bestaand', customer_id: customer });
  });

  it("answers 404 for another company's customer and note, and touches nothing", async () => {
    const { key: otherKey } = await api.tenant();
    const results = [
      await api.call('listCustomerNotes', { key: otherKey, params: { customer } }),
      await api.call('createCustomerNote', { key: otherKey, params: { customer }, body: { content: 'a' } }),
      await api.call('updateCustomerNote', { key: otherKey, params: { customer, note }, body: { content: 'a' } }),
      await api.call('deleteCustomerNote', { key: otherKey, params: { customer, note } }),
    ];
    for (const res of results) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const rows = await api.sql`select content from notes where customer_id = ${customer}`;
    expect(rows.map((r) => r.content)).toEqual(['bestaand']);
  });

  it('answers 422 invalid_format for path ids that are not uuids', async () => {
    const res = await api.call('updateCustomerNote', { key, params: { customer: 'abc', note: 'x' }, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: null, parameter: 'customer', code: 'invalid_format' }),
      expect.objectContaining({ pointer: null, parameter: 'note', code: 'invalid_format' }),
    ]);
  });
});

describe('keys and scopes', () => {
  it('answers 401 without a key', async () => {
    const res = await api.call('listCustomerNotes', { params: { customer } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('needs customers.read to list', async () => {
    const { companyId } = await api.tenant();
    const { key: writeOnly } = await api.key(companyId, { scopes: ['customers.write'] });
    const res = await api.call('listCustomerNotes', { key: writeOnly, params: { customer } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.body.required_scope).toBe('customers.read');
  });

  it('needs customers.write to create, update and delete', async () => {
    const [{ company_id: companyId }] = await api.sql`select company_id from customers where id = ${customer}`;
    const { key: readOnly } = await api.key(companyId, { scopes: ['customers.read'] });
    const results = [
      await api.call('createCustomerNote', { key: readOnly, params: { customer }, body: { content: 'a' } }),
      await api.call('updateCustomerNote', { key: readOnly, params: { customer, note }, body: { content: 'a' } }),
      await api.call('deleteCustomerNote', { key: readOnly, params: { customer, note } }),
    ];
    for (const res of results) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
      expect(res.body.required_scope).toBe('customers.write');
    }
    const [row] = await api.sql`select content from notes where id = ${note}`;
    expect(row.content).toBe('bestaand');
  });
});

describe('idempotency', () => {
  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'a' }, headers });
    expect(first.status).toBe(201);
    const before = await noteCount();
    const res = await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'b' }, headers });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(await noteCount()).toBe(before);
  });

  it('replays a stored validation problem for the same key and body', async () => {
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const missing = '01900000-0000-7000-8000-000000000001';
    const first = await api.call('createCustomerNote', {
      key,
      params: { customer: missing },
      body: { content: 'a' },
      headers,
    });
    expect(first.status).toBe(404);
    const again = await api.call('createCustomerNote', {
      key,
      params: { customer: missing },
      body: { content: 'a' },
      headers,
    });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
