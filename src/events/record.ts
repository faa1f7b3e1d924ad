// The outbox: an event row written in the caller's transaction, so a committed change always has its
// event and a rolled-back change never does. (Webhook fan-out jobs join this transaction in the events issue.)

import { events } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { prefixedId } from '../ids.ts';

export type EventType =
  | 'customer.created'
  | 'customer.updated'
  | 'customer.converted'
  | 'deal.created'
  | 'deal.updated'
  | 'deal.stage_changed'
  | 'deal.won'
  | 'deal.lost'
  | 'note.created'
  | 'note.updated'
  | 'note.deleted';

/** The read scope a key needs to see an event about this kind of object. */
export const SCOPE_OF_PARENT = { customer: 'customers.read', deal: 'deals.read' } as const;

export async function recordEvent(
  tx: Tx,
  companyId: string,
  event: { type: EventType; scope: string; customerId: string | null; object: unknown },
): Promise<string> {
  const id = prefixedId('evt');
  await tx.insert(events).values({
    companyId,
    id,
    type: event.type,
    scope: event.scope,
    customerId: event.customerId,
    data: { object: event.object },
  });
  return id;
}
