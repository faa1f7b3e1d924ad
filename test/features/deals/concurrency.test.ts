// Races: two creations for one customer give exactly one deal (one 201, one 409 with its id), also through
// two API processes; reopening races creations the same way, an archived open deal keeps its customer's place;
// concurrent writes to one deal
// queue and never lose an update.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, type Pipeline, pipelineOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let stages: Pipeline;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  stages = await pipelineOf(api, t.companyId);
});

const openDeals = async (customer: string) =>
  api.sql`select id from deals where customer_id = ${customer} and status = 'open'`;

describe('one open deal per customer under concurrency', () => {
  it('two concurrent creations: one 201, one 409 naming the created deal', async () => {
    for (let round = 0; round < 5; round++) {
      const customer = await customerOf(api, key);
      const results = await Promise.all(
        [1, 2].map((n) => api.call('createDeal', { key, body: { customer_id: customer, title: `Poging ${n}` } })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409]);
      const created = results.find((r) => r.status === 201);
      const refused = results.find((r) => r.status === 409);
      expect(refused?.body).toMatchObject({ code: 'conflict', deal_id: created?.body.data.id });
      expect((await openDeals(customer)).map((r) => r.id)).toEqual([created?.body.data.id]);
    }
  });

  it('many creations through two API processes: exactly one deal', async () => {
    const second = await api.otherProcess();
    const customer = await customerOf(api, key);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? second.call : api.call)('createDeal', { key, body: { customer_id: customer } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const id = results.find((r) => r.status === 201)?.body.data.id;
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body).toMatchObject({ status: 409, deal_id: id });
    expect(await openDeals(customer)).toHaveLength(1);
  });

  it('reopening a lost deal races a creation: exactly one open deal', async () => {
    const customer = await customerOf(api, key);
    const lost = await dealOf(api, key, { customer_id: customer });
    await api.call('loseDeal', { key, params: { deal: lost.id } });
    const [move, create] = await Promise.all([
      api.call('moveDeal', { key, params: { deal: lost.id }, body: { stage_id: stages.newStage } }),
      api.call('createDeal', { key, body: { customer_id: customer } }),
    ]);
    // Whichever commits first wins (move 200 or create 201); the other answers 409.
    expect([
      [200, 409],
      [409, 201],
    ]).toContainEqual([move.status, create.status]);
    const open = await openDeals(customer);
    expect(open).toHaveLength(1);
    const loser = move.status === 409 ? move : create;
    expect(loser.body.deal_id).toBe(open[0].id);
  });

  it('unarchiving an open deal during a creation: unarchived (200), the creation 409 naming it', async () => {
    const customer = await customerOf(api, key);
    const old = await dealOf(api, key, { customer_id: customer });
    await api.call('archiveDeal', { key, params: { deal: old.id } });
    const [back, create] = await Promise.all([
      api.call('unarchiveDeal', { key, params: { deal: old.id } }),
      api.call('createDeal', { key, body: { customer_id: customer } }),
    ]);
    expect([back.status, create.status]).toEqual([200, 409]);
    expect(create.body.deal_id).toBe(old.id);
    expect(await openDeals(customer)).toEqual([{ id: old.id }]);
  });
});

describe('concurrent writes to one deal', () => {
  it('queue on the row: every update counts, versions are consecutive', async () => {
    const deal = await dealOf(api, key);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.call('updateDeal', { key, params: { deal: deal.id }, body: { title: `Titel ${i}` } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.headers.get('etag')).sort()).toEqual(['"2"', '"3"', '"4"', '"5"', '"6"', '"7"']);
    const [{ n }] = await api.sql`select count(*)::int as n from events where type = 'deal.updated'
                                   and data->'object'->>'id' = ${deal.id}`;
    expect(n).toBe(6);
  });

  it('with the same If-Match only one wins; the others get 412', async () => {
    const deal = await dealOf(api, key);
    const results = await Promise.all([
      api.call('winDeal', { key, params: { deal: deal.id }, headers: { 'if-match': '"1"' } }),
      api.call('loseDeal', { key, params: { deal: deal.id }, headers: { 'if-match': '"1"' } }),
      api.call('archiveDeal', { key, params: { deal: deal.id }, headers: { 'if-match': '"1"' } }),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 412)).toHaveLength(2);
  });

  it('win and lose at once: one succeeds, the other finds the deal closed (409)', async () => {
    const deal = await dealOf(api, key);
    const [win, lose] = await Promise.all([
      api.call('winDeal', { key, params: { deal: deal.id } }),
      api.call('loseDeal', { key, params: { deal: deal.id } }),
    ]);
    expect([win.status, lose.status].sort()).toEqual([200, 409]);
  });
});
