// The time of a change to an existing record: taken after its row lock, not at the start of the transaction
// (see migration 0017). A change that waited behind another one then writes a later updated_at, and events
// that list after the other's, as receivers comparing updated_at expect. Call it right after the lock.
// This clock (app_now(), now() in SQL) stays separate from the process's Clock (src/clock.ts) for a reason: row
// times are stamped by the one database every API node shares, inside the writing transaction and after its lock,
// so they order every node's changes; tests move them by moving the rows' times back, never by a clock.

import { type AnyColumn, and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { PreparedStatement } from './statements.ts';
import { type DriverRow, sendUntilCommit, type Tx, tableRows } from './tenant.ts';

export function takeChangeTimeAfterLock(tx: Tx): Promise<void> {
  // Sent right behind the lock, on the same connection: it runs after the lock was granted.
  return sendUntilCommit(tx, tx.execute(sql`select app_now_after_lock()`));
}

/**
 * For a change to a row it did not lock first (a customer touched by activity elsewhere, an endpoint the worker
 * disables): the change time, but never before the row's own. Such a change may have waited behind one that took
 * a later time after its lock; PostgreSQL's greatest() ignores a null column.
 */
/**
 * The condition that takes the change time in the statement that locks: over a FOR UPDATE subquery
 * (`select … from (select … for update) locked where changeTimeTaken`) it is evaluated above the lock, once the
 * rows are locked, so a write sent right behind the lock, unawaited, is stamped with it.
 */
const changeTimeTaken: SQL = sql`app_now_after_lock() is not null`;

export const notBefore = (column: AnyColumn): SQL => sql`greatest(${column}, app_now())`;

/** A tenant table keyed by (company_id, id), as every record's table is. */
type RecordTable = PgTable & { companyId: AnyColumn; id: AnyColumn };

/**
 * The one way a change locks what it changes: the rows of `table` that `where` selects, locked FOR UPDATE in id
 * order (two batches locking overlapping rows cannot deadlock), with the change time taken right after the lock in
 * the same statement (changeTimeTaken over the locked subquery, which `offset 0` keeps from being pushed into it,
 * where it would run before the lock). One statement, so reads sent behind it go in its
 * round trip, and nothing waits for the lock's answer before the change time is taken. Handed to the connection
 * now, ahead of whatever the caller sends next.
 */
export function lockRecords<T extends RecordTable>(
  tx: Tx,
  table: T,
  where: SQL | undefined,
): Promise<T['$inferSelect'][]> {
  return tx.execute<DriverRow>(lockStatement(table, where)).then((rows) => tableRows(table, rows));
}

const lockStatement = (table: RecordTable, where: SQL | undefined) => sql`
  select * from (select * from ${table} where ${where} order by ${table.id} offset 0 for update) locked
  where ${changeTimeTaken}`;

/** lockRecord's statement of each table, built once. */
const recordLocks = new WeakMap<RecordTable, PreparedStatement<{ companyId: string; id: string }>>();

/** One record by its key, locked as lockRecords locks (handed to the connection now). */
export function lockRecord<T extends RecordTable>(
  tx: Tx,
  table: T,
  companyId: string,
  id: string,
): Promise<T['$inferSelect'] | undefined> {
  let statement = recordLocks.get(table);
  if (!statement) {
    statement = new PreparedStatement((p) =>
      lockStatement(table, and(eq(table.companyId, p.companyId), eq(table.id, p.id))),
    );
    recordLocks.set(table, statement);
  }
  return statement.run(tx, { companyId, id }).then((rows) => tableRows(table, rows)[0]);
}
