// POST /deals/batch: created / updated / unchanged / failed per item matched on id or external_ref, all or nothing
// with ?atomic=true, deal.created / deal.updated in item order, idempotent replays, another company's customers and
// stages refused, two concurrent batches on the same external references; external_ref on the single operations.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { until } from '../../harness/async.ts';
import { waitsForLock } from '../../harness/locks.ts';
import { customerOf, type Pipeline, pipelineOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let pipeline: Pipeline;
let user: number;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  pipeline = await pipelineOf(api, companyId);
  user = await userOf(api, companyId);
});

let n = 0;
const ref = (name: string) => `${name}-${n++}`;

type BatchOptions = { atomic?: boolean; headers?: Record<string, string>; key?: string };
const request = (items: unknown[], opts: BatchOptions) => ({
  key: opts.key ?? key,
  body: { items },
  query: opts.atomic === undefined ? {} : { atomic: opts.atomic },
  headers: opts.headers,
});
const batch = (items: unknown[], opts: BatchOptions = {}) =>
  api.call<'upsertDeals'>('upsertDeals', request(items, opts));
const refusedBatch = (items: unknown[], opts: BatchOptions = {}) => api.call('upsertDeals', request(items, opts));

type Answer = Awaited<ReturnType<typeof batch>>;
const dataOf = (res: Answer, i: number) => {
  const item = res.body.items[i];
  return item && 'data' in item ? item.data : undefined;
};
const errorsOf = (res: Answer, i: number) => {
  const item = res.body.items[i];
  return item && 'problem' in item ? item.problem : undefined;
};
const dealsWithRef = async (externalRef: string) =>
  (await api.sql`select id, title from deals where company_id = ${companyId} and external_ref = ${externalRef}`) as unknown as {
    id: string;
    title: string;
  }[];

describe('outcomes item by item', () => {
  it('creates, updates by external_ref (exactly) or by id, and leaves equal deals unchanged', async () => {
    const [c1, c2, c3] = [await customerOf(api, key), await customerOf(api, key), await customerOf(api, key)];
    const [r1, r2] = [ref('PD'), ref('PD')];
    const first = await batch([
      { external_ref: r1, customer_id: c1, title: 'Warmtepomp', value: '32500.00', assigned_user_id: user },
      { external_ref: r2, customer_id: c2, stage_id: pipeline.qualified },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'deal_batch', atomic: false, counts: { created: 2, failed: 0 } });
    expect(dataOf(first, 0)).toMatchObject({
      external_ref: r1,
      customer_id: c1,
      title: 'Warmtepomp',
      value: '32500.00',
      value_source: 'manual',
      stage: { id: String(pipeline.newStage) },
      assigned_user_id: String(user),
      status: 'open',
      source: 'api',
    });
    expect(dataOf(first, 1)).toMatchObject({ stage: { id: String(pipeline.qualified) }, value: null });

    const second = await batch([
      { external_ref: r1, title: 'Warmtepomp', value: 32500 }, // the same values: unchanged
      { id: dataOf(first, 1)?.id, title: 'Dakkapel', customer_id: c2 },
      { external_ref: r1.toLowerCase(), customer_id: c3 }, // another reference (case counts): a new deal
      { external_ref: r2, title: 'Twice' }, // the deal of item 1 again
    ]);
    expect(second.body.items.map((i) => i.outcome)).toEqual(['unchanged', 'updated', 'created', 'failed']);
    expect(dataOf(second, 1)).toMatchObject({ id: dataOf(first, 1)?.id, title: 'Dakkapel', external_ref: r2 });
    expect(errorsOf(second, 3)?.errors).toEqual([
      expect.objectContaining({ pointer: '/items/3/external_ref', code: 'duplicate_in_batch' }),
    ]);
    expect(await dealsWithRef(r1)).toHaveLength(1);

    // filter[external_ref] finds exactly one deal, compared exactly.
    const listed = await api.call<'listDeals'>('listDeals', { key, query: { 'filter[external_ref]': r1 } });
    expect(listed.body.data.map((d) => d.id)).toEqual([dataOf(first, 0)?.id]);
  });

  it('checks every item like the single operations, with pointers into the batch', async () => {
    const [c1, c2] = [await customerOf(api, key), await customerOf(api, key)];
    const made = await batch([{ external_ref: ref('X'), customer_id: c1 }]);
    const existing = dataOf(made, 0);
    const res = await batch(
      [
        { external_ref: ref('A') }, // no customer for a new deal
        { external_ref: ref('B'), customer_id: c2, stage_id: pipeline.won, value: 1.234 },
        { id: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30', title: 'Nobody' },
        { title: 'Neither id nor reference' },
        { id: existing?.id, stage_id: pipeline.quote, customer_id: c2 },
        { external_ref: ref('C'), customer_id: c1 }, // c1 has an open deal
        { external_ref: ref('D'), customer_id: c2, assigned_user_id: 999999, surprise: true },
      ],
      { headers: { 'accept-language': 'nl' } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('nl');
    expect(res.body.counts).toEqual({ created: 0, updated: 0, unchanged: 0, failed: 7 });
    const pointers = (i: number) =>
      errorsOf(res, i)
        ?.errors?.map((e) => `${e.pointer} ${e.code}`)
        .sort();
    expect(pointers(0)).toEqual(['/items/0/customer_id required']);
    expect(pointers(1)).toEqual(['/items/1/stage_id invalid_reference', '/items/1/value invalid_format']);
    expect(pointers(2)).toEqual(['/items/2/id invalid_reference']);
    expect(pointers(3)).toEqual(['/items/3/external_ref required']);
    expect(pointers(4)).toEqual(['/items/4/customer_id invalid_combination', '/items/4/stage_id invalid_combination']);
    expect(errorsOf(res, 5)).toMatchObject({ status: 409, code: 'conflict', deal_id: existing?.id });
    expect(pointers(5)).toEqual(['/items/5/customer_id already_exists']);
    expect(pointers(6)).toEqual(['/items/6/surprise unknown_field']);
  });

  it('refuses another company’s customer, stage and deal', async () => {
    const other = await api.tenant();
    const theirPipeline = await pipelineOf(api, other.companyId);
    const theirCustomer = await customerOf(api, other.key);
    const theirs = await api.call<'upsertDeals'>('upsertDeals', {
      key: other.key,
      body: { items: [{ external_ref: ref('T'), customer_id: theirCustomer }] },
    });
    const theirDeal = dataOf(theirs, 0);
    const mine = await customerOf(api, key);
    const res = await batch([
      { external_ref: ref('M'), customer_id: theirCustomer },
      { external_ref: ref('M'), customer_id: mine, stage_id: theirPipeline.qualified },
      { id: theirDeal?.id, title: 'Stolen' },
      { external_ref: theirDeal?.external_ref, customer_id: mine }, // their reference is free here: a new deal
    ]);
    expect(res.body.items.map((i) => i.outcome)).toEqual(['failed', 'failed', 'failed', 'created']);
    expect(errorsOf(res, 0)?.errors).toEqual([
      expect.objectContaining({ pointer: '/items/0/customer_id', code: 'invalid_reference' }),
    ]);
    expect(errorsOf(res, 1)?.errors).toEqual([
      expect.objectContaining({ pointer: '/items/1/stage_id', code: 'invalid_reference' }),
    ]);
    expect(errorsOf(res, 2)?.errors).toEqual([expect.objectContaining({ pointer: '/items/2/id' })]);
    const [row] = await api.sql`select title from deals where id = ${theirDeal?.id ?? ''}`;
    expect(row?.title).toBeNull();
  });
});

describe('all or nothing, events, replays', () => {
  it('?atomic=true with one bad item writes nothing and answers 422 naming it', async () => {
    const c1 = await customerOf(api, key);
    const fine = ref('fine');
    const before = await api.sql`select count(*)::int as n from events where company_id = ${companyId}`;
    const res = await refusedBatch(
      [
        { external_ref: fine, customer_id: c1 },
        { external_ref: ref('bad'), customer_id: c1, value: 'lots' },
      ],
      { atomic: true },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/items/1/value']);
    expect(await dealsWithRef(fine)).toHaveLength(0);
    const after = await api.sql`select count(*)::int as n from events where company_id = ${companyId}`;
    expect(after[0]?.n).toBe(before[0]?.n);
    // A second new deal for the same customer is the conflict of the single creation, named in the atomic refusal.
    const twice = await refusedBatch(
      [
        { external_ref: ref('one'), customer_id: c1 },
        { external_ref: ref('two'), customer_id: c1 },
      ],
      { atomic: true },
    );
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual([
      expect.objectContaining({ pointer: '/items/1/customer_id', code: 'already_exists' }),
    ]);
  });

  it('records deal.created / deal.updated in item order, and touches each customer once', async () => {
    const customers = [await customerOf(api, key), await customerOf(api, key), await customerOf(api, key)];
    const refs = [ref('E'), ref('E'), ref('E')];
    await batch([{ external_ref: refs[0], customer_id: customers[0] }]);
    const res = await batch([
      { external_ref: refs[1], customer_id: customers[1] },
      { external_ref: refs[0], title: 'Veranderd' },
      { external_ref: refs[0].concat('x'), customer_id: customers[2], title: 'Derde' },
      { external_ref: refs[2] }, // fails: no customer
    ]);
    expect(res.body.items.map((i) => i.outcome)).toEqual(['created', 'updated', 'created', 'failed']);
    const ids = [0, 1, 2].map((i) => dataOf(res, i)?.id ?? '');
    const events = (await api.sql`select type, data from events where company_id = ${companyId}
      and data->'object'->>'id' = any(${ids}::text[]) order by created_at, id`) as unknown as {
      type: string;
      data: { object: { id: string; title: string | null } };
    }[];
    expect(events.map((e) => [e.type, e.data.object.id])).toEqual([
      ['deal.created', ids[1]], // by the first batch
      ['deal.created', ids[0]],
      ['deal.updated', ids[1]],
      ['deal.created', ids[2]],
    ]);
    expect(events[2]?.data.object).toEqual(dataOf(res, 1));
    const touched = await api.sql`select last_activity_at from customers where id = any(${customers}::uuid[])`;
    expect(touched.every((c) => c.last_activity_at !== null)).toBe(true);
  });

  it('an Idempotency-Key replays the whole answer byte for byte and writes nothing again', async () => {
    const headers = { 'idempotency-key': `deal-batch-${n++}` };
    const items = [{ external_ref: ref('I'), customer_id: await customerOf(api, key) }, { external_ref: ref('I') }];
    const first = await batch(items, { headers });
    const again = await batch(items, { headers });
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await dealsWithRef(items[0]?.external_ref as string)).toHaveLength(1);
  });

  it('needs deals.write and the pipeline feature', async () => {
    const { key: readOnly } = await api.tenant({ scopes: ['deals.read'] });
    const refused = await refusedBatch([{ external_ref: ref('S') }], { key: readOnly });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'deals.write' });
    const { key: noPipeline } = await api.tenant({ features: [] });
    const off = await refusedBatch([{ external_ref: ref('S') }], { key: noPipeline });
    expect(off.status).toBe(403);
    expect(off.body.code).toBe('feature_not_available');
  });
});

describe('external_ref on the single operations', () => {
  it('is set on create and update, and a reference another deal has is refused', async () => {
    const taken = ref('single');
    const created = await api.call<'createDeal'>('createDeal', {
      key,
      body: { customer_id: await customerOf(api, key), external_ref: taken },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.external_ref).toBe(taken);
    const clash = await api.call('createDeal', {
      key,
      body: { customer_id: await customerOf(api, key), external_ref: taken },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([expect.objectContaining({ pointer: '/external_ref', code: 'already_exists' })]);
    const other = await api.call<'createDeal'>('createDeal', {
      key,
      body: { customer_id: await customerOf(api, key) },
    });
    expect(other.body.data.external_ref).toBeNull();
    const patch = await api.call('updateDeal', {
      key,
      params: { deal: other.body.data.id },
      body: { external_ref: taken },
    });
    expect(patch.status).toBe(422);
    const renamed = await api.call<'updateDeal'>('updateDeal', {
      key,
      params: { deal: created.body.data.id },
      body: { external_ref: null },
    });
    expect(renamed.body.data.external_ref).toBeNull();
  });
});

describe('concurrent batches', () => {
  it('two batches sending the same new external references at once create each deal once', async () => {
    const other = await api.otherProcess();
    for (let round = 0; round < 2; round++) {
      const refs = Array.from({ length: 30 }, () => ref('race'));
      const customers = await Promise.all(refs.map(() => customerOf(api, key)));
      const items = (title: string) =>
        refs.map((external_ref, i) => ({ external_ref, customer_id: customers[i], title }));
      const send = (call: typeof api.call, list: unknown[]) =>
        call<'upsertDeals'>('upsertDeals', { key, body: { items: list } });
      // Opposite orders, one batch through each API process: inserts meet both ways.
      const [a, b] = await Promise.all([send(api.call, items('A')), send(other.call, items('B').reverse())]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const rows = (await api.sql`select external_ref, count(*)::int as n from deals
        where company_id = ${companyId} and external_ref = any(${refs}::text[]) group by external_ref`) as unknown as {
        n: number;
      }[];
      expect(rows).toHaveLength(30);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      const outcomes = [...a.body.items, ...b.body.items].map((i) => i.outcome);
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(30);
      expect(outcomes.filter((o) => o === 'updated')).toHaveLength(30);
    }
  });
});

describe('more than 100 items', () => {
  it('refuses 101 items with one 422 on /items and writes nothing', async () => {
    const customer = await customerOf(api, key);
    const refs = Array.from({ length: 101 }, () => ref('many'));
    const res = await refusedBatch(refs.map((external_ref) => ({ external_ref, customer_id: customer })));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/items', code: 'too_big' })]);
    expect(
      await api.sql`select id from deals where company_id = ${companyId} and external_ref = any(${refs})`,
    ).toHaveLength(0);
  });
});

describe('a deal committed by another transaction while the batch waits', () => {
  it('is matched in the next round and updated, not refused as the customer’s second open deal', async () => {
    // Another transaction creates the deal with the batch's reference and holds its customer: the batch's lock of
    // the reference finds nothing (not committed yet), then waits for the customer; once the other commits, the
    // batch sees the customer's open deal with its own reference and takes it up in its next round.
    const customer = await customerOf(api, key);
    const externalRef = ref('claimed');
    const id = crypto.randomUUID();
    let pending: Promise<Answer> | undefined;
    await api.sql.begin(async (tx) => {
      await tx`select 1 from customers where company_id = ${companyId} and id = ${customer} for update`;
      await tx`insert into deals (company_id, id, customer_id, stage_id, currency, source, external_ref, title)
        values (${companyId}, ${id}, ${customer}, ${pipeline.newStage}, 'EUR', 'web', ${externalRef}, 'Eerder')`;
      pending = batch([{ external_ref: externalRef, customer_id: customer, title: 'Uit de batch' }]);
      await until(() => waitsForLock(api.sql, '%customers%'), 'the batch waits for the customer', 60_000);
    });
    if (!pending) throw new Error('the batch never started');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ outcome: 'updated', data: { id, title: 'Uit de batch' } });
    expect([...(await dealsWithRef(externalRef))]).toEqual([{ id, title: 'Uit de batch' }]);
  });
});
