// The outbox rows of deal changes: deal.created / updated / stage_changed / won / lost, in order, in the
// change's transaction, with the deal after the change, scope deals.read and the deal's customer; nothing for
// no-ops and failures; visible in the event list and the customer timeline only with deals.read.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, type Pipeline, pipelineOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let stages: Pipeline;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  stages = await pipelineOf(api, companyId);
});

/** The events of one deal, in the order they were recorded. */
async function dealEvents(dealId: string) {
  return api.sql`
    select company_id, id, type, scope, customer_id, data, created_at from events
    where data->'object'->>'id' = ${dealId}
    order by created_at, id`;
}

describe('deal events', () => {
  it('deal.created with the created deal, scope deals.read, on the customer', async () => {
    const customer = await customerOf(api, key);
    const res = await api.call('createDeal', { key, body: { customer_id: customer, title: 'Nieuw', value: 5 } });
    const [event, ...rest] = await dealEvents(res.body.data.id);
    expect(rest).toHaveLength(0);
    expect(event).toMatchObject({
      company_id: companyId,
      id: expect.stringMatching(/^evt_[0-9A-Za-z]{22}$/),
      type: 'deal.created',
      scope: 'deals.read',
      customer_id: customer,
      data: { object: res.body.data },
    });
    expect(new Date(event.created_at).toISOString()).toBe(res.body.data.created_at);
  });

  it('deal.updated with the deal after the change; nothing for an update that changes nothing', async () => {
    const deal = await dealOf(api, key, { title: 'Een' });
    await api.call('updateDeal', { key, params: { deal: deal.id }, body: { title: 'Een' } });
    const res = await api.call('updateDeal', { key, params: { deal: deal.id }, body: { title: 'Twee' } });
    const events = await dealEvents(deal.id);
    expect(events.map((e) => e.type)).toEqual(['deal.created', 'deal.updated']);
    expect(events[1].data).toEqual({ object: res.body.data });
    expect(events[1].scope).toBe('deals.read');
  });

  it('move: deal.stage_changed only; to a won/lost stage then deal.won/deal.lost; no event for the same stage', async () => {
    const deal = await dealOf(api, key);
    await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.newStage } });
    const moved = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.quote } });
    const wonByMove = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.won } });
    const lostByMove = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.lost } });
    const reopened = await api.call('moveDeal', {
      key,
      params: { deal: deal.id },
      body: { stage_id: stages.qualified },
    });
    const events = await dealEvents(deal.id);
    expect(events.map((e) => e.type)).toEqual([
      'deal.created',
      'deal.stage_changed',
      'deal.stage_changed',
      'deal.won',
      'deal.stage_changed',
      'deal.lost',
      'deal.stage_changed',
    ]);
    expect(events.slice(1).map((e) => e.data.object)).toEqual([
      moved.body.data,
      wonByMove.body.data,
      wonByMove.body.data,
      lostByMove.body.data,
      lostByMove.body.data,
      reopened.body.data,
    ]);
    for (const e of events)
      expect({ scope: e.scope, customer: e.customer_id }).toEqual({
        scope: 'deals.read',
        customer: deal.customer_id,
      });
  });

  it('win: deal.stage_changed then deal.won; lose: deal.stage_changed then deal.lost (same transaction)', async () => {
    const a = await dealOf(api, key);
    const won = await api.call('winDeal', { key, params: { deal: a.id } });
    const aEvents = await dealEvents(a.id);
    expect(aEvents.map((e) => e.type)).toEqual(['deal.created', 'deal.stage_changed', 'deal.won']);
    expect(aEvents[1].created_at).toEqual(aEvents[2].created_at);
    expect(aEvents[2].data).toEqual({ object: won.body.data });
    const b = await dealOf(api, key);
    const lost = await api.call('loseDeal', { key, params: { deal: b.id }, body: { lost_reason: 'Geen budget' } });
    const bEvents = await dealEvents(b.id);
    expect(bEvents.map((e) => e.type)).toEqual(['deal.created', 'deal.stage_changed', 'deal.lost']);
    expect(bEvents[2].data.object.lost_reason).toBe('Geen budget');
    expect(bEvents[2].data).toEqual({ object: lost.body.data });
    // The event list shows them newest first, so deal.won before deal.stage_changed.
    const list = await api.call('listEvents', { key, query: { 'filter[type]': 'deal.stage_changed,deal.won' } });
    const ofA = list.body.data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === a.id);
    expect(ofA.map((e: { type: string }) => e.type)).toEqual(['deal.won', 'deal.stage_changed']);
  });

  it('archive and unarchive: deal.updated each', async () => {
    const deal = await dealOf(api, key);
    const archived = await api.call('archiveDeal', { key, params: { deal: deal.id } });
    const back = await api.call('unarchiveDeal', { key, params: { deal: deal.id } });
    const events = await dealEvents(deal.id);
    expect(events.map((e) => e.type)).toEqual(['deal.created', 'deal.updated', 'deal.updated']);
    expect(events[1].data).toEqual({ object: archived.body.data });
    expect(events[2].data).toEqual({ object: back.body.data });
  });

  it('nothing for failed requests (409, 412, 422)', async () => {
    const customer = await customerOf(api, key);
    const deal = await dealOf(api, key, { customer_id: customer });
    await api.call('createDeal', { key, body: { customer_id: customer } });
    await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      headers: { 'if-match': '"9"' },
      body: { title: 'x' },
    });
    await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: 999999 } });
    await api.call('unarchiveDeal', { key, params: { deal: deal.id } });
    const [{ n }] = await api.sql`select count(*)::int as n from events where customer_id = ${customer}`;
    // customer.created and deal.created only.
    expect(n).toBe(2);
  });
});

describe('visibility', () => {
  it('a key with deals.read sees deal events in the list and the customer timeline; without it, neither', async () => {
    const customer = await customerOf(api, key);
    const deal = await dealOf(api, key, { customer_id: customer });
    await api.call('winDeal', { key, params: { deal: deal.id } });
    const withDeals = (await api.key(companyId, { scopes: ['customers.read', 'deals.read', 'events.read'] })).key;
    const withoutDeals = (await api.key(companyId, { scopes: ['customers.read', 'events.read'] })).key;

    const timeline = async (k: string) =>
      (await api.call('listCustomerTimeline', { key: k, params: { customer } })).body.data.map(
        (e: { type: string }) => e.type,
      );
    expect(await timeline(withDeals)).toEqual(['deal.won', 'deal.stage_changed', 'deal.created', 'customer.created']);
    expect(await timeline(withoutDeals)).toEqual(['customer.created']);

    const events = async (k: string) =>
      (await api.call('listEvents', { key: k, query: { 'filter[type]': 'deal.created' } })).body.data.map(
        (e: { data: { object: { id: string } } }) => e.data.object.id,
      );
    expect(await events(withDeals)).toContain(deal.id);
    expect(await events(withoutDeals)).toEqual([]);
  });
});
