// The contract's Event, as the event feed shows it and a webhook message carries it: one shape for both, so it
// lives below the two of them (resources/events and webhooks).
import { EventDataSchema, EventTypeSchema } from '../../generated/routes.ts';
import type { events } from '../db/schema/index.ts';
import { type UpgradeContext, upgradeEventData } from './upgrades.ts';

export type EventRow = typeof events.$inferSelect;

/**
 * `data` is stored as jsonb (`{ object: <REST shape> }`, written by recordEvent), so nothing types it: it is
 * brought up to this release's shape (an event recorded by an earlier release lacks the fields added since:
 * upgrades.ts) and checked against the contract here. A row that does not match is a bug of the code that
 * recorded it, or a field added without its upgrade, answered as a 500 rather than sent out in a shape the
 * contract does not promise.
 */
export function serializeEvent(row: EventRow, context: UpgradeContext) {
  const type = EventTypeSchema.safeParse(row.type);
  const data = EventDataSchema.safeParse(upgradeEventData(row.data, context));
  if (!type.success || !data.success) {
    throw new Error(`event ${row.id} (${row.type}) does not have the contract's Event shape`);
  }
  return {
    object: 'event' as const,
    id: row.id,
    type: type.data,
    // UTC with `Z`, as every date-time of the API (http/serialize.ts).
    created_at: row.createdAt.toISOString(),
    data: data.data,
  };
}
