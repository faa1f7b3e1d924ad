// Every error of the deal operations: another company's deal (404), a second open deal (409 with deal_id),
// a stale ETag (412), invalid references and amounts (422 invalid_reference / invalid_format / too_big, all
// inputs at once), malformed filters, and the `pipeline` feature (403).
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../../generated/operations.ts';
import { FEATURES } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, emptyPipeline, MISSING, type Pipeline, pipelineOf, stageOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let stages: Pipeline;
/** Another company with its own pipeline, user, customer and deal. */
let other: { key: string; stage: number; user: number; customer: string; deal: string };

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  stages = await pipelineOf(api, companyId);
  const b = await api.tenant();
  const bStages = await pipelineOf(api, b.companyId);
  const customer = await customerOf(api, b.key);
  other = {
    key: b.key,
    stage: bStages.qualified,
    user: await userOf(api, b.companyId),
    customer,
    deal: (await dealOf(api, b.key, { customer_id: customer })).id,
  };
});

const dealCount = async () => Number((await api.sql`select count(*)::int as n from deals`)[0].n);

function expectErrors(res: { status: number; body: { code: string; errors: unknown[] } }, errors: [string, string][]) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors).toEqual(
    errors.map(([pointer, code]) => ({ pointer, parameter: null, code, detail: expect.any(String) })),
  );
}

describe('another company’s deal (404 not_found, unchanged)', () => {
  const calls: [OperationId, unknown][] = [
    ['getDeal', undefined],
    ['updateDeal', { title: 'Overgenomen' }],
    ['moveDeal', { stage_id: 1 }],
    ['winDeal', undefined],
    ['loseDeal', undefined],
    ['archiveDeal', undefined],
    ['unarchiveDeal', undefined],
    ['listDealNotes', undefined],
    ['createDealNote', { content: 'Niet van jou' }],
  ];
  it.each(calls)('%s', async (operation, body) => {
    for (const deal of [other.deal, MISSING]) {
      const res = await api.call(operation, { key, params: { deal }, body });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const [row] = await api.sql`select version, title, status, is_archived from deals where id = ${other.deal}`;
    expect(row).toEqual({ version: 1, title: null, status: 'open', is_archived: false });
  });

  it('is not listed', async () => {
    const res = await api.call('listDeals', { key, query: { 'filter[archived]': 'all' } });
    expect(res.body.data.map((d: { id: string }) => d.id)).not.toContain(other.deal);
  });
});

describe('one open deal per customer (409 conflict with deal_id)', () => {
  it('refuses a second open deal and names the existing one; nothing is created', async () => {
    const customer = await customerOf(api, key);
    const first = await dealOf(api, key, { customer_id: customer });
    const before = await dealCount();
    const res = await api.call('createDeal', { key, body: { customer_id: customer, title: 'Tweede' } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', status: 409, deal_id: first.id });
    expect(await dealCount()).toBe(before);
  });

  it('stores the conflict with an Idempotency-Key and replays it', async () => {
    const customer = await customerOf(api, key);
    const first = await dealOf(api, key, { customer_id: customer });
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const a = await api.call('createDeal', { key, body: { customer_id: customer }, headers });
    const b = await api.call('createDeal', { key, body: { customer_id: customer }, headers });
    expect([a.status, b.status]).toEqual([409, 409]);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body).toEqual(a.body);
    expect(a.body.deal_id).toBe(first.id);
  });

  it('a refusal after the insert went through rolls the insert back (the savepoint) and keeps only the stored answer', async () => {
    // The checks and the insert are sent together: with an inactive owner the insert succeeds (the user exists)
    // and the check refuses after it. The key's answer is stored in the same transaction, so only the work's
    // savepoint takes the deal back out.
    const customer = await customerOf(api, key);
    const inactive = await userOf(api, companyId, 'inactive');
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const body = { customer_id: customer, title: 'Teruggedraaid', assigned_user_id: inactive };
    const refused = await api.call('createDeal', { key, body, headers });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/assigned_user_id' })]);
    expect(
      await api.sql`select id from deals where company_id = ${companyId} and customer_id = ${customer}`,
    ).toHaveLength(0);
    const replayed = await api.call('createDeal', { key, body, headers });
    expect(replayed.status).toBe(422);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    // No open deal was left behind to block the customer's next one.
    expect((await api.call('createDeal', { key, body: { customer_id: customer } })).status).toBe(201);
  });

  it('is enforced by the database itself', async () => {
    const customer = await customerOf(api, key);
    const first = await dealOf(api, key, { customer_id: customer });
    await expect(
      api.sql`insert into deals (company_id, id, customer_id, stage_id, currency, source)
              values (${companyId}, ${crypto.randomUUID()}, ${customer}, ${stages.newStage}, 'EUR', 'web')`,
    ).rejects.toThrow(/deals_one_open_per_customer/);
    // An archived open deal counts too.
    await api.sql`update deals set is_archived = true, archived_at = now() where id = ${first.id}`;
    await expect(
      api.sql`insert into deals (company_id, id, customer_id, stage_id, currency, source)
              values (${companyId}, ${crypto.randomUUID()}, ${customer}, ${stages.newStage}, 'EUR', 'web')`,
    ).rejects.toThrow(/deals_one_open_per_customer/);
  });
});

describe('createDeal 422', () => {
  it('a customer of another company or none: invalid_reference', async () => {
    for (const customer_id of [other.customer, MISSING]) {
      const before = await dealCount();
      expectErrors(await api.call('createDeal', { key, body: { customer_id } }), [
        ['/customer_id', 'invalid_reference'],
      ]);
      expect(await dealCount()).toBe(before);
    }
  });

  it('a stage of another company, unknown, inactive, or of type won/lost: invalid_reference', async () => {
    const inactive = await stageOf(api, companyId, { type: 'open', position: 9, active: false });
    for (const stage_id of [other.stage, 999999, inactive, stages.won, stages.lost]) {
      const customer_id = await customerOf(api, key);
      expectErrors(await api.call('createDeal', { key, body: { customer_id, stage_id } }), [
        ['/stage_id', 'invalid_reference'],
      ]);
    }
  });

  it('a user of another company, unknown or inactive: invalid_reference', async () => {
    const inactive = await userOf(api, companyId, 'inactive');
    for (const assigned_user_id of [other.user, 999999, inactive]) {
      const customer_id = await customerOf(api, key);
      expectErrors(await api.call('createDeal', { key, body: { customer_id, assigned_user_id } }), [
        ['/assigned_user_id', 'invalid_reference'],
      ]);
    }
  });

  it.each([
    [0.125, 'invalid_format'],
    [18450.001, 'invalid_format'],
    [1e-7, 'invalid_format'],
    ['99999999.01', 'too_big'],
  ])('value %j: %s, not rounded', async (value, code) => {
    const customer_id = await customerOf(api, key);
    expectErrors(await api.call('createDeal', { key, body: { customer_id, value } }), [['/value', code]]);
  });

  it.each([
    [{ value: -1 }, '/value'],
    [{ value: 100000000 }, '/value'],
    [{ value: '12.5' }, '/value'],
    [{ value: '1,50' }, '/value'],
    [{ stage_id: '2' }, '/stage_id'],
    [{ stage_id: 1.5 }, '/stage_id'],
    [{ assigned_user_id: 0 }, '/assigned_user_id'],
    [{ title: 'x'.repeat(256) }, '/title'],
    [{ description: 'x'.repeat(10001) }, '/description'],
  ])('%j answers validation_failed at the field', async (fields, pointer) => {
    const customer_id = await customerOf(api, key);
    const res = await api.call('createDeal', { key, body: { customer_id, ...fields } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
  });

  it('customer_id missing or malformed, and unknown fields', async () => {
    expect((await api.call('createDeal', { key, body: {} })).body.errors).toEqual([
      expect.objectContaining({ pointer: '/customer_id', code: 'required' }),
    ]);
    expect((await api.call('createDeal', { key, body: { customer_id: 'nope' } })).status).toBe(422);
    const unknown = await api.call('createDeal', { key, body: { customer_id: MISSING, status: 'won' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('unknown_field');
  });

  it('reports every invalid reference at once', async () => {
    const res = await api.call('createDeal', {
      key,
      body: { customer_id: other.customer, stage_id: other.stage, assigned_user_id: other.user, value: 1.234 },
    });
    expectErrors(res, [
      ['/value', 'invalid_format'],
      ['/customer_id', 'invalid_reference'],
      ['/stage_id', 'invalid_reference'],
      ['/assigned_user_id', 'invalid_reference'],
    ]);
  });

  it('without a default stage and without stage_id: 409 conflict', async () => {
    const bare = await api.tenant();
    await emptyPipeline(api, bare.companyId);
    await stageOf(api, bare.companyId, { type: 'open', position: 1 });
    const customer_id = await customerOf(api, bare.key);
    const res = await api.call('createDeal', { key: bare.key, body: { customer_id } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.deal_id).toBeUndefined();
  });
});

describe('updateDeal errors', () => {
  it('412 precondition_failed on a stale ETag; nothing changes', async () => {
    const deal = await dealOf(api, key, { title: 'Eerst' });
    await api.call('updateDeal', { key, params: { deal: deal.id }, body: { title: 'Tussendoor' } });
    const res = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      headers: { 'if-match': '"1"' },
      body: { title: 'Te laat' },
    });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    expect(res.body.detail).toContain('"2"');
    expect((await api.call('getDeal', { key, params: { deal: deal.id } })).body.data.title).toBe('Tussendoor');
  });

  it('422 for a user of another company or an inactive one, and for an amount with three decimals', async () => {
    const deal = await dealOf(api, key);
    const inactive = await userOf(api, companyId, 'inactive');
    for (const assigned_user_id of [other.user, inactive]) {
      expectErrors(await api.call('updateDeal', { key, params: { deal: deal.id }, body: { assigned_user_id } }), [
        ['/assigned_user_id', 'invalid_reference'],
      ]);
    }
    expectErrors(await api.call('updateDeal', { key, params: { deal: deal.id }, body: { value: 1.005 } }), [
      ['/value', 'invalid_format'],
    ]);
    const stage = await api.call('updateDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.won } });
    expect(stage.body.code).toBe('unknown_field');
    const [row] = await api.sql`select version from deals where id = ${deal.id}`;
    expect(row.version).toBe(1);
  });

  // The PATCH sends its conditional write with the lock and the owner's check (one round trip): a refused owner or
  // amount undoes a write that had passed, and the problems keep their order.
  it('422 for an unknown owner and an amount at once, in that order, though the title alone would have passed', async () => {
    const deal = await dealOf(api, key, { title: 'Eerst' });
    const res = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      headers: { 'if-match': '"1"' },
      body: { title: 'Anders', assigned_user_id: other.user, value: 1.005 },
    });
    expectErrors(res, [
      ['/assigned_user_id', 'invalid_reference'],
      ['/value', 'invalid_format'],
    ]);
    const owner = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      body: { title: 'Anders', assigned_user_id: other.user },
    });
    expectErrors(owner, [['/assigned_user_id', 'invalid_reference']]);
    const [row] = await api.sql`select version, title, assigned_user_id from deals where id = ${deal.id}`;
    expect(row).toEqual({ version: 1, title: 'Eerst', assigned_user_id: null });
    const events = await api.sql`select type from events where data->'object'->>'id' = ${deal.id}`;
    expect(events.map((e) => e.type)).toEqual(['deal.created']);
  });

  it('the current owner, deactivated since, sent again with the same title: 200 at the same version, no event', async () => {
    const user = await userOf(api, companyId);
    const deal = await dealOf(api, key, { title: 'Zelfde', assigned_user_id: user, value: 10 });
    await api.sql`update users set status = 'inactive' where id = ${user}`;
    const res = await api.call('updateDeal', {
      key,
      params: { deal: deal.id },
      headers: { 'if-match': '"1"' },
      body: { title: 'Zelfde', assigned_user_id: user, value: '10.00' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.data).toEqual(deal);
    const events = await api.sql`select type from events where data->'object'->>'id' = ${deal.id}`;
    expect(events.map((e) => e.type)).toEqual(['deal.created']);
  });
});

describe('412 on every state action with a stale If-Match', () => {
  const actions: [OperationId, unknown][] = [
    ['moveDeal', 'stage'],
    ['winDeal', undefined],
    ['loseDeal', undefined],
    ['archiveDeal', undefined],
  ];
  it.each(actions)('%s', async (operation, body) => {
    const deal = await dealOf(api, key);
    const res = await api.call(operation, {
      key,
      params: { deal: deal.id },
      headers: { 'if-match': '"7"' },
      body: body === 'stage' ? { stage_id: stages.quote } : body,
    });
    expect(res.status).toBe(412);
    expect(res.body.code).toBe('precondition_failed');
    const [row] = await api.sql`select version from deals where id = ${deal.id}`;
    expect(row.version).toBe(1);
  });

  it('unarchiveDeal', async () => {
    const deal = await dealOf(api, key);
    await api.call('archiveDeal', { key, params: { deal: deal.id } });
    const res = await api.call('unarchiveDeal', { key, params: { deal: deal.id }, headers: { 'if-match': '"1"' } });
    expect(res.status).toBe(412);
    const ok = await api.call('unarchiveDeal', { key, params: { deal: deal.id }, headers: { 'if-match': '"2"' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('"3"');
  });
});

describe('listDeals 422', () => {
  it.each([
    ['filter[stage_id]', 'abc'],
    ['filter[stage_id]', '1.5'],
    ['filter[stage_id]', '0'],
    ['filter[assigned_user_id]', 'x'],
    ['filter[archived]', 'yes'],
    ['filter[status]', 'closed'],
    ['filter[customer_id]', 'nope'],
    ['filter[updated_since]', '2026-01-01'],
    ['sort', 'title'],
    ['filter[title]', 'x'],
  ])('%s=%s', async (parameter, value) => {
    const res = await api.call('listDeals', { key, query: { [parameter]: value } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: null, parameter })]);
  });

  it('a cursor of another sort or a damaged one', async () => {
    await dealOf(api, key);
    await dealOf(api, key);
    const page = await api.call('listDeals', { key, query: { limit: 1 } });
    const cursor = page.body.meta.next_cursor;
    const wrongSort = await api.call('listDeals', { key, query: { limit: 1, cursor, sort: 'stage_changed_at' } });
    expect(wrongSort.status).toBe(422);
    const damaged = Buffer.from(JSON.stringify({ s: '-created_at', v: ['x', 'y'], d: 'n' })).toString('base64url');
    expect((await api.call('listDeals', { key, query: { cursor: damaged } })).status).toBe(422);
  });
});

describe('the pipeline feature', () => {
  it('every deal, stage and deal-note operation answers 403 feature_not_available without it', async () => {
    const without = await api.tenant({ features: FEATURES.filter((f) => f !== 'pipeline') });
    const deal = other.deal;
    const note = MISSING;
    const calls: [OperationId, Record<string, string>, unknown][] = [
      ['listDeals', {}, undefined],
      ['createDeal', {}, { customer_id: MISSING }],
      ['getDeal', { deal }, undefined],
      ['updateDeal', { deal }, {}],
      ['moveDeal', { deal }, { stage_id: 1 }],
      ['winDeal', { deal }, undefined],
      ['loseDeal', { deal }, undefined],
      ['archiveDeal', { deal }, undefined],
      ['unarchiveDeal', { deal }, undefined],
      ['listPipelineStages', {}, undefined],
      ['listDealNotes', { deal }, undefined],
      ['createDealNote', { deal }, { content: 'x' }],
      ['updateDealNote', { deal, note }, { content: 'x' }],
      ['deleteDealNote', { deal, note }, undefined],
    ];
    for (const [operation, params, body] of calls) {
      const res = await api.call(operation, { key: without.key, params, body });
      expect(res.status, operation).toBe(403);
      expect(res.body.code, operation).toBe('feature_not_available');
    }
  });

  it('a key without deals.write cannot create; one without deals.read cannot list', async () => {
    const readOnly = (await api.key(companyId, { scopes: ['deals.read'] })).key;
    const res = await api.call('createDeal', { key: readOnly, body: { customer_id: MISSING } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.write' });
    const customersOnly = (await api.key(companyId, { scopes: ['customers.read'] })).key;
    const list = await api.call('listDeals', { key: customersOnly });
    expect(list.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.read' });
  });
});
