import { EventDataSchema, EventTypeSchema } from '../../../generated/routes.ts';
import type { events } from '../../db/schema/index.ts';
import { EVENT_TYPES, type EventType } from '../../events/catalogue.ts';
import { iso } from '../../http/serialize.ts';

export type EventRow = typeof events.$inferSelect;
// The event types of the contract; only these are ever shown (a stored `ping` or unknown type never is).
export { EVENT_TYPES, type EventType };

/**
 * The contract's Event. `data` is stored as jsonb (`{ object: <REST shape> }`, written by recordEvent), so
 * nothing types it: it is checked against the contract here. A row that does not match is a bug of the
 * code that recorded it, answered as a 500 rather than sent out in a shape the contract does not promise.
 */
export function serializeEvent(row: EventRow) {
  const type = EventTypeSchema.safeParse(row.type);
  const data = EventDataSchema.safeParse(row.data);
  if (!type.success || !data.success) {
    throw new Error(`event ${row.id} (${row.type}) does not have the contract's Event shape`);
  }
  return {
    object: 'event' as const,
    id: row.id,
    type: type.data,
    created_at: iso(row.createdAt),
    data: data.data,
  };
}
