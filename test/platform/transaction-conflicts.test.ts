// A transaction PostgreSQL aborts to break a deadlock runs again (src/db/transient.ts) instead of failing the
// request or the job. Deterministic: connection Z holds row B, the transaction under test locks A and waits for
// B, then Z asks for A. Z's deadlock_timeout is long, so the transaction under test is the one that finds the
// cycle and is aborted (40P01); Z then gets A and commits, and the second run goes through.
import { sql as drizzleSql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { withTenant } from '../../src/db/tenant.ts';
import { tenantStatement } from '../../src/db/tenant-statement.ts';
import { isTransientConflict, TRANSACTION_RUNS } from '../../src/db/transient.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { until } from '../harness/async.ts';
import { waitsForLock } from '../harness/locks.ts';

let api: TestApi;
let companyId: string;
let a: string;
let b: string;
beforeAll(async () => {
  api = await setupApi();
  let key: string;
  ({ key, companyId } = await api.tenant());
  const created = await Promise.all(
    ['a@example.nl', 'b@example.nl'].map((email) => api.call('createCustomer', { key, body: { email } })),
  );
  // A before B in the ids' order (uuids compare as bytes, as their lowercase hex text sorts in JavaScript), the order `order by id` locks in.
  [a, b] = created.map((res) => res.body.data.id as string).sort();
});

/**
 * Runs `transaction` (which locks A, then B) while Z holds B; once it waits for B, Z asks for A, closing the
 * cycle. Answers what the transaction answered, and Z's outcome.
 */
async function inDeadlockWithZ<T>(transaction: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  const z = await api.sql.reserve();
  try {
    await z`begin`;
    // Z never looks for the cycle first: the transaction under test is the victim.
    await z`set local deadlock_timeout = '20s'`;
    await z`select 1 from customers where id = ${b} for update`;
    const pending = Promise.allSettled([transaction()]);
    await until(() => waitsForLock(api.sql, '%for update%'), 'the transaction waits for B', 5000);
    // Z waits for A until PostgreSQL aborts the other side (deadlock_timeout, 1 s by default).
    await z`select 1 from customers where id = ${a} for update`;
    await z`commit`;
    const [settled] = await pending;
    return settled as PromiseSettledResult<T>;
  } finally {
    await z`rollback`.catch(() => {});
    z.release();
  }
}

it('withTenant runs a transaction aborted for a deadlock again, and answers its result', async () => {
  let runs = 0;
  const settled = await inDeadlockWithZ(() =>
    withTenant(api.db, companyId, async (tx) => {
      runs++;
      await tx.execute(drizzleSql`select 1 from customers where id = ${a} for update`);
      await tx.execute(drizzleSql`select 1 from customers where id = ${b} for update`);
      return 'done';
    }),
  );
  expect(settled).toEqual({ status: 'fulfilled', value: 'done' });
  expect(runs).toBe(2);
});

it('tenantStatement (the worker pipelined statements) makes its statement again after a deadlock', async () => {
  let runs = 0;
  const settled = await inDeadlockWithZ(() =>
    tenantStatement<{ id: string }>(api.db, companyId, (sql) => {
      runs++;
      // Locks A, then B.
      return sql`select id from customers where id = any(${[a, b]}::uuid[]) order by id for update`;
    }),
  );
  expect(settled.status).toBe('fulfilled');
  expect(runs).toBe(2);
});

it('gives up after TRANSACTION_RUNS runs, answering the conflict', async () => {
  let runs = 0;
  const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
  const failed = withTenant(api.db, companyId, async () => {
    runs++;
    throw new Error('query failed', { cause: deadlock });
  });
  await expect(failed).rejects.toSatisfy(isTransientConflict);
  expect(runs).toBe(TRANSACTION_RUNS);
});

it('runs a transaction that failed for any other reason once', async () => {
  let runs = 0;
  const failed = withTenant(api.db, companyId, async (tx) => {
    runs++;
    await tx.execute(drizzleSql`select 1 / 0`);
  });
  await expect(failed).rejects.toThrow();
  expect(runs).toBe(1);
});

it('an idempotent creation aborted for a deadlock runs again: 201 once, stored once, replayed the same', async () => {
  const { key, companyId: company } = await api.tenant();
  const idem = crypto.randomUUID();
  const email = `${crypto.randomUUID()}@example.nl`;
  const z = await api.sql.reserve();
  try {
    await z`begin`;
    await z`set local deadlock_timeout = '20s'`;
    // Z takes the email first: the creation's insert waits for Z ...
    await z`insert into customers (company_id, id, email) values (${company}, gen_random_uuid(), ${email})`;
    const pending = api.call('createCustomer', { key, headers: { 'idempotency-key': idem }, body: { email } });
    await until(() => waitsForLock(api.sql, '%insert into "customers"%'), 'the creation waits for Z', 5000);
    // ... and Z then waits for the creation's lock on its Idempotency-Key: PostgreSQL aborts the creation.
    await z`select pg_advisory_xact_lock(hashtextextended(${`${company}:${idem}`}, 7))`;
    await z`rollback`;
    const created = await pending;
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const replay = await api.call('createCustomer', { key, headers: { 'idempotency-key': idem }, body: { email } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created.body);
    const [{ n }] =
      await api.sql`select count(*)::int as n from customers where company_id = ${company} and email = ${email}`;
    expect(n).toBe(1);
  } finally {
    await z`rollback`.catch(() => {});
    z.release();
  }
});
