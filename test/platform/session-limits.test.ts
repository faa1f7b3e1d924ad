// The service's sessions end a statement that runs too long and a transaction left open (src/db/client.ts), so
// that no connection of a pool, or the locks it took, is held for ever.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, createTenantPool, SESSION_LIMITS } from '../../src/db/client.ts';
import { freshDatabase } from '../harness/db.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;

beforeAll(async () => {
  database = await freshDatabase();
});

afterAll(async () => {
  await database?.drop();
});

it('both pools of the service carry the limits by default', async () => {
  const { sql } = createDb(database.url, 1);
  const tenant = createTenantPool(database.url, 1);
  try {
    for (const pool of [sql, tenant]) {
      const [statement] = await pool`select current_setting('statement_timeout') as value`;
      const [idle] = await pool`select current_setting('idle_in_transaction_session_timeout') as value`;
      expect([statement.value, idle.value]).toEqual(['30s', '1min']);
    }
    expect(SESSION_LIMITS).toEqual({ statementTimeoutMs: 30_000, idleInTransactionMs: 60_000 });
  } finally {
    await sql.end();
    await tenant.end();
  }
});

it('a statement over the limit fails (57014) and its connection serves the next statement', async () => {
  const { sql } = createDb(database.url, 1, { statementTimeoutMs: 200, idleInTransactionMs: 60_000 });
  try {
    const started = Date.now();
    await expect(sql`select pg_sleep(5)`).rejects.toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(4_000);
    const [row] = await sql`select 1 as one`;
    expect(row.one).toBe(1);
  } finally {
    await sql.end();
  }
});

it('a transaction left idle over the limit is ended by the server, its locks released', async () => {
  const { sql } = createDb(database.url, 2, { statementTimeoutMs: 30_000, idleInTransactionMs: 300 });
  try {
    await sql`create table held (id int primary key)`;
    await sql`insert into held values (1)`;
    const stuck = sql.begin(async (tx) => {
      await tx`select * from held where id = 1 for update`;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await tx`select 1`;
    });
    await expect(stuck).rejects.toThrow();
    // The row lock went with the session: another session takes it at once.
    const [row] = await sql`select id from held where id = 1 for update nowait`;
    expect(row.id).toBe(1);
  } finally {
    await sql.end();
  }
});
