// Every request's work runs in withTenant: one transaction as the non-owner role app_api with
// app.company_id set, so row-level security confines it to one company whatever its queries say.
// Single-statement reads by key may take readAsTenant instead: the same isolation in one round trip.
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Sql } from './client.ts';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function withTenant<T>(db: Db, companyId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true)`);
    return work(tx);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A parameter as an SQL literal, for the few kinds that cannot carry anything but their value. */
function literal(value: unknown): string {
  if (typeof value === 'string' && UUID.test(value)) return `'${value}'`;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  throw new Error('readAsTenant takes only uuid, integer and boolean parameters');
}

/** The statement with its parameters written in; refuses any text a parameter could break out of. */
export function inlineParameters(statement: { sql: string; params: unknown[] }): string {
  // Without single quotes, dollar quotes, comments or semicolons in the text, every $n is a placeholder.
  if (/['";]|--|\/\*|\$\D|\$$/.test(statement.sql.replace(/(?<!")"[a-z_][a-z0-9_]*"(?!")/g, ''))) {
    throw new Error('readAsTenant takes only plain statements');
  }
  const values = statement.params.map(literal);
  return statement.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1];
    if (value === undefined) throw new Error(`readAsTenant: no parameter $${n}`);
    return value;
  });
}

/**
 * One read statement as the tenant, in one round trip and one Query message: the settings withTenant makes
 * and the statement go to PostgreSQL as a simple-protocol query of two statements, which it runs as ONE
 * implicit transaction (the settings are local to it, and end with it). The settings run before the
 * statement is planned, so row-level security applies to it exactly as in withTenant; if they fail, the
 * statement does not run. No connection is reserved: such reads are pipelined on the pool like plain queries.
 *
 * The simple protocol has no parameters, so they are written into the text — only values that cannot carry
 * SQL (uuids, integers, booleans, strictly checked) into a statement without quotes, comments or semicolons;
 * anything else throws. Rows come back as the table's rows (drizzle's column mapping).
 */
export async function readAsTenant<T extends PgTable>(
  client: Sql,
  companyId: string,
  table: T,
  statement: { sql: string; params: unknown[] },
): Promise<T['$inferSelect'][]> {
  const text = inlineParameters(statement);
  const settings = `select set_config('role', 'app_api', true), set_config('app.company_id', ${literal(companyId)}, true)`;
  const results = (await client.unsafe(`${settings}; ${text}`)) as unknown as Record<string, unknown>[][];
  const rows = results[1];
  if (!Array.isArray(rows)) throw new Error('readAsTenant: unexpected result shape');
  const columns = Object.entries(getTableColumns(table));
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  });
}
