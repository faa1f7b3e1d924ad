// POST /customers/batch: created / updated / unchanged / failed per item, all or nothing with ?atomic=true, the
// events (and their fan-out jobs) in item order, idempotent replays, scopes and tenancy, and two concurrent batches
// on the same new emails.
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema/index.ts';
import { withTenant } from '../../../src/db/tenant.ts';
import { prefixedId } from '../../../src/ids.ts';
import { newSecret } from '../../../src/webhooks/sign.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { queuedJobsOf } from '../../harness/jobs.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

let n = 0;
const unique = (name: string) => `${name}${n++}@batch.example.nl`;

type BatchOptions = { atomic?: boolean; headers?: Record<string, string>; key?: string };
const request = (items: unknown[], opts: BatchOptions) => ({
  key: opts.key ?? key,
  body: { items },
  query: opts.atomic === undefined ? {} : { atomic: opts.atomic },
  headers: opts.headers,
});
/** A batch whose answer is the batch result (typed by the contract). */
const batch = (items: unknown[], opts: BatchOptions = {}) =>
  api.call<'upsertCustomers'>('upsertCustomers', request(items, opts));
/** A batch refused as a whole: its answer is a problem (still checked against the contract). */
const refusedBatch = (items: unknown[], opts: BatchOptions = {}) => api.call('upsertCustomers', request(items, opts));

const customersWithEmail = async (email: string) =>
  (await api.sql`select id, email, name, version from customers where company_id = ${companyId}
                 and email_lower = lower(${email})`) as unknown as { id: string; email: string; name: string }[];

const eventsOf = async (ids: string[]) =>
  (await api.sql`select id, type, customer_id, data from events where company_id = ${companyId}
                 and customer_id = any(${ids}::uuid[]) order by created_at, id`) as unknown as {
    id: string;
    type: string;
    customer_id: string;
    data: { object: { id: string; name: string | null } };
  }[];

describe('outcomes item by item', () => {
  it('creates, updates by email in any case or by id, and leaves equal customers unchanged', async () => {
    const a = unique('anna');
    const b = unique('bram');
    const first = await batch([
      { email: a, name: 'Anna', type: 'business', country: 'nl' },
      { email: b, name: 'Bram' },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: 'customer_batch',
      atomic: false,
      counts: { created: 2, updated: 0, unchanged: 0, failed: 0 },
    });
    const [anna, bram] = first.body.items.map((item) => ('data' in item ? item.data : undefined));
    expect(anna).toMatchObject({ email: a, name: 'Anna', type: 'business', country: 'NL', status: 'lead' });
    expect(bram).toMatchObject({ email: b, name: 'Bram', type: 'individual', city: null });

    const second = await batch([
      { email: a.toUpperCase(), name: 'Anna' }, // same name; the email's case differs: a change
      { id: bram?.id, city: 'Delft' },
      { email: b, name: 'Bram' }, // duplicate of the item before: same customer
      { email: a.toUpperCase(), name: 'Anna' },
    ]);
    expect(second.status).toBe(200);
    expect(second.body.items.map((item) => item.outcome)).toEqual(['updated', 'updated', 'failed', 'failed']);
    expect(second.body.items[0]).toMatchObject({ index: 0, data: { id: anna?.id, email: a.toUpperCase() } });
    expect(second.body.items[1]).toMatchObject({ index: 1, data: { id: bram?.id, name: 'Bram', city: 'Delft' } });
    expect(second.body.items[2]).toMatchObject({
      problem: {
        status: 422,
        code: 'validation_failed',
        errors: [{ pointer: '/items/2/email', code: 'duplicate_in_batch' }],
      },
    });

    const third = await batch([
      { email: a, name: 'Anna' },
      { id: bram?.id, city: 'Delft', name: 'Bram' },
    ]);
    expect(third.body.items.map((item) => item.outcome)).toEqual(['updated', 'unchanged']);
    const fourth = await batch([{ email: a, name: 'Anna', type: 'business' }]);
    expect(fourth.body.counts).toEqual({ created: 0, updated: 0, unchanged: 1, failed: 0 });
    expect(await customersWithEmail(a)).toHaveLength(1);
  });

  it('fails only the bad items, each with its problem and a pointer into the batch', async () => {
    const taken = unique('taken');
    const other = unique('other');
    const made = await batch([{ email: taken }, { email: other }]);
    const otherId = 'data' in made.body.items[1] ? made.body.items[1].data.id : '';
    const good = unique('good');
    const res = await batch(
      [
        { email: 'not-an-email', name: 'X' },
        { email: good, name: 'Goed' },
        { id: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30', name: 'Nobody' },
        { name: 'No email' },
        { id: otherId, email: taken.toUpperCase() },
        { email: unique('long'), name: 'x'.repeat(256), surprise: 1 },
      ],
      { headers: { 'accept-language': 'nl' } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('nl');
    expect(res.body.counts).toEqual({ created: 1, updated: 0, unchanged: 0, failed: 5 });
    const errorsOf = (i: number) => {
      const item = res.body.items[i];
      return item.outcome === 'failed' && 'problem' in item ? item.problem.errors : undefined;
    };
    expect(errorsOf(0)).toEqual([expect.objectContaining({ pointer: '/items/0/email', code: 'invalid_format' })]);
    expect(errorsOf(2)).toEqual([expect.objectContaining({ pointer: '/items/2/id', code: 'invalid_reference' })]);
    expect(errorsOf(3)).toEqual([
      { pointer: '/items/3/email', parameter: null, code: 'required', detail: 'Dit veld is verplicht.' },
    ]);
    expect(errorsOf(4)).toEqual([expect.objectContaining({ pointer: '/items/4/email', code: 'already_exists' })]);
    expect(
      errorsOf(5)
        ?.map((e) => [e.pointer, e.code])
        .sort(),
    ).toEqual([
      ['/items/5/name', 'too_long'],
      ['/items/5/surprise', 'unknown_field'],
    ]);
    expect(res.body.items[0]).toMatchObject({
      problem: {
        title: expect.any(String),
        request_id: res.headers.get('x-request-id'),
        instance: '/api/v1/customers/batch',
      },
    });
    expect(await customersWithEmail(good)).toHaveLength(1);
    expect(await customersWithEmail('not-an-email')).toHaveLength(0);
    // The customer matched by id kept its email.
    expect((await customersWithEmail(other))[0]?.id).toBe(otherId);
  });

  it('refuses a body that is wrong as a whole with one 422', async () => {
    const tooMany = Array.from({ length: 101 }, () => ({ email: unique('many') }));
    const res = await refusedBatch(tooMany);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/items', code: 'too_big' })]);
    const empty = await refusedBatch([]);
    expect(empty.status).toBe(422);
    const extra = await api.call('upsertCustomers', { key, body: { items: [{ email: unique('x') }], more: true } });
    expect(extra.status).toBe(422);
    expect(extra.body.code).toBe('unknown_field');
    expect(Number((await api.sql`select count(*)::int as n from customers where email like 'many%'`)[0].n)).toBe(0);
  });
});

describe('all or nothing', () => {
  it('?atomic=true with one bad item writes nothing and answers 422 with every invalid input', async () => {
    const fine = unique('fine');
    const before = Number((await api.sql`select count(*)::int as n from events where company_id = ${companyId}`)[0].n);
    const res = await refusedBatch([{ email: fine }, { email: 'broken' }, { name: 'no email' }], { atomic: true });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/items/1/email', '/items/2/email']);
    expect(await customersWithEmail(fine)).toHaveLength(0);
    const after = Number((await api.sql`select count(*)::int as n from events where company_id = ${companyId}`)[0].n);
    expect(after).toBe(before);
  });

  it('?atomic=true fails on a data problem too (an unknown id), after nothing was written', async () => {
    const fine = unique('fine');
    const res = await refusedBatch([{ email: fine }, { id: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f31' }], { atomic: true });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/items/1/id', code: 'invalid_reference' })]);
    expect(await customersWithEmail(fine)).toHaveLength(0);
  });

  it('?atomic=true without a failure writes everything and says so', async () => {
    const res = await batch([{ email: unique('all') }, { email: unique('all') }], { atomic: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ atomic: true, counts: { created: 2, failed: 0 } });
  });
});

describe('events and webhooks', () => {
  it('records customer.created / customer.updated in item order, with a fan-out job each in that order', async () => {
    const { key: hookKey, companyId: hookCompany } = await api.tenant();
    await withTenant(api.db, hookCompany, (tx) =>
      tx.insert(schema.webhookEndpoints).values({
        companyId: hookCompany,
        id: prefixedId('we'),
        url: 'https://hooks.example.nl/crm',
        secret: newSecret(),
        events: ['*'],
        scopes: ['customers.read'],
      }),
    );
    const emails = Array.from({ length: 5 }, () => unique('evt'));
    const first = await batch(
      emails.slice(0, 3).map((email) => ({ email })),
      { key: hookKey },
    );
    expect(first.status).toBe(200);
    const res = await batch(
      [
        { email: emails[3] },
        { email: emails[0], name: 'Veranderd' },
        { email: emails[1] }, // unchanged: no event
        { email: emails[4] },
        { email: emails[2], city: 'Gouda' },
      ],
      { key: hookKey },
    );
    expect(res.body.items.map((i) => i.outcome)).toEqual(['created', 'updated', 'unchanged', 'created', 'updated']);
    const ids = res.body.items.map((i) => ('data' in i ? i.data.id : ''));
    const events = (await api.sql`select id, type, customer_id, data from events where company_id = ${hookCompany}
      order by created_at, id`) as unknown as { id: string; type: string; customer_id: string; data: unknown }[];
    const ofSecond = events.slice(3);
    expect(ofSecond.map((e) => [e.type, e.customer_id])).toEqual([
      ['customer.created', ids[0]],
      ['customer.updated', ids[1]],
      ['customer.created', ids[3]],
      ['customer.updated', ids[4]],
    ]);
    // Each event carries the customer as the answer shows it.
    const items = res.body.items;
    expect(ofSecond[1]?.data).toEqual({ object: 'data' in items[1] ? items[1].data : null });
    const jobs = await queuedJobsOf(api, 'webhook_fanout', hookCompany);
    expect(jobs.map((j) => j.payload.eventId)).toEqual(events.map((e) => e.id));
  });

  it('a company without an endpoint gets its events and no fan-out job', async () => {
    const res = await batch([{ email: unique('quiet') }]);
    const id = 'data' in res.body.items[0] ? res.body.items[0].data.id : '';
    expect((await eventsOf([id])).map((e) => e.type)).toEqual(['customer.created']);
    expect(await queuedJobsOf(api, 'webhook_fanout', companyId)).toEqual([]);
  });
});

describe('guarantees of the single operations', () => {
  it('an Idempotency-Key replays the whole answer byte for byte and writes nothing again', async () => {
    const headers = { 'idempotency-key': `batch-${n++}` };
    const items = [{ email: unique('idem') }, { email: 'bad' }];
    const first = await batch(items, { headers });
    const again = await batch(items, { headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await customersWithEmail(items[0]?.email as string)).toHaveLength(1);
    const id = 'data' in first.body.items[0] ? first.body.items[0].data.id : '';
    expect(await eventsOf([id])).toHaveLength(1);
    const other = await refusedBatch([{ email: unique('idem') }], { headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('needs customers.write, and never reaches another company’s customers', async () => {
    const { key: readOnly } = await api.tenant({ scopes: ['customers.read'] });
    const refused = await batch([{ email: unique('scope') }], { key: readOnly });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'customers.write' });

    const shared = unique('shared');
    const mine = await batch([{ email: shared, name: 'Mine' }]);
    const mineId = 'data' in mine.body.items[0] ? mine.body.items[0].data.id : '';
    const { key: otherKey } = await api.tenant();
    const theirs = await batch(
      [
        { email: shared, name: 'Theirs' },
        { id: mineId, name: 'Stolen' },
      ],
      { key: otherKey },
    );
    expect(theirs.body.items.map((i) => i.outcome)).toEqual(['created', 'failed']);
    expect(theirs.body.items[1]).toMatchObject({
      problem: { errors: [{ pointer: '/items/1/id', code: 'invalid_reference' }] },
    });
    expect((await customersWithEmail(shared))[0]?.name).toBe('Mine');
  });
});

describe('concurrent batches', () => {
  it('two batches sending the same new emails at once create each customer once', async () => {
    const other = await api.otherProcess();
    for (let round = 0; round < 3; round++) {
      const emails = Array.from({ length: 60 }, () => unique('race'));
      const send = (call: typeof api.call, list: string[], name: string) =>
        call<'upsertCustomers'>('upsertCustomers', { key, body: { items: list.map((email) => ({ email, name })) } });
      // Opposite orders, one batch through each API process (each its own pool): inserts meet both ways.
      const [a, b] = await Promise.all([send(api.call, emails, 'A'), send(other.call, [...emails].reverse(), 'B')]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const rows = (await api.sql`select email_lower, count(*)::int as n from customers
        where company_id = ${companyId} and email_lower = any(${emails}::text[]) group by email_lower`) as unknown as {
        n: number;
      }[];
      expect(rows).toHaveLength(60);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      // Each email created by exactly one of the two; the other batch updated it (its name differs).
      const outcomes = [...a.body.items, ...b.body.items].map((i) => i.outcome);
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(60);
      expect(outcomes.filter((o) => o === 'updated')).toHaveLength(60);
      const created = (
        await api.sql`select count(*)::int as n from events e join customers c
        on c.company_id = e.company_id and c.id = e.customer_id
        where e.company_id = ${companyId} and e.type = 'customer.created' and c.email_lower = any(${emails}::text[])`
      )[0];
      expect(Number(created?.n)).toBe(60);
    }
  });
});
