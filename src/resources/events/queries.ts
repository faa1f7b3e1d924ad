// SQL of the event feed; every function takes the tenant first. Every read is limited to the
// retention period and to the contract's event types, whatever the caller asks for.
import { eq, inArray, sql } from 'drizzle-orm';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import { events } from '../../db/schema/index.ts';
import type { Tenant } from '../../db/tenant.ts';
import { EVENT_RETENTION_DAYS } from '../../events/retention.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { EVENT_TYPES, type EventRow, type EventType } from './serialize.ts';

export type EventFilters = { types?: readonly EventType[]; createdSince?: string };

const SORTS = { created_at: events.createdAt };

// The same cutoff as the purge job's (src/events/retention.ts): an event the purge has not reached yet is
// already gone from the feed.
const withinRetention = sql`${events.createdAt} >= app_now() - make_interval(days => ${EVENT_RETENTION_DAYS})`;

/**
 * One page of the events a key may read: its scopes decide which (`events.scope` is the read scope needed). One
 * statement as the tenant in one round trip.
 */
export function listEvents(tenant: Tenant, scopes: readonly string[], page: PageRequest, filters: EventFilters) {
  return readPage(tenant, events, page, { sorts: SORTS, id: events.id }, [
    eq(events.companyId, tenant.companyId),
    withinRetention,
    inArray(events.scope, [...scopes]),
    inArray(events.type, [...(filters.types ?? EVENT_TYPES)]),
    filters.createdSince === undefined ? undefined : atOrAfter(events.createdAt, filters.createdSince),
  ]);
}

/**
 * The event whatever its scope (the caller answers 403 for a scope the key lacks, as the contract says): one
 * statement as the tenant in one round trip.
 */
export const readEvent: (tenant: Tenant, id: string) => Promise<EventRow | undefined> = recordReader(events, [
  ...byRecordKey(events),
  withinRetention,
  inArray(events.type, [...EVENT_TYPES]),
]);
