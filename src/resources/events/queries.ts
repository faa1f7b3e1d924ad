// SQL of the event feed; every function takes the tenant transaction first. Every read is limited to the
// retention period and to the contract's event types, whatever the caller asks for.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { events } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { EVENT_RETENTION_DAYS } from '../../events/retention.ts';
import { keyset, type PageRequest } from '../../http/pagination.ts';
import { EVENT_TYPES, type EventRow, type EventType } from './serialize.ts';

export type EventFilters = { types?: readonly EventType[]; createdSince?: string };

const SORTS = { created_at: events.createdAt };

// The same cutoff as the purge job's (src/events/retention.ts): an event the purge has not reached yet is
// already gone from the feed.
const withinRetention = sql`${events.createdAt} >= app_now() - make_interval(days => ${EVENT_RETENTION_DAYS})`;

/**
 * `created_at >= since`. Stored times have millisecond precision, so "at or after" a finer instant means at or
 * after the next whole millisecond. Compared through to_timestamp on epoch seconds: a valid RFC 3339 time
 * PostgreSQL cannot parse as text (year 0000) or a JavaScript ISO string (years past 9999) cannot write
 * still compares correctly instead of failing.
 */
function createdSince(since: string): SQL {
  let ms = Date.parse(since);
  const finer = /\.\d{3}(\d+)/.exec(since)?.[1] ?? '';
  if (/[1-9]/.test(finer)) ms += 1;
  return sql`${events.createdAt} >= to_timestamp(${ms / 1000}::double precision)`;
}

/** One page of the events a key may read: its scopes decide which (`events.scope` is the read scope needed). */
export async function listEvents(
  tx: Tx,
  companyId: string,
  scopes: readonly string[],
  page: PageRequest,
  filters: EventFilters,
) {
  const plan = keyset(page, SORTS, events.id);
  const rows = await tx
    .select()
    .from(events)
    .where(
      and(
        eq(events.companyId, companyId),
        withinRetention,
        inArray(events.scope, [...scopes]),
        inArray(events.type, [...(filters.types ?? EVENT_TYPES)]),
        filters.createdSince === undefined ? undefined : createdSince(filters.createdSince),
        plan.where,
      ),
    )
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return { rows, plan };
}

/** The event whatever its scope (the caller answers 403 for a scope the key lacks, as the contract says). */
export async function findEvent(tx: Tx, companyId: string, id: string): Promise<EventRow | undefined> {
  const [row] = await tx
    .select()
    .from(events)
    .where(
      and(eq(events.companyId, companyId), eq(events.id, id), withinRetention, inArray(events.type, [...EVENT_TYPES])),
    );
  return row;
}
