import type { z } from 'zod';
import { EventTypeSchema } from '../../../generated/routes.ts';

// The contract's Event shape is shared with webhook messages: src/events/serialize.ts.
export { type EventRow, serializeEvent } from '../../events/serialize.ts';
export type EventType = z.infer<typeof EventTypeSchema>;

/** The event types of the contract; only these are ever shown (a stored `ping` or unknown type never is). */
export const EVENT_TYPES: readonly EventType[] = EventTypeSchema.options;
