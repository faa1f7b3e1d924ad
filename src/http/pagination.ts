// Keyset pagination: a cursor is base64url JSON of {sort, last values, direction}. It belongs to one sort
// order; `limit + 1` rows tell whether another page exists; `prev_cursor` pages backwards.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { type Message, message } from './messages.ts';
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

/** A cursor value as its column takes it; a value the column cannot hold makes the cursor damaged (422, not 500). */
function columnValue(value: string | number, column: AnyColumn): unknown {
  if (column.columnType === 'PgTimestamp') {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw cursorProblem(message('cursor.invalid'));
    return date;
  }
  if (column.columnType === 'PgUUID' && !UUID.test(String(value))) throw cursorProblem(message('cursor.invalid'));
  const limit = INTEGER_LIMITS[column.columnType];
  if (limit !== undefined) {
    const n = Number(value);
    if (!/^-?\d{1,16}$/.test(String(value)) || Math.abs(n) > limit) throw cursorProblem(message('cursor.invalid'));
    return n;
  }
  return value;
}

/** The where-clause and order for one page of `sort` (`field` or `-field`), ties broken by `id`. */
export function keyset(page: PageRequest, columns: SortColumns, id: AnyColumn) {
  const descending = page.sort.startsWith('-');
  const column = columns[page.sort.replace(/^-/, '')];
  const cursor = page.cursor ? decode(page.cursor, page.sort) : undefined;
  const backwards = cursor?.d === 'p';
  // Walking backwards is walking forwards in the opposite order, then reversing the rows.
  const ascending = descending === backwards;
  let where: SQL | undefined;
  if (cursor) {
    // Bound through the columns (sql.param), so each value is encoded as its column expects: the driver
    // passes timestamps through untouched and would fail on a raw Date.
    const value = sql.param(columnValue(cursor.v[0], column), column);
    const last = sql.param(columnValue(cursor.v[1], id), id);
    where = ascending ? sql`(${column}, ${id}) > (${value}, ${last})` : sql`(${column}, ${id}) < (${value}, ${last})`;
  }
  const orderBy = ascending ? [sql`${column} asc`, sql`${id} asc`] : [sql`${column} desc`, sql`${id} desc`];
  return { where, orderBy, take: page.limit + 1, backwards, hasCursor: cursor !== undefined };
}

/** Trims the extra row, restores the order and builds the cursors. */
export function pageOf<Row>(
  rows: Row[],
  page: PageRequest,
  plan: { backwards: boolean; hasCursor: boolean },
  valuesOf: (row: Row) => [string | number, string],
): { data: Row[]; meta: PageMeta } {
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
