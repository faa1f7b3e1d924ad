// Keyset pagination: a cursor is base64url JSON of {sort, last values, direction}. It belongs to one sort
// order; `limit + 1` rows tell whether another page exists; `prev_cursor` pages backwards. A page's rows are read
// with their related values (a record's lines, links, contacts) in the same statement (db/record-reads.ts).
import { type AnyColumn, and, getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type PgTable, QueryBuilder } from 'drizzle-orm/pg-core';
import { type RelatedValues, relatedColumns, type WithRelated, withRelated } from '../db/record-reads.ts';
import { PreparedShapes, type Slots } from '../db/statements.ts';
import type { DriverRow, Tenant, Tx } from '../db/tenant.ts';
import type { Message } from './message-catalogue.ts';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

type Cursor = { s: string; v: [string | number, string]; d: 'n' | 'p' };

export type SortColumns = Record<string, AnyColumn>;

export type PageRequest = { limit: number; cursor?: string; sort: string };
export type PageMeta = { limit: number; next_cursor: string | null; prev_cursor: string | null };

const encode = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decode(text: string, sort: string): Cursor {
  let cursor: Cursor;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw cursorProblem(message('cursor.invalid'));
  }
  const valid =
    cursor &&
    typeof cursor.s === 'string' &&
    Array.isArray(cursor.v) &&
    cursor.v.length === 2 &&
    (cursor.d === 'n' || cursor.d === 'p');
  if (!valid) throw cursorProblem(message('cursor.invalid'));
  if (cursor.s !== sort) throw cursorProblem(message('cursor.other_sort', { sort: cursor.s }));
  return cursor;
}

const cursorProblem = (detail: Message) =>
  new ApiProblem('validation_failed', detail, {
    errors: [{ pointer: null, parameter: 'cursor', code: 'invalid_cursor', detail }],
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The largest value of each integer column type a cursor may carry. */
const INTEGER_LIMITS: Record<string, number> = { PgInteger: 2147483647, PgBigInt53: Number.MAX_SAFE_INTEGER };

/**
 * The years a cursor time may fall in (UTC): those PostgreSQL's timestamptz and `toISOString` agree on. A
 * JavaScript date of year 0 or before, or after 9999, is written as `0000-…`, `-000001-…` or `+010000-…`,
 * which PostgreSQL refuses.
 */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** A cursor value as its column takes it; a value the column cannot hold makes the cursor damaged (422, not 500). */
function columnValue(value: unknown, column: AnyColumn): unknown {
  const damaged = () => cursorProblem(message('cursor.invalid'));
  if (column.columnType === 'PgTimestamp') {
    // Cursors carry times as the ISO strings pageOf wrote; a number would be read as a year or as nothing.
    if (typeof value !== 'string') throw damaged();
    const date = new Date(value);
    const year = date.getUTCFullYear();
    if (Number.isNaN(date.getTime()) || year < FIRST_YEAR || year > LAST_YEAR) throw damaged();
    return date;
  }
  const limit = INTEGER_LIMITS[column.columnType];
  if (limit !== undefined) {
    // Integer ids travel as strings, positions as numbers: either, as long as it is a whole number in range.
    if (typeof value !== 'string' && typeof value !== 'number') throw damaged();
    const n = Number(value);
    if (!/^-?\d{1,16}$/.test(String(value)) || Math.abs(n) > limit) throw damaged();
    return n;
  }
  // Every other column (uuid, text ids) takes a string; PostgreSQL text cannot hold U+0000.
  if (typeof value !== 'string' || value.includes('\u0000')) throw damaged();
  if (column.columnType === 'PgUUID' && !UUID.test(value)) throw damaged();
  return value;
}

/**
 * The where-clause and order for one page of `sort` (`field` or `-field`), ties broken by `id`. With `slots`, the
 * cursor's values are placeholders in the where-clause (a statement built once) and come back as `cursorValues`.
 */
export function keyset(
  page: PageRequest,
  columns: SortColumns,
  id: AnyColumn,
  slots?: { value: Placeholder; id: Placeholder },
) {
  const descending = page.sort.startsWith('-');
  const column = columns[page.sort.replace(/^-/, '')];
  const cursor = page.cursor ? decode(page.cursor, page.sort) : undefined;
  const backwards = cursor?.d === 'p';
  // Walking backwards is walking forwards in the opposite order, then reversing the rows.
  const ascending = descending === backwards;
  let where: SQL | undefined;
  const cursorValues = cursor && { value: columnValue(cursor.v[0], column), id: columnValue(cursor.v[1], id) };
  if (cursorValues) {
    // Bound through the columns (sql.param), so each value is encoded as its column expects: the driver
    // passes timestamps through untouched and would fail on a raw Date.
    const value = sql.param(slots ? slots.value : cursorValues.value, column);
    const last = sql.param(slots ? slots.id : cursorValues.id, id);
    where = ascending ? sql`(${column}, ${id}) > (${value}, ${last})` : sql`(${column}, ${id}) < (${value}, ${last})`;
  }
  const orderBy = ascending ? [sql`${column} asc`, sql`${id} asc`] : [sql`${column} desc`, sql`${id} desc`];
  return {
    where,
    orderBy,
    take: page.limit + 1,
    backwards,
    hasCursor: cursor !== undefined,
    cursorKeys: [propertyOf(column), propertyOf(id)] as const,
    cursorValues,
  };
}

/** The row property drizzle gives `column` (`createdAt` for created_at). */
function propertyOf(column: AnyColumn): string {
  const found = Object.entries(getTableColumns(column.table)).find(([, c]) => c === column);
  if (!found) throw new Error(`column ${column.name} is not a column of its table`);
  return found[0];
}

/** A row's value as a cursor carries it: times as ISO strings, numbers as they are, ids as strings. */
function cursorValue(value: unknown): string | number {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'number' ? value : String(value);
}

type Order = { sorts: SortColumns; id: AnyColumn };
type Plan = ReturnType<typeof keyset>;

/** The one statement of a page, whichever way it is run (selectPage, readPage). */
function pageStatement(
  table: PgTable,
  plan: Plan,
  conditions: (SQL | undefined)[],
  related: RelatedValues,
  take: number | Placeholder = plan.take,
) {
  return new QueryBuilder()
    .select({ ...getTableColumns(table), ...relatedColumns(table, related) })
    .from(table)
    .where(and(...conditions, plan.where))
    .orderBy(...plan.orderBy)
    .limit(take);
}

/** A list's conditions for a page statement built once: their values, and the conditions over their placeholders. */
export type PreparedConditions = {
  values: object;
  /** Only on the placeholders of `values`' keys: the statement is kept per set of keys (and sort and direction). */
  conditions: (p: Slots<Record<string, unknown>>) => (SQL | undefined)[];
};

/**
 * readPage for a list read often: its page statement built once per sort, direction and set of filters
 * (db/statements.ts), the request's values filled in. The same statement and rows as readPage.
 */
export function pageReader<T extends PgTable, R extends RelatedValues = Record<never, never>>(
  table: T,
  order: Order,
  related: R = {} as R,
) {
  const shapes = new PreparedShapes<Record<string, unknown>>();
  const slots = { value: sql.placeholder('cursorValue'), id: sql.placeholder('cursorId') };
  return async (
    tenant: Tenant,
    page: PageRequest,
    filter: PreparedConditions,
  ): Promise<{ data: WithRelated<T['$inferSelect'], R>[]; meta: PageMeta }> => {
    const plan = keyset(page, order.sorts, order.id, slots);
    const direction = plan.hasCursor ? (plan.backwards ? 'p' : 'n') : '-';
    const shape = `${page.sort}|${direction}|${Object.keys(filter.values).join()}`;
    const statement = shapes.of(shape, (p) => pageStatement(table, plan, filter.conditions(p), related, p.take));
    const values = {
      ...filter.values,
      take: plan.take,
      cursorValue: plan.cursorValues?.value,
      cursorId: plan.cursorValues?.id,
    };
    const raws = await statement.read(tenant, values);
    return pageOf(withRelated(table, raws, related), page, plan);
  };
}

/**
 * One page of `table`'s rows that meet `conditions`, in the page's sort (a key of `sorts`, ties broken by `id`),
 * with its cursors and each row's `related` values: the whole keyset list for the usual case of one table, in
 * the caller's transaction.
 */
export async function selectPage<T extends PgTable, R extends RelatedValues = Record<never, never>>(
  tx: Tx,
  table: T,
  page: PageRequest,
  order: Order,
  conditions: (SQL | undefined)[],
  related: R = {} as R,
): Promise<{ data: WithRelated<T['$inferSelect'], R>[]; meta: PageMeta }> {
  const plan = keyset(page, order.sorts, order.id);
  const raws = await tx.execute<DriverRow>(pageStatement(table, plan, conditions, related));
  return pageOf(withRelated(table, [...raws], related), page, plan);
}

/**
 * The same page as selectPage outside a transaction: one prepared statement as the tenant in one round trip
 * (readAsTenant), for a list whose page (with its related values) is all it reads. A transaction would add three
 * round trips (begin, the tenant setting, commit) to every page, and each further read one more.
 */
export async function readPage<T extends PgTable, R extends RelatedValues = Record<never, never>>(
  tenant: Tenant,
  table: T,
  page: PageRequest,
  order: Order,
  conditions: (SQL | undefined)[],
  related: R = {} as R,
): Promise<{ data: WithRelated<T['$inferSelect'], R>[]; meta: PageMeta }> {
  const plan = keyset(page, order.sorts, order.id);
  const raws = await tenant.readRows(pageStatement(table, plan, conditions, related).toSQL());
  return pageOf(withRelated(table, raws, related), page, plan);
}

/** Trims the extra row, restores the order and builds the cursors. */
export function pageOf<Row extends object>(
  rows: Row[],
  page: PageRequest,
  plan: { backwards: boolean; hasCursor: boolean; cursorKeys: readonly [string, string] },
): { data: Row[]; meta: PageMeta } {
  const [sortKey, idKey] = plan.cursorKeys;
  const valuesOf = (row: Row): [string | number, string] => {
    const values = row as Record<string, unknown>;
    return [cursorValue(values[sortKey]), String(values[idKey])];
  };
  const more = rows.length > page.limit;
  const data = more ? rows.slice(0, page.limit) : rows;
  if (plan.backwards) data.reverse();
  const cursorAt = (row: Row | undefined, d: 'n' | 'p') => (row ? encode({ s: page.sort, v: valuesOf(row), d }) : null);
  const hasNext = plan.backwards ? true : more;
  const hasPrev = plan.backwards ? more : plan.hasCursor;
  return {
    data,
    meta: {
      limit: page.limit,
      next_cursor: hasNext ? cursorAt(data.at(-1), 'n') : null,
      prev_cursor: hasPrev ? cursorAt(data[0], 'p') : null,
    },
  };
}
