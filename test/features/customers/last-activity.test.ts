// last_activity_at: a note on the customer, a new deal, a change of one of its deals and a note on a deal are
// activity with the customer. Each is a change of the customer's representation, so it also moves updated_at
// (filter[updated_since] sync) and the version (ETag), in the activity's transaction: at the same instant.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, type Pipeline, pipelineOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let stages: Pipeline;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  stages = await pipelineOf(api, t.companyId);
});

async function customerNow(customer: string) {
  const res = await api.call('getCustomer', { key, params: { customer } });
  expect(res.status).toBe(200);
  return { etag: res.headers.get('etag'), data: res.body.data };
}

/** The customer after an activity at `at`: last_activity_at and updated_at are that instant, the version next. */
async function expectTouched(customer: string, before: { etag: string | null }, at: string) {
  const after = await customerNow(customer);
  expect(after.data.last_activity_at).toBe(at);
  expect(after.data.updated_at).toBe(at);
  expect(after.etag).toBe(`"${Number(JSON.parse(before.etag ?? '')) + 1}"`);
}

describe('a customer note', () => {
  it('moves last_activity_at, updated_at and the ETag', async () => {
    const customer = await customerOf(api, key);
    const before = await customerNow(customer);
    const note = await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'Belde' } });
    expect(note.status).toBe(201);
    await expectTouched(customer, before, note.body.data.created_at);
  });

  it('makes the customer show up in a filter[updated_since] sync', async () => {
    const customer = await customerOf(api, key);
    await api.sql`update customers set updated_at = '2020-01-01T00:00:00Z' where id = ${customer}`;
    const sync = () =>
      api.call('listCustomers', {
        key,
        query: { sort: 'updated_at', 'filter[updated_since]': '2021-01-01T00:00:00Z' },
      });
    expect((await sync()).body.data.map((c: { id: string }) => c.id)).not.toContain(customer);
    await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'Mailde' } });
    expect((await sync()).body.data.map((c: { id: string }) => c.id)).toContain(customer);
  });
});

describe('deals', () => {
  it('a new deal is activity with its customer', async () => {
    const customer = await customerOf(api, key);
    const before = await customerNow(customer);
    const deal = await dealOf(api, key, { customer_id: customer });
    await expectTouched(customer, before, deal.created_at);
  });

  it('every change of a deal is activity with its customer', async () => {
    const changes = [
      { operation: 'updateDeal', body: { title: 'Nieuwe keuken' } },
      { operation: 'moveDeal', body: { stage_id: stages.qualified } },
      { operation: 'winDeal', body: {} },
      { operation: 'moveDeal', body: { stage_id: stages.quote } },
      { operation: 'loseDeal', body: { lost_reason: 'Te duur' } },
      { operation: 'archiveDeal' },
      { operation: 'unarchiveDeal' },
    ] as const;
    const deal = await dealOf(api, key);
    for (const change of changes) {
      const before = await customerNow(deal.customer_id);
      const res = await api.call(change.operation, {
        key,
        params: { deal: deal.id },
        ...('body' in change ? { body: change.body } : {}),
      });
      expect(res.status, `${change.operation}: ${JSON.stringify(res.body)}`).toBe(200);
      await expectTouched(deal.customer_id, before, res.body.data.updated_at);
    }
  });

  it('a note on a deal is activity with the deal’s customer', async () => {
    const deal = await dealOf(api, key);
    const before = await customerNow(deal.customer_id);
    const note = await api.call('createDealNote', { key, params: { deal: deal.id }, body: { content: 'Offerte' } });
    expect(note.status).toBe(201);
    await expectTouched(deal.customer_id, before, note.body.data.created_at);
  });
});
