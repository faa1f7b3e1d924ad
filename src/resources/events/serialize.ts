// The contract's Event shape is shared with webhook messages: src/events/serialize.ts.

// The event types of the contract; only these are ever shown (a stored `ping` or unknown type never is).
export { EVENT_TYPES, type EventType } from '../../events/catalogue.ts';
export { type EventRow, serializeEvent } from '../../events/serialize.ts';
