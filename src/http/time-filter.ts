// `filter[updated_since]`, `filter[created_since]`: "at or after" an RFC 3339 date-time; the same rounding
// serves other windows given as date-times (a webhook recovery's `since` and `until`).
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * The first whole millisecond at or after an RFC 3339 date-time (epoch milliseconds). Stored times have
 * millisecond precision, so "at or after" (or "before") a finer instant means at or after (or before) the
 * next whole millisecond.
 */
export function nextWholeMillisecond(time: string): number {
  const ms = Date.parse(time);
  const finer = /\.\d{3}(\d+)/.exec(time)?.[1] ?? '';
  return /[1-9]/.test(finer) ? ms + 1 : ms;
}

/**
 * `column >= since`, to the next whole millisecond. Compared through to_timestamp on epoch seconds: a valid
 * RFC 3339 time PostgreSQL cannot parse as text (year 0000) or a JavaScript ISO string (years past 9999)
 * cannot write still compares correctly instead of failing.
 */
export function atOrAfter(column: AnyColumn, since: string): SQL {
  return atOrAfterSeconds(column, sinceSeconds(since));
}

/** atOrAfter's bound as epoch seconds: the value of a statement built once (db/statements.ts). */
export const sinceSeconds = (since: string): number => nextWholeMillisecond(since) / 1000;

/** atOrAfter with its bound (sinceSeconds), or the placeholder of it. */
export const atOrAfterSeconds = (column: AnyColumn, seconds: unknown): SQL =>
  sql`${column} >= to_timestamp(${seconds}::double precision)`;
