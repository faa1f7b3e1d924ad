// GET /users: the company's users ordered by id, ids as strings, filter[status], cursors both ways, and
// never another company's users.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

type UserSeed = { name: string; email: string; role: string | null; is_owner: boolean; status: 'active' | 'inactive' };

let api: TestApi;
let key: string;
let otherKey: string;
let ours: (UserSeed & { id: string; created_at: string })[];
let theirs: string[];

async function insertUsers(companyId: string, seeds: UserSeed[]) {
  const out = [];
  for (const u of seeds) {
    const [row] = await api.sql`
      insert into users (company_id, name, email, role, is_owner, status)
      values (${companyId}, ${u.name}, ${u.email}, ${u.role}, ${u.is_owner}, ${u.status})
      returning id::text as id, created_at`;
    out.push({ ...u, id: row.id as string, created_at: new Date(row.created_at).toISOString() });
  }
  return out;
}

beforeAll(async () => {
  api = await setupApi();
  const a = await api.tenant();
  const b = await api.tenant();
  key = a.key;
  otherKey = b.key;
  // Interleaved, so the two companies' ids alternate.
  const mine: UserSeed[] = [
    { name: 'Sanne de Vries', email: 'sanne@vandijk.nl', role: 'administrator', is_owner: true, status: 'active' },
    { name: 'Mohammed Bakker', email: 'mohammed@vandijk.nl', role: 'employee', is_owner: false, status: 'active' },
    { name: 'Oud Medewerker', email: 'oud@vandijk.nl', role: null, is_owner: false, status: 'inactive' },
    { name: 'Lisa Manager', email: 'lisa@vandijk.nl', role: 'manager', is_owner: false, status: 'active' },
    { name: 'Ex Stagiair', email: 'stagiair@vandijk.nl', role: 'employee', is_owner: false, status: 'inactive' },
  ];
  ours = [];
  theirs = [];
  for (const [i, seed] of mine.entries()) {
    ours.push(...(await insertUsers(a.companyId, [seed])));
    const [other] = await insertUsers(b.companyId, [
      // The same email in another company is another user.
      { ...seed, name: `Ander ${i}`, email: i === 0 ? seed.email : `ander${i}@elders.nl` },
    ]);
    theirs.push(other.id);
  }
});

const shape = (u: (typeof ours)[number]) => ({
  object: 'user',
  id: u.id,
  name: u.name,
  email: u.email,
  role: u.role,
  is_owner: u.is_owner,
  status: u.status,
  created_at: u.created_at,
});

describe('listUsers', () => {
  it("lists the company's users ordered by id with every field", async () => {
    const res = await api.call('listUsers', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(ours.map(shape));
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
    for (const user of res.body.data) {
      expect(user.id).toMatch(/^[1-9][0-9]*$/);
      expect(user.created_at).toMatch(ISO);
    }
    const ids = res.body.data.map((u: { id: string }) => Number(u.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
  });

  it("never lists another company's users", async () => {
    const mine = (await api.call('listUsers', { key })).body.data.map((u: { id: string }) => u.id);
    const other = (await api.call('listUsers', { key: otherKey })).body.data.map((u: { id: string }) => u.id);
    expect(other).toEqual(theirs);
    expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
  });

  it('filters on status', async () => {
    const inactive = await api.call('listUsers', { key, query: { 'filter[status]': 'inactive' } });
    expect(inactive.status).toBe(200);
    expect(inactive.body.data).toEqual(ours.filter((u) => u.status === 'inactive').map(shape));
    const active = await api.call('listUsers', { key, query: { 'filter[status]': 'active' } });
    expect(active.body.data.map((u: { id: string }) => u.id)).toEqual(
      ours.filter((u) => u.status === 'active').map((u) => u.id),
    );
  });

  it('pages forwards and backwards with cursors', async () => {
    const ids = ours.map((u) => u.id);
    const page = async (cursor?: string) => {
      const res = await api.call('listUsers', { key, query: { limit: 2, cursor } });
      expect(res.status).toBe(200);
      return { ids: res.body.data.map((u: { id: string }) => u.id), meta: res.body.meta };
    };
    const p1 = await page();
    expect(p1.ids).toEqual(ids.slice(0, 2));
    expect(p1.meta).toEqual({ limit: 2, next_cursor: expect.any(String), prev_cursor: null });
    const p2 = await page(p1.meta.next_cursor);
    expect(p2.ids).toEqual(ids.slice(2, 4));
    expect(p2.meta.prev_cursor).toEqual(expect.any(String));
    const p3 = await page(p2.meta.next_cursor);
    expect(p3.ids).toEqual(ids.slice(4));
    expect(p3.meta.next_cursor).toBeNull();
    const back2 = await page(p3.meta.prev_cursor);
    expect(back2.ids).toEqual(p2.ids);
    const back1 = await page(back2.meta.prev_cursor);
    expect(back1.ids).toEqual(p1.ids);
    expect(back1.meta.prev_cursor).toBeNull();
  });

  it('pages within a filter', async () => {
    const inactive = ours.filter((u) => u.status === 'inactive').map((u) => u.id);
    const p1 = await api.call('listUsers', { key, query: { limit: 1, 'filter[status]': 'inactive' } });
    expect(p1.body.data.map((u: { id: string }) => u.id)).toEqual([inactive[0]]);
    const p2 = await api.call('listUsers', {
      key,
      query: { limit: 1, 'filter[status]': 'inactive', cursor: p1.body.meta.next_cursor },
    });
    expect(p2.body.data.map((u: { id: string }) => u.id)).toEqual([inactive[1]]);
    expect(p2.body.meta.next_cursor).toBeNull();
  });

  it('answers an empty page for a company without users', async () => {
    const { key: lonely } = await api.tenant();
    const res = await api.call('listUsers', { key: lonely });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { limit: 50, next_cursor: null, prev_cursor: null } });
  });
});
