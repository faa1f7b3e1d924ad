// `metadata` on customers (issue 51): stored on creation, merged key by key by PATCH (`""` and `null` remove a key,
// `{}` changes nothing, `null` clears), Stripe's limits answered 422 at the key in the caller's language, the
// `metadata[key]=value` filter (exact, every key, never another company's records), and the batch upsert, which
// merges as PATCH does. The events carry it (events.test.ts in this folder checks their webhooks).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importCustomers } from '../../../src/cli/customers-import.ts';
import { Crm } from '../../../src/client/index.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

let n = 0;
const email = () => `meta${n++}@bakkerij.example.nl`;

const create = (body: Record<string, unknown>, k = key) =>
  api.call<'createCustomer'>('createCustomer', { key: k, body: { email: email(), ...body } });
const patch = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.call<'updateCustomer'>('updateCustomer', { key, params: { customer: id }, body, headers });
const list = (query: Record<string, string>, k = key) =>
  api.call<'listCustomers'>('listCustomers', { key: k, query: { limit: 100, ...query } });

describe('create and update', () => {
  it('stores the keys sent on creation, `{}` when none, and leaves out keys sent empty', async () => {
    const plain = await create({});
    expect(plain.status).toBe(201);
    expect(plain.body.data.metadata).toEqual({});
    const tagged = await create({ metadata: { shop_id: '8812', 'sync.source': 'shopify', gone: '', none: null } });
    expect(tagged.status).toBe(201);
    expect(tagged.body.data.metadata).toEqual({ shop_id: '8812', 'sync.source': 'shopify' });
    const got = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: tagged.body.data.id } });
    expect(got.body.data.metadata).toEqual({ shop_id: '8812', 'sync.source': 'shopify' });
    expect((await create({ metadata: null })).body.data.metadata).toEqual({});
  });

  it('merges a PATCH key by key: sets, replaces, removes with "" or null, keeps the keys not sent', async () => {
    const { body } = await create({ metadata: { a: '1', b: '2', c: '3' } });
    const id = body.data.id;
    const merged = await patch(id, { metadata: { a: 'one', b: '', c: null, d: '4' } });
    expect(merged.status).toBe(200);
    expect(merged.body.data.metadata).toEqual({ a: 'one', d: '4' });
    expect(merged.body.data.updated_at >= body.data.updated_at).toBe(true);
    expect(merged.headers.get('etag')).toBe('"2"');
    // Other fields alone leave the metadata as it is.
    const renamed = await patch(id, { name: 'Anna' });
    expect(renamed.body.data).toMatchObject({ name: 'Anna', metadata: { a: 'one', d: '4' } });
  });

  it('`{}` and the stored values again change nothing (no new version, no event); `null` clears every key', async () => {
    const { body } = await create({ metadata: { a: '1' } });
    const id = body.data.id;
    const same = await patch(id, { metadata: {} });
    expect(same.headers.get('etag')).toBe('"1"');
    const again = await patch(id, { metadata: { a: '1' } });
    expect(again.headers.get('etag')).toBe('"1"');
    const removingNothing = await patch(id, { metadata: { never_set: null } });
    expect(removingNothing.headers.get('etag')).toBe('"1"');
    const cleared = await patch(id, { metadata: null });
    expect(cleared.body.data.metadata).toEqual({});
    expect(cleared.headers.get('etag')).toBe('"2"');
    const events = await api.sql`select type from events where company_id = ${companyId} and customer_id = ${id}
                                 order by created_at, id`;
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated']);
  });

  it('honours If-Match with a metadata change like any other', async () => {
    const { body } = await create({ metadata: { a: '1' } });
    const stale = await api.call('updateCustomer', {
      key,
      params: { customer: body.data.id },
      body: { metadata: { a: '2' } },
      headers: { 'If-Match': '"7"' },
    });
    expect(stale.status).toBe(412);
    expect((await patch(body.data.id, { metadata: { a: '2' } }, { 'If-Match': '"1"' })).body.data.metadata).toEqual({
      a: '2',
    });
  });
});

describe('limits: 422 naming the key, in the caller’s language', () => {
  const refused = async (metadata: unknown, language = 'en') => {
    const response = await api.call('createCustomer', {
      key,
      body: { email: email(), metadata },
      headers: { 'Accept-Language': language },
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('validation_failed');
    return response.body.errors as { pointer: string; code: string; detail: string }[];
  };

  it('refuses 51 keys at /metadata, takes 50', async () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
    expect(await refused(keys(51))).toEqual([
      { pointer: '/metadata', parameter: null, code: 'too_big', detail: 'At most 50 keys.' },
    ]);
    expect(await refused(keys(51), 'nl')).toEqual([
      { pointer: '/metadata', parameter: null, code: 'too_big', detail: 'Hooguit 50 sleutels.' },
    ]);
    expect(Object.keys((await create({ metadata: keys(50) })).body.data.metadata)).toHaveLength(50);
  });

  it('refuses a 41-character key, a key with other characters and a 501-character value, each at its key', async () => {
    const long = 'k'.repeat(41);
    const errors = await refused({ [long]: 'x', 'shop id': 'x', 'ok.key': 'v'.repeat(501), n: 5 }, 'de');
    expect(errors).toEqual([
      {
        pointer: `/metadata/${long}`,
        parameter: null,
        code: 'too_long',
        detail: 'Darf höchstens 40 Zeichen lang sein.',
      },
      {
        pointer: '/metadata/shop id',
        parameter: null,
        code: 'invalid_format',
        detail: 'Ein Schlüssel besteht aus Buchstaben, Ziffern, `_`, `-` und `.`.',
      },
      {
        pointer: '/metadata/ok.key',
        parameter: null,
        code: 'too_long',
        detail: 'Darf höchstens 500 Zeichen lang sein.',
      },
      { pointer: '/metadata/n', parameter: null, code: 'invalid_type', detail: expect.any(String) },
    ]);
    // The limits themselves are allowed.
    const edge = await create({ metadata: { ['k'.repeat(40)]: 'v'.repeat(500) } });
    expect(edge.status).toBe(201);
  });

  it('refuses an array as the object; ignores a key `__proto__`, which no JavaScript client could read back', async () => {
    expect((await refused(['a']))[0]).toMatchObject({ pointer: '/metadata', code: 'invalid_type' });
    const proto = await create({ metadata: JSON.parse('{"__proto__": "x", "kept": "y"}') });
    expect(proto.status).toBe(201);
    expect(Object.keys(proto.body.data.metadata)).toEqual(['kept']);
  });

  it('refuses a PATCH whose merge would leave more than 50 keys, changing nothing', async () => {
    const keys = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`a${i}`, 'v']));
    const { body } = await create({ metadata: keys });
    const more = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`b${i}`, 'v']));
    const response = await api.call('updateCustomer', {
      key,
      params: { customer: body.data.id },
      body: { metadata: more, name: 'Changed' },
      headers: { 'Accept-Language': 'fr' },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      { pointer: '/metadata', parameter: null, code: 'too_big', detail: 'Au plus 50 clés.' },
    ]);
    const after = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: body.data.id } });
    expect(after.body.data).toMatchObject({ name: null, metadata: keys });
    // Removing one key while adding 21 fits.
    const fits = await patch(body.data.id, { metadata: { ...more, a0: null } });
    expect(Object.keys(fits.body.data.metadata)).toHaveLength(50);
  });
});

describe('metadata[key]=value', () => {
  it('finds exact matches only, every key sent must match, and pages like the unfiltered list', async () => {
    const [one, two, three] = await Promise.all([
      create({ metadata: { crm_filter: 'x1', region: 'north' } }),
      create({ metadata: { crm_filter: 'x1', region: 'south' } }),
      create({ metadata: { crm_filter: 'X1', region: 'north' } }),
    ]);
    const ids = (response: Awaited<ReturnType<typeof list>>) => response.body.data.map((c) => c.id).sort();
    expect(ids(await list({ 'metadata[crm_filter]': 'x1' }))).toEqual([one.body.data.id, two.body.data.id].sort());
    expect(ids(await list({ 'metadata[crm_filter]': 'x1', 'metadata[region]': 'north' }))).toEqual([one.body.data.id]);
    expect(ids(await list({ 'metadata[crm_filter]': 'X1' }))).toEqual([three.body.data.id]);
    expect(ids(await list({ 'metadata[crm_filter]': 'x' }))).toEqual([]);
    expect(ids(await list({ 'metadata[region]': 'north', 'filter[email]': one.body.data.email }))).toEqual([
      one.body.data.id,
    ]);
    const first = await list({ 'metadata[crm_filter]': 'x1', limit: '1' });
    expect(first.body.data).toHaveLength(1);
    const next = await list({ 'metadata[crm_filter]': 'x1', limit: '1', cursor: first.body.meta.next_cursor ?? '' });
    expect(next.body.data.map((c) => c.id)).not.toEqual(first.body.data.map((c) => c.id));
    expect(next.body.data).toHaveLength(1);
  });

  it('follows changes: a removed key no longer matches, a new one does', async () => {
    const { body } = await create({ metadata: { follow: 'a' } });
    await patch(body.data.id, { metadata: { follow: null, later: 'b' } });
    expect((await list({ 'metadata[follow]': 'a' })).body.data).toEqual([]);
    expect((await list({ 'metadata[later]': 'b' })).body.data.map((c) => c.id)).toEqual([body.data.id]);
  });

  it('never matches another company’s records with the same key and value', async () => {
    const other = await api.tenant();
    const mine = await create({ metadata: { shared_ref: 'same' } });
    const theirs = await create({ metadata: { shared_ref: 'same' } }, other.key);
    expect(theirs.status).toBe(201);
    expect((await list({ 'metadata[shared_ref]': 'same' })).body.data.map((c) => c.id)).toEqual([mine.body.data.id]);
    expect((await list({ 'metadata[shared_ref]': 'same' }, other.key)).body.data.map((c) => c.id)).toEqual([
      theirs.body.data.id,
    ]);
  });

  it('pages a common value (past the index candidates: the ordered scan) like a rare one', async () => {
    // 600 customers with one value, three of them with a second: written directly, the API would take long.
    await api.sql`
      insert into customers (company_id, id, email, metadata, created_at, updated_at)
      select ${companyId}, gen_random_uuid(), 'bulk' || g || '@meta.example.nl',
             case when g % 200 = 0 then '{"bulk": "x", "pick": "y"}'::jsonb else '{"bulk": "x"}'::jsonb end,
             now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, 600) g`;
    const seen = new Set<string>();
    let cursor: string | null | undefined;
    do {
      const page = await list({ 'metadata[bulk]': 'x', ...(cursor ? { cursor } : {}) });
      for (const c of page.body.data) seen.add(c.id);
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    expect(seen.size).toBe(600);
    expect((await list({ 'metadata[bulk]': 'x', 'metadata[pick]': 'y' })).body.data).toHaveLength(3);
  });

  it('refuses a filter key or value outside the limits, naming the parameter', async () => {
    const bad = await api.call('listCustomers', { key, query: { 'metadata[bad key]': 'x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      expect.objectContaining({ parameter: 'metadata[bad key]', pointer: null, code: 'invalid_format' }),
    ]);
    const long = await api.call('listCustomers', { key, query: { 'metadata[a]': 'v'.repeat(501) } });
    expect(long.body.errors).toEqual([expect.objectContaining({ parameter: 'metadata[a]', code: 'too_long' })]);
    const bare = await api.call('listCustomers', { key, query: { metadata: 'x' } });
    expect(bare.status).toBe(422);
    expect(bare.body.errors).toEqual([expect.objectContaining({ parameter: 'metadata', code: 'invalid_type' })]);
  });
});

describe('POST /customers/batch', () => {
  it('stores an item’s metadata on a new customer and merges it into a matched one as PATCH does', async () => {
    const address = email();
    const first = await api.call<'upsertCustomers'>('upsertCustomers', {
      key,
      body: { items: [{ email: address, metadata: { a: '1', b: '2', skip: '' } }] },
    });
    expect(first.body.items[0]).toMatchObject({ outcome: 'created', data: { metadata: { a: '1', b: '2' } } });
    const second = await api.call<'upsertCustomers'>('upsertCustomers', {
      key,
      body: {
        items: [
          { email: address, metadata: { a: '1' } },
          { email: email(), metadata: { c: '3' } },
        ],
      },
    });
    expect(second.body.items.map((item) => item.outcome)).toEqual(['unchanged', 'created']);
    const third = await api.call<'upsertCustomers'>('upsertCustomers', {
      key,
      body: { items: [{ email: address, metadata: { a: null, c: '3' } }] },
    });
    expect(third.body.items[0]).toMatchObject({ outcome: 'updated', data: { metadata: { b: '2', c: '3' } } });
  });

  it('fails an item whose metadata breaks a limit, at its pointer, and writes the others', async () => {
    const id = (await create({ metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])) }))
      .body.data.id;
    const result = await api.call<'upsertCustomers'>('upsertCustomers', {
      key,
      body: {
        items: [
          { id, metadata: { extra: 'v' } },
          { email: email(), metadata: { 'no spaces': 'x' } },
          { email: email() },
        ],
      },
    });
    expect(result.body.items.map((item) => item.outcome)).toEqual(['failed', 'failed', 'created']);
    expect(result.body.items[0]).toMatchObject({
      problem: { errors: [{ pointer: '/items/0/metadata', code: 'too_big' }] },
    });
    expect(result.body.items[1]).toMatchObject({
      problem: { errors: [{ pointer: '/items/1/metadata/no spaces', code: 'invalid_format' }] },
    });
  });
});

describe('customers import (CSV)', () => {
  it('reads `metadata.<key>` columns as keys: a value sets the key, an empty cell leaves it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'metadata-import-'));
    const file = join(dir, 'customers.csv');
    writeFileSync(file, 'email,name,metadata.shop_id,metadata.tier\ncsv1@meta.example.nl,Anna,S-1,gold\n');
    expect(await importCustomers(api.db, companyId, file, 'csv')).toMatchObject({ created: 1, failed: 0 });
    writeFileSync(file, 'email,metadata.shop_id,metadata.tier,metadata.bad key\ncsv1@meta.example.nl,S-2,,\n');
    expect(await importCustomers(api.db, companyId, file, 'csv')).toMatchObject({ updated: 1, failed: 0 });
    const [found] = (await list({ 'metadata[shop_id]': 'S-2' })).body.data;
    expect(found).toMatchObject({ email: 'csv1@meta.example.nl', metadata: { shop_id: 'S-2', tier: 'gold' } });
    writeFileSync(file, 'email,metadata.bad key\ncsv1@meta.example.nl,x\n');
    const refused = await importCustomers(api.db, companyId, file, 'csv');
    expect(refused.failures).toEqual([
      { line: 2, errors: [{ field: 'metadata/bad key', code: 'invalid_format', detail: expect.any(String) }] },
    ]);
  });
});

describe('the client package', () => {
  it('sends metadata and filters on it with metadata[key]=value, typed as a map of strings', async () => {
    const crm = new Crm({
      apiKey: key,
      baseUrl: 'http://api.test/api/v1',
      fetch: async (input, init) => api.app.request(input instanceof URL ? input.href : input, init),
    });
    const created = await crm.customers.create({ email: email(), metadata: { client_ref: 'c-1', tier: 'gold' } });
    const metadata: Record<string, string> = created.metadata;
    expect(metadata).toEqual({ client_ref: 'c-1', tier: 'gold' });
    await crm.customers.update(created.id, { metadata: { tier: null } });
    const found = [];
    for await (const customer of crm.customers.list({ metadata: { client_ref: 'c-1' } })) found.push(customer);
    expect(found.map((c) => [c.id, c.metadata])).toEqual([[created.id, { client_ref: 'c-1' }]]);
  });
});
