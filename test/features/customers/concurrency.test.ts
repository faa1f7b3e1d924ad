// ETag / If-Match on PATCH and convert, and what happens when requests on the same customer race.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

let n = 0;
async function newLead(body: Record<string, unknown> = {}) {
  const res = await api.call('createCustomer', {
    key,
    body: { email: `etag${n++}@example.nl`, name: 'Eerst', ...body },
  });
  expect(res.status).toBe(201);
  return res;
}

const version = async (id: string) =>
  Number((await api.sql`select version from customers where id = ${id}`)[0].version);

describe('If-Match on updateCustomer', () => {
  it('a matching ETag updates and answers the next ETag', async () => {
    const created = await newLead();
    const etag = created.headers.get('etag') as string;
    expect(etag).toBe('"1"');
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.body.data.id },
      headers: { 'if-match': etag },
      body: { name: 'Tweede' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data.name).toBe('Tweede');
    // The ETag of GET follows.
    const got = await api.call('getCustomer', { key, params: { customer: created.body.data.id } });
    expect(got.headers.get('etag')).toBe('"2"');
  });

  it('a stale ETag answers 412 precondition_failed and changes nothing', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    await api.call('updateCustomer', { key, params: { customer: id }, body: { name: 'Tussendoor' } });
    const before = await api.call('getCustomer', { key, params: { customer: id } });
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: id },
      headers: { 'if-match': '"1"' },
      body: { name: 'Te laat', city: 'Delft' },
    });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    expect(res.body.detail).toContain('"2"');
    const after = await api.call('getCustomer', { key, params: { customer: id } });
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe('"2"');
    const events = await api.sql`select type from events where customer_id = ${id} order by created_at, id`;
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated']);
  });

  it('a stale ETag on a request that would change nothing still answers 412', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    await api.call('updateCustomer', { key, params: { customer: id }, body: { name: 'Anders' } });
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: id },
      headers: { 'if-match': '"1"' },
      body: { name: 'Anders' },
    });
    expect(res.status).toBe(412);
  });

  it('If-Match: * updates whatever the version', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    await api.call('updateCustomer', { key, params: { customer: id }, body: { name: 'Een' } });
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: id },
      headers: { 'if-match': '*' },
      body: { name: 'Twee' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"3"');
    expect(res.body.data.name).toBe('Twee');
  });

  it.each([
    'W/"1"',
    '1',
    'abc',
    '"2", "3"',
    '"1" "2"',
    '"01"',
    '"1"x',
  ])('If-Match %s names no current strong ETag: 412', async (tag) => {
    const created = await newLead();
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.body.data.id },
      headers: { 'if-match': tag },
      body: { name: 'Nee' },
    });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    expect(await version(created.body.data.id)).toBe(1);
  });

  it.each([
    '"7", "1"',
    '"1" , W/"2"',
    '"1",',
    '"2", , "1"',
    '"a,b", "1"',
  ])('If-Match %s lists the current ETag (RFC 9110): 200', async (tag) => {
    const created = await newLead();
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.body.data.id },
      headers: { 'if-match': tag },
      body: { name: 'Lijst' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
  });

  it('a no-op PATCH with the current ETag keeps that ETag', async () => {
    const created = await newLead();
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.body.data.id },
      headers: { 'if-match': '"1"' },
      body: { name: 'Eerst' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(await version(created.body.data.id)).toBe(1);
  });

  it('a 404 wins over a precondition on an unknown customer', async () => {
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30' },
      headers: { 'if-match': '"1"' },
      body: { name: 'x' },
    });
    expect(res.status).toBe(404);
  });
});

describe('If-Match on convertCustomer', () => {
  it('a matching ETag converts', async () => {
    const created = await newLead();
    const res = await api.call('convertCustomer', {
      key,
      params: { customer: created.body.data.id },
      headers: { 'if-match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data.status).toBe('customer');
  });

  it('a stale ETag answers 412 and the lead stays a lead', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    await api.call('updateCustomer', { key, params: { customer: id }, body: { name: 'Nieuw' } });
    const res = await api.call('convertCustomer', { key, params: { customer: id }, headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    const got = await api.call('getCustomer', { key, params: { customer: id } });
    expect(got.body.data).toMatchObject({ status: 'lead', converted_at: null });
  });
});

describe('races', () => {
  it('two concurrent creates with the same email: exactly one 201 and one 422 already_exists', async () => {
    const results = await Promise.all([
      api.call('createCustomer', { key, body: { email: 'race@example.nl' } }),
      api.call('createCustomer', { key, body: { email: 'RACE@example.nl' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    const failed = results.find((r) => r.status === 422);
    expect(failed?.body.code).toBe('validation_failed');
    expect(failed?.body.errors).toEqual([expect.objectContaining({ pointer: '/email', code: 'already_exists' })]);
    const rows =
      await api.sql`select id from customers where company_id = ${companyId} and lower(email) = 'race@example.nl'`;
    expect(rows).toHaveLength(1);
    const events =
      await api.sql`select customer_id from events where type = 'customer.created' and customer_id = ${rows[0].id}`;
    expect(events).toHaveLength(1);
  });

  it('two concurrent PATCHes with the same If-Match: one 200 and one 412', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    const results = await Promise.all(
      ['A', 'B'].map((name) =>
        api.call('updateCustomer', { key, params: { customer: id }, headers: { 'if-match': '"1"' }, body: { name } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    const winner = results.find((r) => r.status === 200);
    const got = await api.call('getCustomer', { key, params: { customer: id } });
    expect(got.body.data.name).toBe(winner?.body.data.name);
    expect(await version(id)).toBe(2);
  });

  it('concurrent PATCHes without If-Match all succeed (last write wins)', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    const results = await Promise.all(
      ['A', 'B', 'C'].map((name) => api.call('updateCustomer', { key, params: { customer: id }, body: { name } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await version(id)).toBe(4);
  });

  it('two concurrent converts: one 200 and one 409 conflict', async () => {
    const created = await newLead();
    const id = created.body.data.id;
    const results = await Promise.all([
      api.call('convertCustomer', { key, params: { customer: id } }),
      api.call('convertCustomer', { key, params: { customer: id } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const events = await api.sql`select id from events where type = 'customer.converted' and customer_id = ${id}`;
    expect(events).toHaveLength(1);
  });
});
