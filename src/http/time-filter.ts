// `filter[updated_since]`, `filter[created_since]`: "at or after" an RFC 3339 date-time.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * `column >= since`. Stored times have millisecond precision, so "at or after" a finer instant means at or
 * after the next whole millisecond. Compared through to_timestamp on epoch seconds: a valid RFC 3339 time
 * PostgreSQL cannot parse as text (year 0000) or a JavaScript ISO string (years past 9999) cannot write
 * still compares correctly instead of failing.
 */
export function atOrAfter(column: AnyColumn, since: string): SQL {
  let ms = Date.parse(since);
  const finer = /\.\d{3}(\d+)/.exec(since)?.[1] ?? '';
  if (/[1-9]/.test(finer)) ms += 1;
  return sql`${column} >= to_timestamp(${ms / 1000}::double precision)`;
}
