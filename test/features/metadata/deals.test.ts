// `metadata` on deals (issue 51), through both ways a PATCH is written (the conditional write sent with the lock,
// and the decision on the locked deal when `value: null` returns to the quotes' amount), the batch upsert matched on
// external_ref, the filter beside the deal filters, and the deal's events.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

const create = async (body: Record<string, unknown>, k = key) =>
  api.call<'createDeal'>('createDeal', { key: k, body: { customer_id: await customerOf(api, k), ...body } });
const patch = (id: string, body: Record<string, unknown>) =>
  api.call<'updateDeal'>('updateDeal', { key, params: { deal: id }, body });
const ids = async (query: Record<string, string>, k = key) =>
  (await api.call<'listDeals'>('listDeals', { key: k, query: { limit: 100, ...query } })).body.data.map((d) => d.id);

describe('deals', () => {
  it('stores metadata on creation and merges a PATCH key by key, with or without a return to the quotes’ value', async () => {
    const created = await create({ title: 'Warmtepomp', value: 1200, metadata: { pd_id: '17', stage_sync: 'x' } });
    expect(created.status).toBe(201);
    expect(created.body.data.metadata).toEqual({ pd_id: '17', stage_sync: 'x' });
    const id = created.body.data.id;
    const merged = await patch(id, { metadata: { stage_sync: null, owner: 'anna' }, title: 'Warmtepomp XL' });
    expect(merged.body.data).toMatchObject({ title: 'Warmtepomp XL', metadata: { pd_id: '17', owner: 'anna' } });
    expect(merged.headers.get('etag')).toBe('"2"');
    const back = await patch(id, { value: null, metadata: { pd_id: '' } });
    expect(back.body.data).toMatchObject({ value_source: 'quotes', metadata: { owner: 'anna' } });
    const unchanged = await patch(id, { metadata: {} });
    expect(unchanged.headers.get('etag')).toBe('"3"');
    const cleared = await patch(id, { metadata: null });
    expect(cleared.body.data.metadata).toEqual({});
    const events = await api.sql`select type, data from events where company_id = ${companyId}
                                 and type like 'deal.%' and data->'object'->>'id' = ${id} order by created_at, id`;
    expect(events.map((e) => [e.type, e.data.object.metadata])).toEqual([
      ['deal.created', { pd_id: '17', stage_sync: 'x' }],
      ['deal.updated', { pd_id: '17', owner: 'anna' }],
      ['deal.updated', { owner: 'anna' }],
      ['deal.updated', {}],
    ]);
  });

  it('refuses a merge past 50 keys on either PATCH path, at /metadata', async () => {
    const full = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const { body } = await create({ metadata: full });
    for (const extra of [{ metadata: { one: 'more' } }, { metadata: { one: 'more' }, value: null }]) {
      const response = await api.call('updateDeal', { key, params: { deal: body.data.id }, body: extra });
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([expect.objectContaining({ pointer: '/metadata', code: 'too_big' })]);
    }
  });

  it('filters with metadata[key]=value beside the other filters, never across companies', async () => {
    const a = await create({ metadata: { deal_ref: 'A-1', kind: 'solar' } });
    const b = await create({ metadata: { deal_ref: 'A-2', kind: 'solar' } });
    expect((await ids({ 'metadata[kind]': 'solar' })).sort()).toEqual([a.body.data.id, b.body.data.id].sort());
    expect(await ids({ 'metadata[kind]': 'solar', 'metadata[deal_ref]': 'A-2' })).toEqual([b.body.data.id]);
    expect(await ids({ 'metadata[kind]': 'solar', 'filter[status]': 'won' })).toEqual([]);
    const other = await api.tenant();
    const theirs = await create({ metadata: { deal_ref: 'A-1' } }, other.key);
    expect(await ids({ 'metadata[deal_ref]': 'A-1' })).toEqual([a.body.data.id]);
    expect(await ids({ 'metadata[deal_ref]': 'A-1' }, other.key)).toEqual([theirs.body.data.id]);
  });

  it('POST /deals/batch stores metadata on new deals and merges it into matched ones', async () => {
    const customer_id = await customerOf(api, key);
    const first = await api.call<'upsertDeals'>('upsertDeals', {
      key,
      body: { items: [{ external_ref: 'MD-1', customer_id, metadata: { a: '1', b: '2' } }] },
    });
    expect(first.body.items[0]).toMatchObject({ outcome: 'created', data: { metadata: { a: '1', b: '2' } } });
    const again = await api.call<'upsertDeals'>('upsertDeals', {
      key,
      body: { items: [{ external_ref: 'MD-1', metadata: { b: '2' } }] },
    });
    expect(again.body.items[0].outcome).toBe('unchanged');
    const merged = await api.call<'upsertDeals'>('upsertDeals', {
      key,
      body: { items: [{ external_ref: 'MD-1', metadata: { a: '', c: '3' } }] },
    });
    expect(merged.body.items[0]).toMatchObject({ outcome: 'updated', data: { metadata: { b: '2', c: '3' } } });
    const over = await api.call<'upsertDeals'>('upsertDeals', {
      key,
      body: {
        items: [
          { external_ref: 'MD-1', metadata: Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`n${i}`, 'v'])) },
        ],
      },
    });
    expect(over.body.items[0]).toMatchObject({
      outcome: 'failed',
      problem: { errors: [{ pointer: '/items/0/metadata', code: 'too_big' }] },
    });
  });
});
