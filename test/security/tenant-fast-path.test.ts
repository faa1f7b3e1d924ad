// readAsTenant, the one-round-trip read (src/db/tenant.ts): row-level security confines it exactly as
// withTenant does, its settings end with its statement, and nothing but checked uuids, integers and
// booleans is ever written into its SQL.
import { randomUUID } from 'node:crypto';
import { and, sql as drizzleSql, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../src/db/schema/index.ts';
import { inlineParameters, readAsTenant, withTenant } from '../../src/db/tenant.ts';
import { findCustomer, readCustomer } from '../../src/resources/customers/queries.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let a: { companyId: string; key: string };
let b: { companyId: string; key: string };
let customerOfA: string;
let customerOfB: string;

beforeAll(async () => {
  api = await setupApi();
  a = await api.tenant();
  b = await api.tenant();
  customerOfA = randomUUID();
  customerOfB = randomUUID();
  await api.sql`insert into customers (company_id, id, email, name) values
    (${a.companyId}, ${customerOfA}, 'anna@example.nl', 'Anna'), (${b.companyId}, ${customerOfB}, 'bob@example.nl', 'Bob')`;
});

describe('GET /customers/{id} on the one-round-trip read', () => {
  it('finds the own company’s customer, and the other company’s is 404', async () => {
    const own = await api.call('getCustomer', { key: a.key, params: { customer: customerOfA } });
    expect(own.status).toBe(200);
    expect(own.body.data.id).toBe(customerOfA);
    expect(own.headers.get('etag')).toBe('"1"');
    const other = await api.call('getCustomer', { key: a.key, params: { customer: customerOfB } });
    expect(other.status).toBe(404);
    const theirs = await api.call('getCustomer', { key: b.key, params: { customer: customerOfB } });
    expect(theirs.status).toBe(200);
  });

  it('returns the same row as a withTenant transaction', async () => {
    const fast = await readCustomer(api.deps, a.companyId, customerOfA);
    const slow = await withTenant(api.db, a.companyId, (tx) => findCustomer(tx, a.companyId, customerOfA));
    expect(fast).toEqual(slow);
    expect(fast?.createdAt).toBeInstanceOf(Date);
  });
});

describe('readAsTenant', () => {
  const byId = (id: string) => api.db.select().from(customers).where(eq(customers.id, id)).toSQL();

  it('is confined by row-level security, not by its where-clause', async () => {
    // No company condition at all: only the policy keeps B's customer out.
    expect(await readAsTenant(api.sql, a.companyId, customers, byId(customerOfB))).toEqual([]);
    const all = await readAsTenant(api.sql, a.companyId, customers, api.db.select().from(customers).toSQL());
    expect(all.map((r) => r.companyId)).toEqual([a.companyId]);
    // The test's connection is the superuser, which would see B's row without the settings.
    expect(await api.sql`select id from customers where id = ${customerOfB}`).toHaveLength(1);
  });

  it('leaves no role or tenant behind on the pool’s connections', async () => {
    await Promise.all(
      Array.from({ length: 40 }, () => readAsTenant(api.sql, a.companyId, customers, byId(customerOfA))),
    );
    const after = await Promise.all(
      Array.from(
        { length: 40 },
        () => api.sql`select current_user as role, coalesce(current_setting('app.company_id', true), '') as company`,
      ),
    );
    for (const [row] of after) {
      expect(row.role).not.toBe('app_api');
      expect(row.company).toBe('');
    }
  });

  it('refuses parameters and statements that could carry SQL', async () => {
    const plain = (params: unknown[]) => ({ sql: 'select "id" from "customers" where "id" = $1', params });
    expect(inlineParameters(plain([customerOfA]))).toBe(`select "id" from "customers" where "id" = '${customerOfA}'`);
    expect(inlineParameters(plain([7]))).toBe('select "id" from "customers" where "id" = 7');
    for (const bad of ["' or true --", `${customerOfA}' or '1'='1`, '1; drop table customers', 1.5, null, {}]) {
      expect(() => inlineParameters(plain([bad]))).toThrow();
    }
    for (const text of [
      "select 'x' where $1",
      'select 1 where $1; select 2',
      'select 1 -- $1',
      'select 1 /* $1 */',
      'select $$x$$ where $1',
      'select "we""ird" where $1',
    ]) {
      expect(() => inlineParameters({ sql: text, params: [customerOfA] })).toThrow();
    }
    expect(() => inlineParameters({ sql: 'select 1 where $2', params: [customerOfA] })).toThrow();
    // The tenant itself is checked the same way.
    await expect(readAsTenant(api.sql, `${a.companyId}' or true`, customers, byId(customerOfA))).rejects.toThrow();
    // A statement built with a text parameter cannot take this path.
    const byEmail = api.db
      .select()
      .from(customers)
      .where(and(eq(customers.companyId, a.companyId), drizzleSql`${customers.email} = ${'anna@example.nl'}`))
      .toSQL();
    await expect(readAsTenant(api.sql, a.companyId, customers, byEmail)).rejects.toThrow(/only uuid/);
  });
});
