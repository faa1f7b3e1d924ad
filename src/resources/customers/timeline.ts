// A customer's timeline: the events about the customer, its notes and its deals that the key may read.
import { eq, inArray } from 'drizzle-orm';
import { events } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { EVENT_TYPES, eventDeclaration } from '../../events/catalogue.ts';
import type { Language } from '../../http/language.ts';
import { type PageRequest, selectPage } from '../../http/pagination.ts';

type EventRow = typeof events.$inferSelect;

/** The summary its resource declares (events/catalogue.ts); a stored type the contract no longer has shows as itself. */
function summaryOf(type: string, language: Language): string {
  const known = EVENT_TYPES.find((t) => t === type);
  return known ? eventDeclaration(known).summary[language] : type;
}

/** One page of the customer's timeline, newest first: its events that the key's scopes may read. */
export function listTimeline(tx: Tx, companyId: string, customerId: string, scopes: string[], page: PageRequest) {
  return selectPage(tx, events, page, { sorts: { created_at: events.createdAt }, id: events.id }, [
    eq(events.companyId, companyId),
    eq(events.customerId, customerId),
    inArray(events.scope, scopes),
  ]);
}

export function serializeTimelineEntry(row: EventRow, language: Language) {
  const object = (row.data as { object?: { object?: string; id?: string } }).object ?? {};
  return {
    object: 'timeline_entry' as const,
    id: row.id,
    type: row.type,
    occurred_at: row.createdAt.toISOString(),
    summary: summaryOf(row.type, language),
    subject: { object: object.object ?? 'unknown', id: object.id ?? '' },
  };
}
