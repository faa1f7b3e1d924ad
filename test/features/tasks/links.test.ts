// Links: up to 20 {object, id} to records of the company; another company's record, a missing one or a kind whose
// records this installation does not hold yet answer 422 invalid_reference at the input's pointer; PATCH replaces
// the exposed links as a whole, keeps the unexposed ones (a conversation) and changes nothing for identical links;
// filter[customer_id] finds a customer's tasks.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { commentsOf, customerOf, dealOf, MISSING, taskOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let other: { key: string; companyId: string };

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  companyId = t.companyId;
  other = await api.tenant();
});

const invalid = (body: { code: string; errors: { pointer: string; code: string }[] }) =>
  body.errors.map((e) => [e.pointer, e.code]);

describe('links on creation', () => {
  it('refuses another company’s customer and deal, a missing one and unheld kinds, each at its pointer', async () => {
    const foreignCustomer = await customerOf(api, other.key);
    const foreignDeal = await dealOf(api, other.key);
    const mine = await customerOf(api, key);
    const res = await api.call('createTask', {
      key,
      body: {
        title: 'Koppelingen',
        links: [
          { object: 'customer', id: mine },
          { object: 'customer', id: foreignCustomer },
          { object: 'deal', id: foreignDeal },
          { object: 'deal', id: MISSING },
          { object: 'appointment', id: MISSING },
          { object: 'invoice', id: MISSING },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(invalid(res.body)).toEqual([
      ['/links/1/id', 'invalid_reference'],
      ['/links/2/id', 'invalid_reference'],
      ['/links/3/id', 'invalid_reference'],
      ['/links/4/id', 'invalid_reference'],
      ['/links/5/id', 'invalid_reference'],
    ]);
    const [{ count }] = await api.sql`select count(*)::int as count from tasks where company_id = ${companyId}`;
    expect(count).toBe(0);
  });

  it('accepts 20 links and refuses 21 (the contract’s limit)', async () => {
    const customers = await Promise.all(Array.from({ length: 20 }, (_, i) => customerOf(api, key, `Klant ${i}`)));
    const links = customers.map((id) => ({ object: 'customer', id }));
    const ok = await api.call('createTask', { key, body: { title: 'Twintig', links } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.links).toHaveLength(20);
    const tooMany = await api.call('createTask', {
      key,
      body: { title: 'Eenentwintig', links: [...links, { object: 'deal', id: MISSING }] },
    });
    expect(tooMany.status).toBe(422);
    expect(invalid(tooMany.body)).toEqual([['/links', 'too_big']]);
  });
});

describe('links on update', () => {
  it('refuses 21 links (as on create) and changes nothing', async () => {
    const customers = await Promise.all(Array.from({ length: 21 }, (_, i) => customerOf(api, key, `Klant ${i}`)));
    const links = customers.map((id) => ({ object: 'customer', id }));
    const task = await taskOf(api, key, { links: links.slice(0, 1) });
    const tooMany = await api.call('updateTask', { key, params: { task: task.id }, body: { links } });
    expect(tooMany.status).toBe(422);
    expect(invalid(tooMany.body)).toEqual([['/links', 'too_big']]);
    const [{ count }] = await api.sql`select count(*)::int as count from task_links where task_id = ${task.id}`;
    expect(count).toBe(1);
    const twenty = await api.call('updateTask', {
      key,
      params: { task: task.id },
      body: { links: links.slice(0, 20) },
    });
    expect(twenty.status).toBe(200);
    expect(twenty.body.data.links).toHaveLength(20);
  });
  it('replaces the exposed links, keeps a conversation link, and identical links change nothing', async () => {
    const a = await customerOf(api, key);
    const b = await customerOf(api, key);
    const deal = await dealOf(api, key);
    const task = await taskOf(api, key, { links: [{ object: 'customer', id: a }] });
    const conversation = crypto.randomUUID();
    await api.sql`insert into task_links (company_id, task_id, object, target_id, position)
                  values (${companyId}, ${task.id}, 'conversation', ${conversation}, 5)`;

    const replaced = await api.call('updateTask', {
      key,
      params: { task: task.id },
      body: {
        links: [
          { object: 'customer', id: b },
          { object: 'deal', id: deal },
        ],
      },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('etag')).toBe('"2"');
    expect(replaced.body.data.links).toEqual([
      { object: 'customer', id: b },
      { object: 'deal', id: deal },
    ]);
    const kept = await api.sql`select object from task_links where task_id = ${task.id} and object = 'conversation'`;
    expect(kept).toHaveLength(1);
    expect((await commentsOf(api, key, task.id)).map((c) => c.body)).toEqual(['Links changed: 2 added, 1 removed']);

    // The same links in another order, one twice: nothing changes (no version, no line).
    const same = await api.call('updateTask', {
      key,
      params: { task: task.id },
      body: {
        links: [
          { object: 'deal', id: deal },
          { object: 'customer', id: b.toUpperCase() },
          { object: 'deal', id: deal },
        ],
      },
    });
    expect(same.headers.get('etag')).toBe('"2"');
    expect(same.body.data.updated_at).toBe(replaced.body.data.updated_at);
    expect(await commentsOf(api, key, task.id)).toHaveLength(1);

    const cleared = await api.call('updateTask', { key, params: { task: task.id }, body: { links: [] } });
    expect(cleared.body.data.links).toEqual([]);
    expect(await api.sql`select 1 from task_links where task_id = ${task.id} and object = 'conversation'`).toHaveLength(
      1,
    );
  });

  it('refuses a new link to another company’s record; the task is unchanged', async () => {
    const task = await taskOf(api, key);
    const foreign = await customerOf(api, other.key);
    const res = await api.call('updateTask', {
      key,
      params: { task: task.id },
      body: { title: 'Nieuw', links: [{ object: 'customer', id: foreign }] },
    });
    expect(res.status).toBe(422);
    expect(invalid(res.body)).toEqual([['/links/0/id', 'invalid_reference']]);
    const got = await api.call('getTask', { key, params: { task: task.id } });
    expect(got.body.data.title).toBe(task.title);
    expect(got.headers.get('etag')).toBe('"1"');
  });
});

describe('filter[customer_id]', () => {
  it('lists the tasks linked to the customer', async () => {
    const customer = await customerOf(api, key);
    const linked = await taskOf(api, key, { links: [{ object: 'customer', id: customer }] });
    await taskOf(api, key);
    const res = await api.call('listTasks', { key, query: { 'filter[customer_id]': customer } });
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([linked.id]);
  });
});
