// The outbox rows of note changes: note.created / note.updated / note.deleted, visible with customers.read,
// on the customer's timeline, carrying the note in its REST shape (before deletion for note.deleted); nothing
// for a no-op update, a failed request or an idempotent replay.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

async function newCustomer() {
  const res = await api.call('createCustomer', {
    key,
    body: { name: 'Klant', email: `${crypto.randomUUID()}@example.nl` },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** The note events of one customer, oldest first. */
async function noteEvents(customer: string) {
  return api.sql`
    select company_id, id, type, scope, customer_id, data, created_at from events
    where customer_id = ${customer} and type like 'note.%'
    order by created_at, id`;
}

describe('note events', () => {
  it('records note.created with the created note', async () => {
    const customer = await newCustomer();
    const res = await api.call('createCustomerNote', {
      key,
      params: { customer },
      body: { content: 'Nieuwe notitie', is_important: true },
    });
    expect(res.status).toBe(201);
    const events = await noteEvents(customer);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event.company_id).toBe(companyId);
    expect(event.id).toMatch(/^evt_[0-9A-Za-z]{22}$/);
    expect(event.type).toBe('note.created');
    expect(event.scope).toBe('customers.read');
    expect(event.customer_id).toBe(customer);
    expect(event.data).toEqual({ object: res.body.data });
    expect(new Date(event.created_at).toISOString()).toBe(res.body.data.created_at);
  });

  it('records note.updated with the note after the change', async () => {
    const customer = await newCustomer();
    const created = await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'v1' } });
    const note = created.body.data.id;
    const updated = await api.call('updateCustomerNote', {
      key,
      params: { customer, note },
      body: { content: 'v2' },
    });
    expect(updated.status).toBe(200);
    const events = await noteEvents(customer);
    expect(events.map((e) => e.type)).toEqual(['note.created', 'note.updated']);
    const event = events[1];
    expect(event.scope).toBe('customers.read');
    expect(event.customer_id).toBe(customer);
    expect(event.company_id).toBe(companyId);
    expect(event.data).toEqual({ object: updated.body.data });
    expect(event.data.object.content).toBe('v2');
  });

  it('records nothing for an update that changes nothing', async () => {
    const customer = await newCustomer();
    const created = await api.call('createCustomerNote', {
      key,
      params: { customer },
      body: { content: 'zelfde', is_important: false },
    });
    const note = created.body.data.id;
    for (const body of [{}, { content: 'zelfde' }, { is_important: false }]) {
      const res = await api.call('updateCustomerNote', { key, params: { customer, note }, body });
      expect(res.status).toBe(200);
    }
    expect((await noteEvents(customer)).map((e) => e.type)).toEqual(['note.created']);
  });

  it('records note.deleted with the note as it was before the deletion', async () => {
    const customer = await newCustomer();
    const created = await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'eerst' } });
    const note = created.body.data.id;
    const updated = await api.call('updateCustomerNote', {
      key,
      params: { customer, note },
      body: { is_important: true },
    });
    const deleted = await api.call('deleteCustomerNote', { key, params: { customer, note } });
    expect(deleted.status).toBe(200);
    const events = await noteEvents(customer);
    expect(events.map((e) => e.type)).toEqual(['note.created', 'note.updated', 'note.deleted']);
    const event = events[2];
    expect(event.scope).toBe('customers.read');
    expect(event.customer_id).toBe(customer);
    expect(event.data).toEqual({ object: updated.body.data });
    expect(event.data.object.is_important).toBe(true);
  });

  it('records nothing for failed requests', async () => {
    const customer = await newCustomer();
    const missing = '01900000-0000-7000-8000-000000000000';
    expect((await api.call('createCustomerNote', { key, params: { customer }, body: { content: '' } })).status).toBe(
      422,
    );
    expect(
      (await api.call('updateCustomerNote', { key, params: { customer, note: missing }, body: { content: 'a' } }))
        .status,
    ).toBe(404);
    expect((await api.call('deleteCustomerNote', { key, params: { customer, note: missing } })).status).toBe(404);
    expect(await noteEvents(customer)).toHaveLength(0);
  });

  it('records one event for an idempotent creation and its replay', async () => {
    const customer = await newCustomer();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const body = { content: 'een keer' };
    const first = await api.call('createCustomerNote', { key, params: { customer }, body, headers });
    const again = await api.call('createCustomerNote', { key, params: { customer }, body, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const events = await noteEvents(customer);
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({ object: first.body.data });
  });
});
