// The outbox: every customer change writes its event in the same transaction, carrying the REST shape after
// the change; a no-op or a failed request writes none.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

type EventRow = { id: string; type: string; scope: string; customer_id: string; data: unknown; ms: number };

const eventsOf = async (customerId: string) =>
  (await api.sql`
    select id, type, scope, customer_id, data, (extract(epoch from created_at) * 1000)::float8 as ms from events
    where company_id = ${companyId} and customer_id = ${customerId} order by created_at, id`) as unknown as EventRow[];

const allEventCount = async () =>
  Number((await api.sql`select count(*)::int as n from events where company_id = ${companyId}`)[0].n);

const customerRow = async (id: string) =>
  (
    await api.sql`
      select (extract(epoch from created_at) * 1000)::float8 as created, (extract(epoch from updated_at) * 1000)::float8 as updated
      from customers where id = ${id}`
  )[0];

let n = 0;
async function newLead(body: Record<string, unknown> = {}) {
  const res = await api.call('createCustomer', { key, body: { email: `event${n++}@example.nl`, ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('events of successful changes', () => {
  it('createCustomer writes customer.created with the created customer', async () => {
    const customer = await newLead({ name: 'Nieuw', type: 'business', country: 'be' });
    const events = await eventsOf(customer.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{22}$/),
      type: 'customer.created',
      scope: 'customers.read',
      customer_id: customer.id,
      data: { object: customer },
    });
    // Same transaction: the event's time is the transaction time the customer was created with.
    expect(events[0].ms).toBe((await customerRow(customer.id)).created);
  });

  it('updateCustomer writes customer.updated with the customer after the change', async () => {
    const customer = await newLead({ name: 'Voor', city: 'Delft' });
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: customer.id },
      body: { name: 'Na', city: null },
    });
    expect(res.status).toBe(200);
    const events = await eventsOf(customer.id);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated']);
    expect(events[1]).toMatchObject({ scope: 'customers.read', customer_id: customer.id });
    expect(events[1].data).toEqual({ object: res.body.data });
    expect(events[1].data).toMatchObject({ object: { name: 'Na', city: null } });
    expect(events[1].ms).toBe((await customerRow(customer.id)).updated);
  });

  it('convertCustomer writes customer.converted with the converted customer', async () => {
    const customer = await newLead();
    const res = await api.call('convertCustomer', { key, params: { customer: customer.id } });
    expect(res.status).toBe(200);
    const events = await eventsOf(customer.id);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.converted']);
    expect(events[1].data).toEqual({ object: res.body.data });
    expect(events[1].data).toMatchObject({ object: { status: 'customer', converted_at: expect.any(String) } });
    expect(events[1].scope).toBe('customers.read');
  });

  it('every change writes its own event, in order', async () => {
    const customer = await newLead();
    const bodies = [{ name: 'Een' }, { name: 'Twee' }, { phone: '010 1234567' }];
    const responses = [];
    for (const body of bodies)
      responses.push((await api.call('updateCustomer', { key, params: { customer: customer.id }, body })).body.data);
    const events = await eventsOf(customer.id);
    expect(events.slice(1).map((e) => e.data)).toEqual(responses.map((object) => ({ object })));
  });
});

describe('no event', () => {
  it('for a no-op PATCH', async () => {
    const customer = await newLead({ name: 'Gelijk', country: 'NL' });
    const before = await allEventCount();
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: customer.id },
      body: { name: 'Gelijk', country: 'nl', email: customer.email },
    });
    expect(res.status).toBe(200);
    const empty = await api.call('updateCustomer', { key, params: { customer: customer.id }, body: {} });
    expect(empty.status).toBe(200);
    expect(await allEventCount()).toBe(before);
  });

  it('when creation fails on a duplicate email', async () => {
    const existing = await newLead();
    const before = await allEventCount();
    const res = await api.call('createCustomer', { key, body: { email: existing.email.toUpperCase() } });
    expect(res.status).toBe(422);
    expect(await allEventCount()).toBe(before);
  });

  it('when the body is invalid', async () => {
    const customer = await newLead();
    const before = await allEventCount();
    expect((await api.call('createCustomer', { key, body: { email: 'x@example.nl', extra: 1 } })).status).toBe(422);
    const patch = await api.call('updateCustomer', {
      key,
      params: { customer: customer.id },
      body: { name: 'n'.repeat(256) },
    });
    expect(patch.status).toBe(422);
    expect(await allEventCount()).toBe(before);
  });

  it('when an update takes an email in use', async () => {
    const a = await newLead();
    const b = await newLead();
    const before = await allEventCount();
    const res = await api.call('updateCustomer', {
      key,
      params: { customer: b.id },
      body: { email: a.email, name: 'Zou wijzigen' },
    });
    expect(res.status).toBe(422);
    expect(await allEventCount()).toBe(before);
  });

  it('when If-Match does not match', async () => {
    const customer = await newLead();
    await api.call('updateCustomer', { key, params: { customer: customer.id }, body: { name: 'v2' } });
    const before = await allEventCount();
    const patch = await api.call('updateCustomer', {
      key,
      params: { customer: customer.id },
      headers: { 'if-match': '"1"' },
      body: { name: 'v3' },
    });
    expect(patch.status).toBe(412);
    const convert = await api.call('convertCustomer', {
      key,
      params: { customer: customer.id },
      headers: { 'if-match': '"1"' },
    });
    expect(convert.status).toBe(412);
    expect(await allEventCount()).toBe(before);
  });

  it('when converting a customer again (409)', async () => {
    const customer = await newLead();
    await api.call('convertCustomer', { key, params: { customer: customer.id } });
    const before = await allEventCount();
    const res = await api.call('convertCustomer', { key, params: { customer: customer.id } });
    expect(res.status).toBe(409);
    expect(await allEventCount()).toBe(before);
  });

  it('for a key without the write scope', async () => {
    const customer = await newLead();
    const reader = await api.key(companyId, { scopes: ['customers.read'] });
    const before = await allEventCount();
    expect((await api.call('createCustomer', { key: reader.key, body: { email: 'r@example.nl' } })).status).toBe(403);
    expect(
      (await api.call('updateCustomer', { key: reader.key, params: { customer: customer.id }, body: { name: 'x' } }))
        .status,
    ).toBe(403);
    expect(await allEventCount()).toBe(before);
  });
});
