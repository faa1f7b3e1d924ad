// note.* events of deal notes follow the deal: scope deals.read, on the timeline of the deal's customer,
// carrying the note (before deletion for note.deleted); keys without deals.read do not see them.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { dealOf, pipelineOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  await pipelineOf(api, companyId);
});

const noteEvents = (noteId: string) =>
  api.sql`select company_id, type, scope, customer_id, data from events
          where type like 'note.%' and data->'object'->>'id' = ${noteId} order by created_at, id`;

describe('deal note events', () => {
  it('note.created, note.updated, note.deleted with scope deals.read on the deal’s customer', async () => {
    const deal = await dealOf(api, key);
    const created = await api.call('createDealNote', { key, params: { deal: deal.id }, body: { content: 'een' } });
    const id = created.body.data.id;
    await api.call('updateDealNote', { key, params: { deal: deal.id, note: id }, body: { content: 'een' } });
    const updated = await api.call('updateDealNote', {
      key,
      params: { deal: deal.id, note: id },
      body: { content: 'twee', is_important: true },
    });
    await api.call('deleteDealNote', { key, params: { deal: deal.id, note: id } });
    const events = await noteEvents(id);
    expect(events).toEqual([
      {
        company_id: companyId,
        type: 'note.created',
        scope: 'deals.read',
        customer_id: deal.customer_id,
        data: { object: created.body.data },
      },
      {
        company_id: companyId,
        type: 'note.updated',
        scope: 'deals.read',
        customer_id: deal.customer_id,
        data: { object: updated.body.data },
      },
      {
        company_id: companyId,
        type: 'note.deleted',
        scope: 'deals.read',
        customer_id: deal.customer_id,
        data: { object: updated.body.data },
      },
    ]);
    // The deal emitted nothing besides its creation.
    const [{ n }] = await api.sql`select count(*)::int as n from events where type like 'deal.%'
                                  and data->'object'->>'id' = ${deal.id}`;
    expect(n).toBe(1);
  });

  it('the customer timeline and the event list show them only to keys with deals.read', async () => {
    const deal = await dealOf(api, key);
    const note = await api.call('createDealNote', { key, params: { deal: deal.id }, body: { content: 'zichtbaar?' } });
    const customerNote = await api.call('createCustomerNote', {
      key,
      params: { customer: deal.customer_id },
      body: { content: 'klantnotitie' },
    });
    const withDeals = (await api.key(companyId, { scopes: ['customers.read', 'deals.read', 'events.read'] })).key;
    const withoutDeals = (await api.key(companyId, { scopes: ['customers.read', 'events.read'] })).key;
    const subjects = async (k: string) =>
      (await api.call('listCustomerTimeline', { key: k, params: { customer: deal.customer_id } })).body.data.map(
        (e: { type: string; subject: { id: string } }) => `${e.type} ${e.subject.id}`,
      );
    expect(await subjects(withDeals)).toEqual([
      `note.created ${customerNote.body.data.id}`,
      `note.created ${note.body.data.id}`,
      `deal.created ${deal.id}`,
      `customer.created ${deal.customer_id}`,
    ]);
    expect(await subjects(withoutDeals)).toEqual([
      `note.created ${customerNote.body.data.id}`,
      `customer.created ${deal.customer_id}`,
    ]);
    const listed = async (k: string) =>
      (await api.call('listEvents', { key: k, query: { 'filter[type]': 'note.created' } })).body.data.map(
        (e: { data: { object: { id: string } } }) => e.data.object.id,
      );
    expect(await listed(withDeals)).toContain(note.body.data.id);
    expect(await listed(withoutDeals)).not.toContain(note.body.data.id);
  });
});
