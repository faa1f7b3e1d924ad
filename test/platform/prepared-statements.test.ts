// Statements built once (src/db/statements.ts): a statement kept for one shape of a request is never used for
// another. A PATCH's statement depends on the fields sent and on the versions an If-Match names; each shape,
// sent after the others, must still write exactly its own fields, and a creation without a phone must not take
// the statement of one with a phone; a list page's statement depends on its filters, sort and cursor's direction.
import { beforeAll, describe, expect, it } from 'vitest';
import { PreparedShapes } from '../../src/db/statements.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
});

let n = 0;
const create = async (body: Record<string, unknown>) => {
  const res = await api.call('createCustomer', { key, body: { email: `shape${n++}@example.nl`, ...body } });
  expect(res.status).toBe(201);
  return res.body.data;
};

describe('statements built once, one per shape', () => {
  it('creations with and without a phone each write their own columns', async () => {
    const withPhone = await create({ name: 'Met', phone: '06 12345678' });
    const without = await create({ name: 'Zonder', city: 'Utrecht' });
    const again = await create({ name: 'Weer met', phone: '06 87654321' });
    expect([withPhone.phone, without.phone, again.phone]).toEqual(['06 12345678', null, '06 87654321']);
    expect([withPhone.city, without.city, again.city]).toEqual([null, 'Utrecht', null]);
    const [row] = await api.sql`select phone_e164 from customers where id = ${again.id}`;
    expect(row.phone_e164).toBe('+31687654321');
  });

  it('PATCHes of different fields and If-Match versions, one after the other, each change what they send', async () => {
    const customer = await create({ name: 'Eerst' });
    const patch = async (body: Record<string, unknown>, ifMatch?: string) => {
      const res = await api.call('updateCustomer', {
        key,
        params: { customer: customer.id },
        headers: ifMatch ? { 'if-match': ifMatch } : {},
        body,
      });
      return res;
    };
    expect((await patch({ name: 'Tweede' })).body.data).toMatchObject({ name: 'Tweede', city: null });
    expect((await patch({ city: 'Delft' }, '"2"')).body.data).toMatchObject({ name: 'Tweede', city: 'Delft' });
    expect((await patch({ name: 'Derde', city: 'Gouda' }, '"1", "3"')).body.data).toMatchObject({
      name: 'Derde',
      city: 'Gouda',
    });
    // The first shape again, now with a version that is not the customer's: 412, nothing written.
    const stale = await patch({ name: 'Vierde' }, '"2"');
    expect(stale.status).toBe(412);
    const unchanged = await patch({ city: 'Gouda' });
    expect(unchanged.headers.get('etag')).toBe('"4"');
    expect(unchanged.body.data).toMatchObject({ name: 'Derde', city: 'Gouda' });
  });

  it('list pages with other filters, sorts and cursors after one another each answer their own rows', async () => {
    const lead = await create({ name: 'Lijst lead' });
    const list = async (query: Record<string, string | number | undefined>) => {
      const res = await api.call('listCustomers', { key, query });
      expect(res.status).toBe(200);
      return res.body;
    };
    const all = await list({ limit: 2 });
    const byEmail = await list({ 'filter[email]': lead.email.toUpperCase() });
    expect(byEmail.data.map((c: { id: string }) => c.id)).toEqual([lead.id]);
    const customers = await list({ 'filter[status]': 'customer' });
    expect(customers.data).toEqual([]);
    const next = await list({ limit: 2, cursor: all.meta.next_cursor });
    const back = await list({ limit: 2, cursor: next.meta.prev_cursor });
    expect(back.data).toEqual(all.data);
    const oldestFirst = await list({ limit: 2, sort: 'created_at' });
    expect(oldestFirst.data[0].id).not.toBe(all.data[0].id);
  });

  it('keeps at most its bound of shapes, and still builds the ones past it', () => {
    const shapes = new PreparedShapes<{ v: number }>(2);
    const built: string[] = [];
    const statementOf = (shape: string) =>
      shapes.of(shape, () => {
        built.push(shape);
        return { toSQL: () => ({ sql: `select ${shape}`, params: [] }) };
      });
    for (const shape of ['a', 'b', 'c', 'a', 'b', 'c'])
      expect(statementOf(shape).bind({ v: 1 }).sql).toBe(`select ${shape}`);
    expect(built).toEqual(['a', 'b', 'c', 'c']);
  });
});
