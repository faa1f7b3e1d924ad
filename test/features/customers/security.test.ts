// Tenancy and scopes: another company's customers do not exist for a key, and the timeline shows deal
// entries only to keys that may read deals.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let mine: { key: string; companyId: string };
let theirs: { key: string; companyId: string };
let theirCustomer: { id: string };

beforeAll(async () => {
  api = await setupApi();
  mine = await api.tenant();
  theirs = await api.tenant();
  theirCustomer = (
    await api.call('createCustomer', { key: theirs.key, body: { email: 'geheim@example.nl', name: 'Geheim' } })
  ).body.data;
});

describe("another company's customer", () => {
  it('getCustomer answers 404 not_found', async () => {
    const res = await api.call('getCustomer', { key: mine.key, params: { customer: theirCustomer.id } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('updateCustomer answers 404 and changes nothing', async () => {
    const res = await api.call('updateCustomer', {
      key: mine.key,
      params: { customer: theirCustomer.id },
      body: { name: 'Gekaapt' },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const got = await api.call('getCustomer', { key: theirs.key, params: { customer: theirCustomer.id } });
    expect(got.body.data).toEqual(theirCustomer);
    expect(got.headers.get('etag')).toBe('"1"');
  });

  it('convertCustomer answers 404 and the lead stays a lead', async () => {
    const res = await api.call('convertCustomer', { key: mine.key, params: { customer: theirCustomer.id } });
    expect(res.status).toBe(404);
    const got = await api.call('getCustomer', { key: theirs.key, params: { customer: theirCustomer.id } });
    expect(got.body.data.status).toBe('lead');
  });

  it('listCustomerTimeline answers 404', async () => {
    const res = await api.call('listCustomerTimeline', { key: mine.key, params: { customer: theirCustomer.id } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('their email address is free in my company', async () => {
    const res = await api.call('createCustomer', { key: mine.key, body: { email: 'geheim@example.nl' } });
    expect(res.status).toBe(201);
    const list = await api.call('listCustomers', { key: mine.key, query: { 'filter[email]': 'geheim@example.nl' } });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([res.body.data.id]);
  });

  it("no write reaches the other company's events", async () => {
    const events = await api.sql`select type from events where customer_id = ${theirCustomer.id}`;
    expect(events.map((e) => e.type)).toEqual(['customer.created']);
  });
});

describe('timeline and scopes', () => {
  let customerId: string;
  const dealId = '0192f4d0-0000-7000-8000-000000000001';

  beforeAll(async () => {
    customerId = (await api.call('createCustomer', { key: mine.key, body: { email: 'deals@example.nl' } })).body.data
      .id;
    // A deal event on this customer's timeline (deals are not built yet, so the row is written directly).
    await api.sql`
      insert into events (company_id, id, type, scope, customer_id, data, created_at)
      values (${mine.companyId}, 'evt_0000DEALWON000000000001', 'deal.won', 'deals.read', ${customerId},
              ${JSON.stringify({ object: { object: 'deal', id: dealId } })}::jsonb, now() + interval '1 minute')`;
  });

  it('a key with customers.read and deals.read sees the deal entry', async () => {
    const k = await api.key(mine.companyId, { scopes: ['customers.read', 'deals.read'] });
    const res = await api.call('listCustomerTimeline', { key: k.key, params: { customer: customerId } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual(['deal.won', 'customer.created']);
    expect(res.body.data[0]).toMatchObject({
      id: 'evt_0000DEALWON000000000001',
      summary: 'Deal won',
      subject: { object: 'deal', id: dealId },
    });
  });

  it('a key without deals.read does not see it', async () => {
    const k = await api.key(mine.companyId, { scopes: ['customers.read'] });
    const res = await api.call('listCustomerTimeline', { key: k.key, params: { customer: customerId } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual(['customer.created']);
  });

  it('a key without customers.read answers 403 insufficient_scope', async () => {
    const k = await api.key(mine.companyId, { scopes: ['deals.read'] });
    const res = await api.call('listCustomerTimeline', { key: k.key, params: { customer: customerId } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.read' });
  });

  it("the timeline holds only this customer's entries", async () => {
    const other = (await api.call('createCustomer', { key: mine.key, body: { email: 'ander@example.nl' } })).body.data;
    await api.call('updateCustomer', { key: mine.key, params: { customer: other.id }, body: { name: 'Ander' } });
    const res = await api.call('listCustomerTimeline', { key: mine.key, params: { customer: other.id } });
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual(['customer.updated', 'customer.created']);
    for (const entry of res.body.data) expect(entry.subject).toEqual({ object: 'customer', id: other.id });
  });
});
