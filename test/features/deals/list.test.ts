// listDeals: newest first, archived left out by default, every sort (both directions, both cursors) and
// every filter, combined.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, type Pipeline, pipelineOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let stages: Pipeline;
let user: number;
/** Deals in creation order: open (new), open (quote, user), won, lost, archived open, archived won. */
let d: { id: string; customer_id: string }[];

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  stages = await pipelineOf(api, t.companyId);
  user = await userOf(api, t.companyId);
  d = [];
  d.push(await dealOf(api, key));
  d.push(await dealOf(api, key, { stage_id: stages.quote, assigned_user_id: user }));
  d.push(await dealOf(api, key, { assigned_user_id: user }));
  await api.call('winDeal', { key, params: { deal: d[2].id } });
  d.push(await dealOf(api, key));
  await api.call('loseDeal', { key, params: { deal: d[3].id } });
  d.push(await dealOf(api, key));
  await api.call('archiveDeal', { key, params: { deal: d[4].id } });
  d.push(await dealOf(api, key));
  await api.call('winDeal', { key, params: { deal: d[5].id } });
  await api.call('archiveDeal', { key, params: { deal: d[5].id } });
  // Touch the first deal last, so updated_at and stage_changed_at orders differ from creation order.
  await api.call('moveDeal', { key, params: { deal: d[0].id }, body: { stage_id: stages.qualified } });
});

describe('listDeals', () => {
  it('newest first, archived left out, with the default meta', async () => {
    const res = await api.call('listDeals', { key });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([d[3], d[2], d[1], d[0]].map((x) => x.id));
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
    const got = await api.call('getDeal', { key, params: { deal: d[0].id } });
    expect(res.body.data[3]).toEqual(got.body.data);
  });

  it.each([
    ['false', [3, 2, 1, 0]],
    ['true', [5, 4]],
    ['all', [5, 4, 3, 2, 1, 0]],
  ])('filter[archived]=%s', async (archived, expected) => {
    const res = await api.call('listDeals', { key, query: { 'filter[archived]': archived } });
    expect(ids(res)).toEqual(expected.map((i) => d[i].id));
  });

  it('filters by status, stage, customer, user and updated_since, combined', async () => {
    const q = async (query: Record<string, string | number>) =>
      ids(await api.call('listDeals', { key, query: { 'filter[archived]': 'all', ...query } }));
    expect(await q({ 'filter[status]': 'open' })).toEqual([d[4].id, d[1].id, d[0].id]);
    expect(await q({ 'filter[status]': 'won' })).toEqual([d[5].id, d[2].id]);
    expect(await q({ 'filter[status]': 'lost' })).toEqual([d[3].id]);
    expect(await q({ 'filter[stage_id]': stages.quote })).toEqual([d[1].id]);
    expect(await q({ 'filter[stage_id]': stages.won })).toEqual([d[5].id, d[2].id]);
    expect(await q({ 'filter[customer_id]': d[3].customer_id })).toEqual([d[3].id]);
    expect(await q({ 'filter[assigned_user_id]': user })).toEqual([d[2].id, d[1].id]);
    expect(await q({ 'filter[assigned_user_id]': user, 'filter[status]': 'open' })).toEqual([d[1].id]);
    expect(await q({ 'filter[assigned_user_id]': 999999 })).toEqual([]);
    const [{ at }] = await api.sql`select updated_at::text as at from deals where id = ${d[0].id}`;
    const since = new Date(at).toISOString();
    expect(await q({ 'filter[updated_since]': since })).toEqual([d[0].id]);
    expect(await q({ 'filter[updated_since]': since, 'filter[status]': 'won' })).toEqual([]);
  });

  it.each([
    ['created_at', [0, 1, 2, 3]],
    ['-created_at', [3, 2, 1, 0]],
    ['updated_at', [1, 2, 3, 0]],
    ['-updated_at', [0, 3, 2, 1]],
    ['stage_changed_at', [1, 2, 3, 0]],
    ['-stage_changed_at', [0, 3, 2, 1]],
  ])('sort=%s, page by page, forwards and back', async (sort, order) => {
    const expected = order.map((i) => d[i].id);
    const page = async (cursor?: string) => {
      const res = await api.call('listDeals', { key, query: { sort, limit: 3, cursor } });
      expect(res.status).toBe(200);
      return { ids: ids(res), meta: res.body.meta };
    };
    const p1 = await page();
    expect(p1.ids).toEqual(expected.slice(0, 3));
    expect(p1.meta.prev_cursor).toBeNull();
    const p2 = await page(p1.meta.next_cursor);
    expect(p2.ids).toEqual(expected.slice(3));
    expect(p2.meta.next_cursor).toBeNull();
    const back = await page(p2.meta.prev_cursor);
    expect(back.ids).toEqual(p1.ids);
    expect(back.meta.prev_cursor).toBeNull();
  });

  it('a new deal after the first page does not shift the next page', async () => {
    const p1 = await api.call('listDeals', { key, query: { limit: 2 } });
    await dealOf(api, key, { customer_id: await customerOf(api, key) });
    const p2 = await api.call('listDeals', { key, query: { limit: 2, cursor: p1.body.meta.next_cursor } });
    expect(ids(p2)).toEqual([d[1].id, d[0].id]);
  });
});
