// Deal-note errors: another company's deal, a note of another deal or of a customer (404), validation (422),
// scopes and the pipeline feature (403).
import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, MISSING, pipelineOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let deal: string;
let note: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  await pipelineOf(api, companyId);
  deal = (await dealOf(api, key)).id;
  note = (await api.call('createDealNote', { key, params: { deal }, body: { content: 'bestaand' } })).body.data.id;
});

describe('404 not_found', () => {
  it('a note of another deal, of a customer, or unknown; the note stays', async () => {
    const otherDeal = (await dealOf(api, key)).id;
    const customer = await customerOf(api, key);
    const customerNote = (
      await api.call('createCustomerNote', { key, params: { customer }, body: { content: 'klant' } })
    ).body.data.id;
    for (const [d, n] of [
      [otherDeal, note],
      [deal, customerNote],
      [deal, MISSING],
      [MISSING, note],
    ]) {
      const patch = await api.call('updateDealNote', { key, params: { deal: d, note: n }, body: { content: 'x' } });
      expect(patch.status).toBe(404);
      expect(patch.body.code).toBe('not_found');
      const del = await api.call('deleteDealNote', { key, params: { deal: d, note: n } });
      expect(del.status).toBe(404);
    }
    const [row] = await api.sql`select content from notes where id = ${note}`;
    expect(row.content).toBe('bestaand');
  });

  it('another company’s deal and note', async () => {
    const b = await api.tenant();
    await pipelineOf(api, b.companyId);
    const bDeal = (await dealOf(api, b.key)).id;
    const bNote = (await api.call('createDealNote', { key: b.key, params: { deal: bDeal }, body: { content: 'b' } }))
      .body.data.id;
    expect((await api.call('listDealNotes', { key, params: { deal: bDeal } })).status).toBe(404);
    expect((await api.call('createDealNote', { key, params: { deal: bDeal }, body: { content: 'x' } })).status).toBe(
      404,
    );
    expect(
      (await api.call('updateDealNote', { key, params: { deal: bDeal, note: bNote }, body: { content: 'x' } })).status,
    ).toBe(404);
    expect((await api.call('deleteDealNote', { key, params: { deal: bDeal, note: bNote } })).status).toBe(404);
    const [row] = await api.sql`select content from notes where id = ${bNote}`;
    expect(row.content).toBe('b');
  });
});

describe('422', () => {
  it.each([
    [{}, '/content', 'required'],
    [{ content: '' }, '/content', 'too_short'],
    [{ content: 'x'.repeat(10001) }, '/content', 'too_long'],
    [{ content: 'a', is_important: 'ja' }, '/is_important', 'invalid_type'],
  ])('createDealNote %j', async (body, pointer, code) => {
    const res = await api.call('createDealNote', { key, params: { deal }, body });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer, code })]);
  });

  it('unknown fields and a malformed deal id', async () => {
    const res = await api.call('updateDealNote', { key, params: { deal, note }, body: { author: 'x' } });
    expect(res.body.code).toBe('unknown_field');
    const bad = await api.call('listDealNotes', { key, params: { deal: 'not-a-uuid' } });
    expect(bad.status).toBe(422);
  });
});

describe('403', () => {
  it('deals.read lists but cannot write; customers.* cannot touch deal notes', async () => {
    const read = (await api.key(companyId, { scopes: ['deals.read'] })).key;
    expect((await api.call('listDealNotes', { key: read, params: { deal } })).status).toBe(200);
    const write = await api.call('createDealNote', { key: read, params: { deal }, body: { content: 'x' } });
    expect(write.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.write' });
    const customers = (await api.key(companyId, { scopes: ['customers.read', 'customers.write'] })).key;
    const list = await api.call('listDealNotes', { key: customers, params: { deal } });
    expect(list.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.read' });
  });

  it('feature_not_available without pipeline', async () => {
    const without = await api.tenant({ features: FEATURES.filter((f) => f !== 'pipeline') });
    const res = await api.call('listDealNotes', { key: without.key, params: { deal } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('feature_not_available');
  });
});
