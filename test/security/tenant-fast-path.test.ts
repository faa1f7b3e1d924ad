// readAsTenant, the one-statement read (src/db/tenant.ts): row-level security confines it exactly as
// withTenant does, its setting ends with its statement, and its sessions cannot read without a tenant.
import { randomUUID } from 'node:crypto';
import { sql as drizzleSql, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../src/db/schema/index.ts';
import { readAsTenant, tenantOf, withTenant } from '../../src/db/tenant.ts';
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
    const fast = await readCustomer(tenantOf(api.deps, a.companyId), customerOfA);
    const slow = await withTenant(api.db, a.companyId, (tx) => findCustomer(tx, a.companyId, customerOfA));
    expect(fast).toEqual(slow);
    expect(fast?.createdAt).toBeInstanceOf(Date);
  });
});

describe('readAsTenant', () => {
  const byId = (id: string) => api.db.select().from(customers).where(eq(customers.id, id)).toSQL();

  it('is confined by row-level security, not by its where-clause', async () => {
    // No company condition at all: only the policy keeps B's customer out.
    expect(await readAsTenant(api.deps.tenantSql, a.companyId, customers, byId(customerOfB))).toEqual([]);
    const all = await readAsTenant(api.deps.tenantSql, a.companyId, customers, api.db.select().from(customers).toSQL());
    expect(all.map((r) => r.companyId)).toEqual([a.companyId]);
    // The test's connection is the superuser, which would see B's row without the policy.
    expect(await api.sql`select id from customers where id = ${customerOfB}`).toHaveLength(1);
  });

  it('runs on sessions that are app_api, where nothing is readable or writable without a tenant', async () => {
    const tenantSql = api.deps.tenantSql;
    const [session] = await tenantSql`select current_user as role`;
    expect(session.role).toBe('app_api');
    expect(await tenantSql`select id from customers`).toEqual([]);
    await expect(
      tenantSql`insert into customers (company_id, id, email, name) values (${a.companyId}, ${randomUUID()}, 'x@example.nl', 'X')`,
    ).rejects.toThrow(/row-level security/);
  });

  it('leaves no tenant behind on the pool’s connections', async () => {
    const tenantSql = api.deps.tenantSql;
    await Promise.all(
      Array.from({ length: 40 }, () => readAsTenant(tenantSql, a.companyId, customers, byId(customerOfA))),
    );
    const after = await Promise.all(
      Array.from(
        { length: 40 },
        () => tenantSql`select coalesce(current_setting('app.company_id', true), '') as company,
          (select count(*)::int from customers) as visible`,
      ),
    );
    for (const [row] of after) expect(row).toEqual({ company: '', visible: 0 });
  });

  it('passes parameters as parameters: text is just a value, a broken tenant id fails closed', async () => {
    const byEmail = api.db
      .select()
      .from(customers)
      .where(drizzleSql`${customers.email} = ${"anna@example.nl' or true --"}`)
      .toSQL();
    expect(await readAsTenant(api.deps.tenantSql, a.companyId, customers, byEmail)).toEqual([]);
    const anna = api.db.select().from(customers).where(eq(customers.email, 'anna@example.nl')).toSQL();
    expect((await readAsTenant(api.deps.tenantSql, a.companyId, customers, anna)).map((r) => r.id)).toEqual([
      customerOfA,
    ]);
    await expect(
      readAsTenant(api.deps.tenantSql, `${a.companyId}' or true`, customers, byId(customerOfA)),
    ).rejects.toThrow();
  });
});

// withTenant hands the tenant setting to the connection without waiting for its answer: whatever the work's
// first statement is (a raw statement, a query builder, a savepoint), it runs after the setting.
describe('withTenant: the work runs after the tenant setting it did not wait for', () => {
  const settingOf = (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) =>
    tx.execute<{ company: string; role: string }>(
      drizzleSql`select current_setting('app.company_id', true) as company, current_user as role`,
    );

  it('a raw statement first', async () => {
    const [row] = await withTenant(api.db, a.companyId, (tx) => settingOf(tx));
    expect(row).toEqual({ company: a.companyId, role: 'app_api' });
  });

  it('a query builder first: row-level security already confines it', async () => {
    const rows = await withTenant(api.db, b.companyId, (tx) => tx.select({ id: customers.id }).from(customers));
    expect(rows).toEqual([{ id: customerOfB }]);
  });

  it('a savepoint first', async () => {
    const [row] = await withTenant(api.db, a.companyId, (tx) => tx.transaction((savepoint) => settingOf(savepoint)));
    expect(row).toEqual({ company: a.companyId, role: 'app_api' });
  });

  it('many at once over the pool, two companies interleaved: each sees its own', async () => {
    const companies = Array.from({ length: 40 }, (_, i) => (i % 2 ? a.companyId : b.companyId));
    const seen = await Promise.all(
      companies.map((companyId) =>
        withTenant(api.db, companyId, async (tx) => {
          const visible = await tx.select({ company: customers.companyId }).from(customers);
          return visible.map((r) => r.company);
        }),
      ),
    );
    expect(seen).toEqual(companies.map((companyId) => [companyId]));
  });
});
