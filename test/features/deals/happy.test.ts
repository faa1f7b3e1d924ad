// Creating, reading and updating deals: every field of the answer, defaults, the two forms of `value`,
// value_source, ETag and idempotent creation.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, type Pipeline, pipelineOf, UUID, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let stages: Pipeline;
let user: number;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  stages = await pipelineOf(api, companyId);
  user = await userOf(api, companyId);
});

const FIELDS = [
  'object',
  'id',
  'title',
  'description',
  'status',
  'value',
  'currency',
  'value_source',
  'external_ref',
  'stage',
  'customer_id',
  'assigned_user_id',
  'source',
  'lost_reason',
  'is_archived',
  'stage_changed_at',
  'won_at',
  'lost_at',
  'archived_at',
  'metadata',
  'custom_fields',
  'created_at',
  'updated_at',
];

describe('createDeal', () => {
  it('answers 201 with every field, the ETag, and stores exactly that deal', async () => {
    const customer = await customerOf(api, key);
    const before = Date.now();
    const res = await api.call('createDeal', {
      key,
      body: {
        customer_id: customer,
        title: 'Warmtepomp kantoorpand Utrecht',
        description: 'Lucht-water warmtepomp ter vervanging van de cv-ketel.',
        value: '32500.00',
        stage_id: stages.qualified,
        assigned_user_id: user,
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    const deal = res.body.data;
    expect(Object.keys(deal).sort()).toEqual([...FIELDS].sort());
    expect(deal).toEqual({
      object: 'deal',
      id: expect.stringMatching(UUID),
      title: 'Warmtepomp kantoorpand Utrecht',
      description: 'Lucht-water warmtepomp ter vervanging van de cv-ketel.',
      status: 'open',
      value: '32500.00',
      currency: 'EUR',
      value_source: 'manual',
      external_ref: null,
      stage: { object: 'pipeline_stage', id: String(stages.qualified) },
      customer_id: customer,
      assigned_user_id: String(user),
      source: 'api',
      lost_reason: null,
      is_archived: false,
      stage_changed_at: deal.created_at,
      won_at: null,
      lost_at: null,
      archived_at: null,
      metadata: {},
      custom_fields: {},
      created_at: expect.any(String),
      updated_at: deal.created_at,
    });
    expect(Date.parse(deal.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(deal.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
    const got = await api.call('getDeal', { key, params: { deal: deal.id } });
    expect(got.body.data).toEqual(deal);
    const [row] = await api.sql`select value::text, company_id, version from deals where id = ${deal.id}`;
    expect(row).toEqual({ value: '32500.00', company_id: companyId, version: 1 });
  });

  it('puts a deal with only customer_id in the default stage, valued from quotes (none yet: null)', async () => {
    const customer = await customerOf(api, key);
    const deal = await dealOf(api, key, { customer_id: customer });
    expect(deal).toMatchObject({
      title: null,
      description: null,
      status: 'open',
      value: null,
      value_source: 'quotes',
      stage: { object: 'pipeline_stage', id: String(stages.newStage) },
      assigned_user_id: null,
      source: 'api',
    });
  });

  it('treats stage_id, value and assigned_user_id null like leaving them out', async () => {
    const deal = await dealOf(api, key, { stage_id: null, value: null, assigned_user_id: null, title: null });
    expect(deal).toMatchObject({
      stage: { id: String(stages.newStage) },
      value: null,
      value_source: 'quotes',
      assigned_user_id: null,
      title: null,
    });
  });

  it.each([
    [18450, '18450.00'],
    [18450.5, '18450.50'],
    [0.29, '0.29'],
    [0, '0.00'],
    [99999999, '99999999.00'],
    ['0.00', '0.00'],
    ['1234.50', '1234.50'],
    ['99999999.00', '99999999.00'],
  ])('keeps the amount %j exactly as %s', async (value, stored) => {
    const deal = await dealOf(api, key, { value });
    expect(deal.value).toBe(stored);
    expect(deal.value_source).toBe('manual');
    const [row] = await api.sql`select value::text from deals where id = ${deal.id}`;
    expect(row.value).toBe(stored);
  });

  it('uses the company currency', async () => {
    const other = await api.company({ name: 'Zürich GmbH' });
    await api.sql`update companies set currency = 'CHF' where id = ${other.id}`;
    const otherKey = (await api.key(other.id)).key;
    await pipelineOf(api, other.id);
    const deal = await dealOf(api, otherKey, { value: 10 });
    expect(deal.currency).toBe('CHF');
  });

  it('creates a new open deal once the customer’s open deal is won or lost', async () => {
    const customer = await customerOf(api, key);
    const first = await dealOf(api, key, { customer_id: customer });
    expect((await api.call('winDeal', { key, params: { deal: first.id } })).status).toBe(200);
    const second = await dealOf(api, key, { customer_id: customer });
    expect((await api.call('loseDeal', { key, params: { deal: second.id } })).status).toBe(200);
    const third = await dealOf(api, key, { customer_id: customer });
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);
  });

  it('creates a deal for a lead too', async () => {
    const lead = await customerOf(api, key, 'Nog een lead');
    const deal = await dealOf(api, key, { customer_id: lead });
    expect(deal.customer_id).toBe(lead);
  });

  it('replays the stored answer for a repeated Idempotency-Key and creates one deal', async () => {
    const customer = await customerOf(api, key);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const body = { customer_id: customer, title: 'Eenmalig', value: 100 };
    const first = await api.call('createDeal', { key, body, headers });
    expect(first.status).toBe(201);
    const again = await api.call('createDeal', { key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe('"1"');
    expect(again.body).toEqual(first.body);
    const rows = await api.sql`select id from deals where customer_id = ${customer}`;
    expect(rows.map((r) => r.id)).toEqual([first.body.data.id]);
  });
});

describe('getDeal', () => {
  it('answers the deal with its ETag, archived deals too', async () => {
    const deal = await dealOf(api, key, { title: 'Lezen' });
    const archived = await api.call('archiveDeal', { key, params: { deal: deal.id } });
    const res = await api.call('getDeal', { key, params: { deal: deal.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toEqual(archived.body.data);
    expect(res.body.data.is_archived).toBe(true);
  });
});

describe('updateDeal', () => {
  it('changes every field sent and answers the next ETag', async () => {
    const deal = await dealOf(api, key, { title: 'Oud', description: 'Oude tekst', value: 10 });
    const other = await userOf(api, companyId);
    const res = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      headers: { 'if-match': '"1"' },
      body: { title: 'Nieuw', description: 'Nieuwe tekst', value: 17950, assigned_user_id: other },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toEqual({
      ...deal,
      title: 'Nieuw',
      description: 'Nieuwe tekst',
      value: '17950.00',
      value_source: 'manual',
      assigned_user_id: String(other),
      updated_at: res.body.data.updated_at,
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(deal.updated_at));
    expect((await api.call('getDeal', { key, params: { deal: deal.id } })).body.data).toEqual(res.body.data);
  });

  it('changes only the fields sent; null clears nullable fields', async () => {
    const deal = await dealOf(api, key, { title: 'Blijft', description: 'Weg', assigned_user_id: user });
    const res = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      body: { description: null, assigned_user_id: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Blijft', description: null, assigned_user_id: null });
  });

  it('value null returns the value to the quotes (value_source quotes, null without quotes)', async () => {
    const deal = await dealOf(api, key, { value: '500.00' });
    const res = await api.call('updateDeal', { key, params: { deal: deal.id }, body: { value: null } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ value: null, value_source: 'quotes' });
    const manual = await api.call('updateDeal', { key, params: { deal: deal.id }, body: { value: '0.00' } });
    expect(manual.body.data).toMatchObject({ value: '0.00', value_source: 'manual' });
  });

  it('changes nothing (same version, same answer) when the values sent are the current ones', async () => {
    const deal = await dealOf(api, key, { title: 'Gelijk', value: 18450.5, assigned_user_id: user });
    for (const body of [{}, { title: 'Gelijk' }, { value: '18450.50' }, { value: 18450.5, assigned_user_id: user }]) {
      const res = await api.call('updateDeal', { key, params: { deal: deal.id }, body });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.body.data).toEqual(deal);
    }
    const quotes = await dealOf(api, key);
    const res = await api.call('updateDeal', { key, params: { deal: quotes.id }, body: { value: null } });
    expect(res.headers.get('etag')).toBe('"1"');
  });

  it('updates won, lost and archived deals alike, keeping stage and status', async () => {
    const won = await dealOf(api, key);
    await api.call('winDeal', { key, params: { deal: won.id } });
    await api.call('archiveDeal', { key, params: { deal: won.id } });
    const res = await api.call('updateDeal', { key, params: { deal: won.id }, body: { title: 'Na afloop' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Na afloop',
      status: 'won',
      is_archived: true,
      stage: { id: String(stages.won) },
    });
  });

  it('keeps a deactivated owner when the same owner is sent again', async () => {
    const leaving = await userOf(api, companyId);
    const deal = await dealOf(api, key, { assigned_user_id: leaving });
    await api.sql`update users set status = 'inactive' where id = ${leaving}`;
    const res = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      body: { title: 'Nog steeds', assigned_user_id: leaving },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.assigned_user_id).toBe(String(leaving));
  });
});
