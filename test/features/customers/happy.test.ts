// The successful path of every customer operation, with every field of every response checked.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const FULL = {
  email: 'info@installatiebedrijfdekker.nl',
  type: 'business',
  name: 'Peter Dekker',
  phone: '+31 30 234 5678',
  company_name: 'Installatiebedrijf Dekker',
  address: 'Oudegracht 120',
  postal_code: '3511 AX',
  city: 'Utrecht',
  country: 'nl',
  vat_number: 'NL001234560B01',
  coc_number: '30123456',
} as const;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
});

async function create(body: Record<string, unknown>) {
  const res = await api.call<'createCustomer'>('createCustomer', { key, body });
  expect(res.status).toBe(201);
  return res;
}

describe('createCustomer', () => {
  it('creates a lead with every field and answers 201 with an ETag', async () => {
    const before = Date.now();
    const res = await create(FULL);
    const after = Date.now();
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const data = res.body.data;
    expect(data).toEqual({
      object: 'customer',
      id: expect.stringMatching(UUID),
      type: 'business',
      status: 'lead',
      name: 'Peter Dekker',
      email: 'info@installatiebedrijfdekker.nl',
      phone: '+31 30 234 5678',
      company_name: 'Installatiebedrijf Dekker',
      vat_number: 'NL001234560B01',
      coc_number: '30123456',
      peppol_id: null,
      address: 'Oudegracht 120',
      postal_code: '3511 AX',
      city: 'Utrecht',
      country: 'NL',
      email_unsubscribed: false,
      converted_at: null,
      last_activity_at: null,
      metadata: {},
      custom_fields: {},
      created_at: expect.stringMatching(ISO_Z),
      updated_at: expect.stringMatching(ISO_Z),
    });
    expect(data.updated_at).toBe(data.created_at);
    const created = Date.parse(data.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(after + 1000);
  });

  it('with only an email fills the defaults: individual lead, every other field null', async () => {
    const res = await create({ email: 'alleen@example.nl' });
    expect(res.body.data).toMatchObject({
      type: 'individual',
      status: 'lead',
      email: 'alleen@example.nl',
      name: null,
      phone: null,
      company_name: null,
      vat_number: null,
      coc_number: null,
      address: null,
      postal_code: null,
      city: null,
      country: null,
      email_unsubscribed: false,
      converted_at: null,
      last_activity_at: null,
    });
  });

  it('stores the country in upper case', async () => {
    const res = await create({ email: 'land@example.nl', country: 'de' });
    expect(res.body.data.country).toBe('DE');
    const got = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: res.body.data.id } });
    expect(got.body.data.country).toBe('DE');
  });
});

describe('getCustomer', () => {
  it('answers the same customer as created, with its ETag', async () => {
    const created = await create({ ...FULL, email: 'get@example.nl' });
    const got = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: created.body.data.id } });
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe('"1"');
    expect(got.body).toEqual(created.body);
  });
});

describe('updateCustomer', () => {
  it('changes only the fields sent, null clears, and bumps the ETag', async () => {
    const created = (await create({ ...FULL, email: 'patch@example.nl' })).body.data;
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.id },
      body: { phone: '+31 20 765 4321', city: 'Haarlem', company_name: null, country: 'be' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toEqual({
      ...created,
      phone: '+31 20 765 4321',
      city: 'Haarlem',
      company_name: null,
      country: 'BE',
      updated_at: expect.stringMatching(ISO_Z),
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
    const got = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: created.id } });
    expect(got.body.data).toEqual(res.body.data);
    expect(got.headers.get('etag')).toBe('"2"');
  });

  it('can change the email and the type', async () => {
    const created = (await create({ email: 'oud@example.nl' })).body.data;
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.id },
      body: { email: 'nieuw@example.nl', type: 'business' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email: 'nieuw@example.nl', type: 'business', status: 'lead' });
  });

  it('may change the case of its own email address', async () => {
    const created = (await create({ email: 'hoofd@example.nl' })).body.data;
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.id },
      body: { email: 'Hoofd@Example.nl' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe('Hoofd@Example.nl');
  });

  it('a no-op PATCH keeps the version, the ETag and updated_at', async () => {
    const created = await create({ ...FULL, email: 'noop@example.nl' });
    const { id, name, city } = created.body.data;
    const res = await api.call('updateCustomer', { key, params: { customer: id }, body: { name, city } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body).toEqual(created.body);
    const empty = await api.call('updateCustomer', { key, params: { customer: id }, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.headers.get('etag')).toBe('"1"');
    expect(empty.body).toEqual(created.body);
  });

  it('a country sent in lower case equal to the stored one is a no-op', async () => {
    const created = await create({ email: 'land-noop@example.nl', country: 'NL' });
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: created.body.data.id },
      body: { country: 'nl' },
    });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body).toEqual(created.body);
  });
});

describe('convertCustomer', () => {
  it('turns a lead into a customer with converted_at set', async () => {
    const created = (await create({ ...FULL, email: 'convert@example.nl' })).body.data;
    const before = Date.now();
    const res = await api.call('convertCustomer', { key, params: { customer: created.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toEqual({
      ...created,
      status: 'customer',
      converted_at: expect.stringMatching(ISO_Z),
      updated_at: expect.stringMatching(ISO_Z),
    });
    expect(Date.parse(res.body.data.converted_at)).toBeGreaterThanOrEqual(before - 1000);
    const got = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: created.id } });
    expect(got.body.data).toEqual(res.body.data);
  });

  it('converted_at is the time of the change: equal to updated_at', async () => {
    // Several, so that a clock other than the change's own cannot match by chance.
    for (let i = 0; i < 5; i++) {
      const created = (await create({ email: `omzetten-${i}@example.nl` })).body.data;
      const res = await api.call('convertCustomer', { key, params: { customer: created.id } });
      expect(res.status).toBe(200);
      expect(res.body.data.converted_at).toBe(res.body.data.updated_at);
    }
  });

  it('a later PATCH does not change status or converted_at', async () => {
    const created = (await create({ email: 'status-blijft@example.nl' })).body.data;
    const converted = (await api.call('convertCustomer', { key, params: { customer: created.id } })).body.data;
    const res = await api.call('updateCustomer', { key, params: { customer: created.id }, body: { name: 'Nieuw' } });
    expect(res.body.data).toMatchObject({ status: 'customer', converted_at: converted.converted_at, name: 'Nieuw' });
  });
});

describe('listCustomers', () => {
  it('answers every customer in the REST shape with page meta', async () => {
    const list = await api.call('listCustomers', { key, query: { limit: 100 } });
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ limit: 100, next_cursor: null, prev_cursor: null });
    const byId = new Map(list.body.data.map((c: { id: string }) => [c.id, c]));
    for (const customer of list.body.data) {
      const got = await api.call<'getCustomer'>('getCustomer', { key, params: { customer: customer.id } });
      expect(byId.get(customer.id)).toEqual(got.body.data);
    }
    expect(list.body.data.length).toBeGreaterThanOrEqual(8);
  });

  it('uses limit 50 by default', async () => {
    const list = await api.call('listCustomers', { key });
    expect(list.body.meta.limit).toBe(50);
  });
});

describe('listCustomerTimeline', () => {
  it('lists create, update, convert and note entries newest first', async () => {
    const customer = (await create({ email: 'tijdlijn@example.nl' })).body.data;
    const id = customer.id;
    await api.call('updateCustomer', { key, params: { customer: id }, body: { name: 'Tijd' } });
    await api.call('convertCustomer', { key, params: { customer: id } });
    const note = await api.call('createCustomerNote', { key, params: { customer: id }, body: { content: 'Belde' } });
    expect(note.status).toBe(201);

    const res = await api.call('listCustomerTimeline', { key, params: { customer: id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
    const entries = res.body.data;
    expect(entries.map((e: { type: string }) => e.type)).toEqual([
      'note.created',
      'customer.converted',
      'customer.updated',
      'customer.created',
    ]);
    expect(entries.map((e: { summary: string }) => e.summary)).toEqual([
      'Note added',
      'Lead converted into a customer',
      'Details changed',
      'Customer created',
    ]);
    expect(entries[0].subject).toEqual({ object: 'note', id: note.body.data.id });
    for (const entry of entries.slice(1)) expect(entry.subject).toEqual({ object: 'customer', id });
    for (const entry of entries) {
      expect(entry.object).toBe('timeline_entry');
      expect(entry.id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
      expect(entry.occurred_at).toMatch(ISO_Z);
    }
    const times = entries.map((e: { occurred_at: string }) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The entries are the events of the customer: their ids match the events table.
    const rows = await api.sql`select id from events where customer_id = ${id} order by created_at desc, id desc`;
    expect(entries.map((e: { id: string }) => e.id)).toEqual(rows.map((r) => r.id));
  });

  it('answers in Dutch for Accept-Language: nl', async () => {
    const customer = (await create({ email: 'nederlands@example.nl' })).body.data;
    await api.call('convertCustomer', { key, params: { customer: customer.id } });
    const res = await api.call('listCustomerTimeline', {
      key,
      params: { customer: customer.id },
      headers: { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('nl');
    expect(res.body.data.map((e: { summary: string }) => e.summary)).toEqual([
      'Lead omgezet in klant',
      'Klant aangemaakt',
    ]);
  });

  it('uses the company language without Accept-Language', async () => {
    const t = await api.tenant({ language: 'de' });
    const customer = await api.call('createCustomer', { key: t.key, body: { email: 'de@example.de' } });
    const res = await api.call('listCustomerTimeline', { key: t.key, params: { customer: customer.body.data.id } });
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.body.data[0].summary).toBe('Kunde angelegt');
  });

  it('pages through the timeline with limit and cursors', async () => {
    const customer = (await create({ email: 'pagina@example.nl' })).body.data;
    for (let i = 0; i < 4; i++)
      await api.call('updateCustomer', { key, params: { customer: customer.id }, body: { name: `Naam ${i}` } });
    const first = await api.call('listCustomerTimeline', {
      key,
      params: { customer: customer.id },
      query: { limit: 3 },
    });
    expect(first.body.data).toHaveLength(3);
    expect(first.body.meta.prev_cursor).toBeNull();
    const second = await api.call('listCustomerTimeline', {
      key,
      params: { customer: customer.id },
      query: { limit: 3, cursor: first.body.meta.next_cursor },
    });
    expect(second.body.data.map((e: { type: string }) => e.type)).toEqual(['customer.updated', 'customer.created']);
    expect(second.body.meta.next_cursor).toBeNull();
    const all = [...first.body.data, ...second.body.data].map((e: { id: string }) => e.id);
    expect(new Set(all).size).toBe(5);
  });
});
