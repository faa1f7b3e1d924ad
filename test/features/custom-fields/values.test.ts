// Custom fields' values on customers and deals (issue 51, points 5 and 8): stored on creation, merged key by key
// by PATCH (`null` removes), checked by type against the company's fields (422 at /custom_fields/<key> in the
// caller's language, a select naming its options), required fields on creation, the batch upserts, the events
// (a value change is a customer.updated), type changes that convert stored values or answer 409, and deletion
// that removes the values at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

const define = async (body: Record<string, unknown>, k = key) => {
  const res = await api.call('createCustomField', {
    key: k,
    body: { resource: 'customers', labels: { en: String(body.key) }, ...body },
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; key: string };
};

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  await define({ key: 'employees', type: 'number' });
  await define({ key: 'revenue', type: 'money' });
  await define({ key: 'ratio', type: 'number', decimals: 2 });
  await define({ key: 'since', type: 'date' });
  await define({ key: 'vip', type: 'boolean' });
  await define({ key: 'notes_text', type: 'long_text' });
  await define({ key: 'nickname', type: 'text' });
  await define({ key: 'site', type: 'url' });
  await define({ key: 'contact_mail', type: 'email' });
  await define({ key: 'mobile', type: 'phone' });
  await define({
    key: 'level',
    type: 'single_select',
    options: [
      { key: 'gold', labels: { en: 'Gold' } },
      { key: 'silver', labels: { en: 'Silver' } },
    ],
  });
  await define({
    key: 'tags',
    type: 'multi_select',
    options: [
      { key: 'a', labels: { en: 'A' } },
      { key: 'b', labels: { en: 'B' } },
      { key: 'c', labels: { en: 'C' } },
    ],
  });
  await define({ resource: 'deals', key: 'contract_end', type: 'date' });
});

let n = 0;
const email = () => `cf${n++}@klant.example.nl`;
const createCustomer = (body: Record<string, unknown>, headers?: Record<string, string>, k = key) =>
  api.call('createCustomer', { key: k, body: { email: email(), ...body }, headers });
const patchCustomer = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  api.call('updateCustomer', { key, params: { customer: id }, body, headers });

const ALL = {
  employees: 12,
  revenue: '1250.00',
  ratio: 0.25,
  since: '2024-02-29',
  vip: true,
  notes_text: 'Line one\nLine two',
  nickname: 'Bakker',
  site: 'https://bakker.example.nl/over-ons',
  contact_mail: 'info@bakker.example.nl',
  mobile: '+31612345678',
  level: 'gold',
  tags: ['b', 'a'],
};

describe('customers', () => {
  it('stores a value of every type and reads it back as sent; `{}` without values', async () => {
    const plain = await createCustomer({});
    expect(plain.status).toBe(201);
    expect(plain.body.data.custom_fields).toEqual({});
    const full = await createCustomer({ custom_fields: ALL });
    expect(full.status).toBe(201);
    expect(full.body.data.custom_fields).toEqual(ALL);
    const got = await api.call('getCustomer', { key, params: { customer: full.body.data.id } });
    expect(got.body.data.custom_fields).toEqual(ALL);
    expect(got.body.data.custom_fields.tags).toEqual(['b', 'a']);
  });

  it('merges a PATCH key by key, removes with null, and a change is a customer.updated event', async () => {
    const { body } = await createCustomer({ custom_fields: { employees: 3, level: 'silver' } });
    const id = body.data.id;
    const patched = await patchCustomer(id, { custom_fields: { employees: 4, level: null, vip: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.custom_fields).toEqual({ employees: 4, vip: false });
    expect(patched.headers.get('etag')).toBe('"2"');
    // The same values again, `{}`, and removing a key not set change nothing.
    for (const same of [{ employees: 4 }, {}, { since: null }]) {
      const again = await patchCustomer(id, { custom_fields: same });
      expect(again.headers.get('etag')).toBe('"2"');
    }
    const events = await api.sql`select type, data from events where company_id = ${companyId} and customer_id = ${id}
                                 order by created_at, id`;
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated']);
    expect(events[1]?.data.object.custom_fields).toEqual({ employees: 4, vip: false });
    const listed = await api.call('listEvents', { key, query: { 'filter[type]': 'customer.updated', limit: 100 } });
    const ours = listed.body.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === id);
    expect(ours.data.object.custom_fields).toEqual({ employees: 4, vip: false });
  });

  it.each([
    ['employees', 'twelve', 'invalid_type'],
    ['employees', 1.5, 'invalid_format'],
    ['employees', 1e16, 'too_big'],
    ['ratio', 0.125, 'invalid_format'],
    ['revenue', '12.5', 'invalid_format'],
    ['revenue', 12.5, 'invalid_type'],
    ['since', '2023-02-29', 'invalid_format'],
    ['since', '29-02-2024', 'invalid_format'],
    ['vip', 'yes', 'invalid_type'],
    ['nickname', '', 'invalid_type'],
    ['nickname', 'x'.repeat(256), 'too_long'],
    ['site', 'ftp://bakker.example.nl', 'invalid_format'],
    ['contact_mail', 'not-an-email', 'invalid_format'],
    ['mobile', '0612345678', 'invalid_format'],
    ['level', 'bronze', 'invalid_enum'],
    ['tags', ['a', 'a'], 'invalid_enum'],
    ['tags', ['d'], 'invalid_enum'],
    ['tags', 'a', 'invalid_type'],
  ])('refuses %s = %j with 422 %s at /custom_fields/<key>', async (field, value, code) => {
    const res = await createCustomer({ custom_fields: { [field]: value } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toContainEqual(expect.objectContaining({ pointer: `/custom_fields/${field}`, code }));
  });

  it('names the options of a select in the caller language; an unknown key is refused too', async () => {
    const nl = await createCustomer({ custom_fields: { level: 'bronze', colour: 'red' } }, { 'Accept-Language': 'nl' });
    expect(nl.status).toBe(422);
    const level = nl.body.errors.find((e: { pointer: string }) => e.pointer === '/custom_fields/level');
    expect(level.detail).toBe('Moet de sleutel van een van de opties zijn: gold, silver.');
    const unknown = nl.body.errors.find((e: { pointer: string }) => e.pointer === '/custom_fields/colour');
    expect(unknown.code).toBe('unknown_field');
    const fr = await createCustomer({ custom_fields: { tags: ['x'] } }, { 'Accept-Language': 'fr' });
    expect(fr.body.errors[0].detail).toContain('a, b, c');
    expect(fr.headers.get('content-language')).toBe('fr');
    const onPatch = await patchCustomer((await createCustomer({})).body.data.id, { custom_fields: { level: 1 } });
    expect(onPatch.status).toBe(422);
    expect(onPatch.body.errors[0].pointer).toBe('/custom_fields/level');
  });

  it('a required field: needed on creation, cannot be removed; records before it keep having none', async () => {
    const { key: k2 } = await api.tenant();
    const before = await createCustomer({}, undefined, k2);
    await define({ key: 'segment', type: 'text', required: true }, k2);
    const without = await createCustomer({}, undefined, k2);
    expect(without.status).toBe(422);
    expect(without.body.errors[0]).toMatchObject({ pointer: '/custom_fields/segment', code: 'required' });
    const nulled = await createCustomer({ custom_fields: { segment: null } }, undefined, k2);
    expect(nulled.body.errors[0]).toMatchObject({ pointer: '/custom_fields/segment', code: 'required' });
    const made = await createCustomer({ custom_fields: { segment: 'retail' } }, undefined, k2);
    expect(made.status).toBe(201);
    const removed = await api.call('updateCustomer', {
      key: k2,
      params: { customer: made.body.data.id },
      body: { custom_fields: { segment: null } },
    });
    expect(removed.status).toBe(422);
    expect(removed.body.errors[0]).toMatchObject({ pointer: '/custom_fields/segment', code: 'required' });
    // An older record changes without the value.
    const renamed = await api.call('updateCustomer', {
      key: k2,
      params: { customer: before.body.data.id },
      body: { name: 'Old' },
    });
    expect(renamed.status).toBe(200);
  });

  it("another company's fields are unknown here", async () => {
    const { key: k3 } = await api.tenant();
    const res = await createCustomer({ custom_fields: { employees: 3 } }, undefined, k3);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: '/custom_fields/employees', code: 'unknown_field' });
  });

  it('the batch upsert checks and merges values as create and PATCH do', async () => {
    const existing = await createCustomer({ custom_fields: { employees: 1, vip: true } });
    const res = await api.call('upsertCustomers', {
      key,
      body: {
        items: [
          { id: existing.body.data.id, custom_fields: { employees: 2, vip: null } },
          { email: email(), custom_fields: { level: 'gold' } },
          { email: email(), custom_fields: { level: 'bronze' } },
        ],
      },
    });
    expect(res.status).toBe(200);
    const [updated, created, failed] = res.body.items;
    expect(updated.data.custom_fields).toEqual({ employees: 2 });
    expect(created.data.custom_fields).toEqual({ level: 'gold' });
    expect(failed.outcome).toBe('failed');
    expect(JSON.stringify(failed)).toContain('/items/2/custom_fields/level');
  });
});

describe('deals', () => {
  it('create, PATCH, the event and a refusal at /custom_fields/<key>', async () => {
    const customer = await createCustomer({});
    const deal = await api.call('createDeal', {
      key,
      body: { customer_id: customer.body.data.id, title: 'Onderhoud', custom_fields: { contract_end: '2027-01-31' } },
    });
    expect(deal.status).toBe(201);
    expect(deal.body.data.custom_fields).toEqual({ contract_end: '2027-01-31' });
    const patched = await api.call('updateDeal', {
      key,
      params: { deal: deal.body.data.id },
      body: { custom_fields: { contract_end: '2028-01-31' } },
    });
    expect(patched.body.data.custom_fields).toEqual({ contract_end: '2028-01-31' });
    const events = await api.sql`select type, data from events where company_id = ${companyId}
                                 and data -> 'object' ->> 'id' = ${deal.body.data.id}
                                 order by created_at, id`;
    expect(events.map((e) => e.type)).toEqual(['deal.created', 'deal.updated']);
    expect(events[1]?.data.object.custom_fields).toEqual({ contract_end: '2028-01-31' });
    // A field of customers is unknown on deals.
    const wrong = await api.call('updateDeal', {
      key,
      params: { deal: deal.body.data.id },
      body: { custom_fields: { employees: 3, contract_end: 'soon' } },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/custom_fields/contract_end',
      '/custom_fields/employees',
    ]);
  });
});

describe('changing and deleting a field', () => {
  it('converts stored values when every one converts, else 409 and nothing changes', async () => {
    const field = await define({ key: 'size_num', type: 'number' });
    const a = await createCustomer({ custom_fields: { size_num: 3 } });
    const toText = await api.call('updateCustomField', { key, params: { field: field.id }, body: { type: 'text' } });
    expect(toText.status).toBe(200);
    const read = await api.call('getCustomer', { key, params: { customer: a.body.data.id } });
    expect(read.body.data.custom_fields.size_num).toBe('3');
    // Back to a number: "3" converts; after a text value that is no number, it no longer does.
    await patchCustomer((await createCustomer({})).body.data.id, { custom_fields: { size_num: 'large' } });
    const refused = await api.call('updateCustomField', { key, params: { field: field.id }, body: { type: 'number' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    const still = await api.call('getCustomField', { key, params: { field: field.id } });
    expect(still.body.data.type).toBe('text');
    expect(
      (await api.call('getCustomer', { key, params: { customer: a.body.data.id } })).body.data.custom_fields.size_num,
    ).toBe('3');
  });

  it('a single choice converts to a multiple one; dropping an option records hold is 409', async () => {
    const field = await define({
      key: 'tier',
      type: 'single_select',
      options: [
        { key: 'one', labels: { en: 'One' } },
        { key: 'two', labels: { en: 'Two' } },
      ],
    });
    const a = await createCustomer({ custom_fields: { tier: 'two' } });
    const drop = await api.call('updateCustomField', {
      key,
      params: { field: field.id },
      body: { options: [{ key: 'one', labels: { en: 'One' } }] },
    });
    expect(drop.status).toBe(409);
    expect(drop.body.detail).toContain('two');
    const multi = await api.call('updateCustomField', {
      key,
      params: { field: field.id },
      body: { type: 'multi_select' },
    });
    expect(multi.status).toBe(200);
    expect(multi.body.data.options.map((o: { key: string }) => o.key)).toEqual(['one', 'two']);
    const read = await api.call('getCustomer', { key, params: { customer: a.body.data.id } });
    expect(read.body.data.custom_fields.tier).toEqual(['two']);
  });

  it('deleting a field removes its values at once; the key can be defined again, empty', async () => {
    const field = await define({ key: 'temp', type: 'boolean' });
    const a = await createCustomer({ custom_fields: { temp: true, employees: 5 } });
    const deleted = await api.call('deleteCustomField', { key, params: { field: field.id } });
    expect(deleted.status).toBe(200);
    const read = await api.call('getCustomer', { key, params: { customer: a.body.data.id } });
    expect(read.body.data.custom_fields).toEqual({ employees: 5 });
    const unknown = await createCustomer({ custom_fields: { temp: true } });
    expect(unknown.status).toBe(422);
    await define({ key: 'temp', type: 'text' });
    const again = await api.call('getCustomer', { key, params: { customer: a.body.data.id } });
    expect(again.body.data.custom_fields).toEqual({ employees: 5 });
  });
});
