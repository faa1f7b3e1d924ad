// A record read with its related values (an invoice's payments, a conversation's contact, a work order's photos)
// in one statement: the values are correlated subqueries in the record's select list, so what an answer shows
// beside its row costs no further round trip. Lists (http/pagination.ts) read their pages the same way.
import {
  type AnyColumn,
  and,
  Column,
  eq,
  fillPlaceholders,
  getTableColumns,
  type InferColumnsDataTypes,
  is,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type PgColumn, type PgTable, QueryBuilder } from 'drizzle-orm/pg-core';
import { type DriverRow, type Tenant, type Tx, tableRows } from './tenant.ts';

/**
 * A value read with each row of a page, in the page's own statement (a correlated subquery in its select list,
 * run only for the rows of the page): what a list shows beside its rows (an invoice's payments, a
 * conversation's contact) costs no further round trip. `decode` turns the driver's value into the row's.
 */
export type Related<V> = { sql: SQL; decode: (value: unknown) => V };
export type RelatedValues = Record<string, Related<unknown>>;
/** The related values read beside a row, under their names. */
export type RelatedOf<R extends RelatedValues> = { [K in keyof R]: ReturnType<R[K]['decode']> };
/** A row with its related values. */
export type WithRelated<Row, R extends RelatedValues> = Row & RelatedOf<R>;

/**
 * Column types a related row's JSON carries as they are. Every other column goes as its text, which drizzle maps
 * exactly as it maps the driver's text (a numeric as JSON would be a float: 12.50 would come back as 12.5).
 */
const KEPT_IN_JSON = new Set(['PgBoolean', 'PgJson', 'PgJsonb']);

/**
 * A related row's fields: columns, or a group of columns read as one object (a joined table's row, as drizzle's
 * select nests it).
 */
type RelatedFields = Record<string, Column | Record<string, Column>>;
type RelatedRow<F extends RelatedFields> = {
  [K in keyof F]: F[K] extends Column
    ? InferColumnsDataTypes<{ value: F[K] }>['value']
    : F[K] extends Record<string, Column>
      ? InferColumnsDataTypes<F[K]>
      : never;
};

/** `fields` of one row as a JSON array, and its decoding back into the row drizzle would have read. */
export function jsonRow<F extends RelatedFields>(fields: F): { sql: SQL; decode: (value: unknown) => RelatedRow<F> } {
  const entries = Object.entries(fields).map(([key, field]) => {
    if (is(field, Column)) {
      const value = KEPT_IN_JSON.has(field.columnType) ? sql`${field}` : sql`${field}::text`;
      const decode = (item: unknown) => (item === null || item === undefined ? null : field.mapFromDriverValue(item));
      return { key, sql: value, decode };
    }
    return { key, ...jsonRow(field) };
  });
  return {
    sql: sql`json_build_array(${sql.join(
      entries.map((entry) => entry.sql),
      sql`, `,
    )})`,
    decode: (value) => {
      const array = value as unknown[];
      const row: Record<string, unknown> = {};
      entries.forEach((entry, i) => {
        row[entry.key] = entry.decode(array[i]);
      });
      return row as RelatedRow<F>;
    },
  };
}

/**
 * The rows of table `from` that meet `where` (correlated with the page's row), in `orderBy`,
 * as `fields`.
 */
export function relatedRows<F extends RelatedFields>(
  fields: F,
  from: PgTable,
  where: SQL | undefined,
  orderBy: SQL[],
): Related<RelatedRow<F>[]> {
  const row = jsonRow(fields);
  return {
    sql: sql`(select coalesce(json_agg(${row.sql} order by ${sql.join(orderBy, sql`, `)}), '[]'::json) from ${from} where ${where})`,
    decode: (value) => (value as unknown[]).map(row.decode),
  };
}

/** The one row of `from` that meets `where` (correlated with the page's row), as `fields`; undefined when none. */
export function relatedRow<F extends RelatedFields>(
  fields: F,
  from: PgTable,
  where: SQL | undefined,
): Related<RelatedRow<F> | undefined> {
  const row = jsonRow(fields);
  return {
    sql: sql`(select ${row.sql} from ${from} where ${where})`,
    decode: (value) => (value === null || value === undefined ? undefined : row.decode(value)),
  };
}

/** Whether a row of `from` meets `where` (correlated with the page's row). */
export function relatedExists(from: PgTable, where: SQL | undefined): Related<boolean> {
  return { sql: sql`exists (select 1 from ${from} where ${where})`, decode: (value) => value === true };
}

export function relatedColumns(table: PgTable, related: RelatedValues): Record<string, SQL.Aliased> {
  const names = new Set(Object.values(getTableColumns(table)).map((column) => column.name));
  const columns: Record<string, SQL.Aliased> = {};
  for (const [name, value] of Object.entries(related)) {
    // Driver rows are keyed by column name: a related value named like a column would hide it.
    if (names.has(name)) throw new Error(`related value ${name} has the name of a column of its table`);
    columns[name] = value.sql.as(name);
  }
  return columns;
}

/** The decoded related values of a driver row. */
function decodeRelated<R extends RelatedValues>(raw: DriverRow | undefined, related: R): RelatedOf<R> {
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(related)) values[name] = value.decode(raw?.[name]);
  return values as RelatedOf<R>;
}

/** The driver's rows as the table's rows, each with its related values. */
export function withRelated<T extends PgTable, R extends RelatedValues>(
  table: T,
  raws: DriverRow[],
  related: R,
): WithRelated<T['$inferSelect'], R>[] {
  return tableRows(table, raws).map((row, i) => Object.assign(row, decodeRelated(raws[i], related)));
}

/** The one statement of a record with its related values, whichever way it is run (selectRecord, recordReader). */
function recordStatement(table: PgTable, conditions: (SQL | undefined)[], related: RelatedValues) {
  return new QueryBuilder()
    .select({ ...getTableColumns(table), ...relatedColumns(table, related) })
    .from(table)
    .where(and(...conditions));
}

/**
 * The one row of `table` that meets `conditions` (a key), with its `related` values (the list's definitions), in
 * one statement of the caller's transaction. Undefined when no row meets them.
 */
export async function selectRecord<T extends PgTable, R extends RelatedValues = Record<never, never>>(
  tx: Tx,
  table: T,
  conditions: (SQL | undefined)[],
  related: R = {} as R,
): Promise<WithRelated<T['$inferSelect'], R> | undefined> {
  const raws = await tx.execute<DriverRow>(recordStatement(table, conditions, related));
  return withRelated(table, [...raws], related)[0];
}

/** The placeholders of a record's key in recordReader's conditions, filled with the tenant's company and the id. */
export const RECORD_KEY = { companyId: sql.placeholder('companyId'), id: sql.placeholder('id') };

/** The usual key of a record: the company's row with the id (RECORD_KEY). */
export const byRecordKey = (table: { companyId: AnyColumn; id: AnyColumn }): SQL[] => [
  eq(table.companyId, RECORD_KEY.companyId),
  eq(table.id, RECORD_KEY.id),
];

/**
 * The record of `table` that meets `conditions` (a key, in RECORD_KEY's placeholders) with its `related` values,
 * read outside a transaction: one prepared statement as the tenant in one round trip (readAsTenant), as readPage
 * reads a page — a record read alone needs no transaction however many related rows it shows. The statement's
 * text is built once, on the first read (drizzle takes most of a millisecond to build one with related values);
 * each read only fills in its key. Undefined when no row meets them.
 */
export function recordReader<T extends PgTable, R extends RelatedValues = Record<never, never>>(
  table: T,
  conditions: SQL[],
  related: R = {} as R,
): (tenant: Tenant, id: string) => Promise<WithRelated<T['$inferSelect'], R> | undefined> {
  let statement: { sql: string; params: unknown[] } | undefined;
  return async (tenant, id) => {
    statement ??= recordStatement(table, conditions, related).toSQL();
    const params = fillPlaceholders(statement.params, { companyId: tenant.companyId, id });
    const raws = await tenant.readRows({ sql: statement.sql, params });
    return withRelated(table, raws, related)[0];
  };
}

/**
 * The related values of rows already in hand (a record just written or read alone), by their `key`: the same
 * definitions as the list's, one statement in the caller's transaction.
 */
export async function selectRelated<T extends PgTable, R extends RelatedValues>(
  tx: Tx,
  table: T,
  key: PgColumn,
  conditions: (SQL | undefined)[],
  related: R,
): Promise<Map<unknown, RelatedOf<R>>> {
  const statement = new QueryBuilder()
    .select({ key, ...relatedColumns(table, related) })
    .from(table as PgTable)
    .where(and(...conditions));
  const raws = await tx.execute<DriverRow>(statement);
  return new Map(raws.map((raw) => [key.mapFromDriverValue(raw[key.name]), decodeRelated(raw, related)]));
}
