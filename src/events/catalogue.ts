// What each event type is, declared by the resource that records it (its `events.ts`): the read scopes that
// let a key see it (webhook selections, the event list, timelines) and its timeline summary in four languages.
// src/resources/index.ts merges the declarations; a contract event type that no resource declares is a
// compile-time error there.
import type { z } from 'zod';
import { EventTypeSchema, type ScopeSchema } from '../../generated/routes.ts';
import type { Texts } from '../languages.ts';

// The event types are the contract's (EventType schema): one list, generated from openapi/.
export type EventType = z.infer<typeof EventTypeSchema>;
export const EVENT_TYPES: readonly EventType[] = EventTypeSchema.options;
export type Scope = z.infer<typeof ScopeSchema>;

export type EventDeclaration = {
  /** Any one of them lets a key see the event (a note's follows its parent: a customer or a deal). */
  readonly readScopes: readonly Scope[];
  readonly summary: Texts;
};

export type EventDeclarations = { readonly [T in EventType]?: EventDeclaration };

/**
 * The declarations of a resource's event types, all seen with the same read scopes (the resource's): the scopes
 * said once, `readWith('invoices.read')`, and each type's summary given to what it answers.
 */
export const readWith =
  (...readScopes: Scope[]) =>
  (summary: Texts): EventDeclaration => ({ readScopes, summary });

let catalogue: EventDeclarations = {};

/**
 * Called once by src/resources/index.ts with every resource's declarations (complete: its type check). The
 * catalogue is handed down this way because the events layer may not import the resources above it.
 */
export function useEventCatalogue(declarations: EventDeclarations): void {
  catalogue = declarations;
}

/** What `type` is. Throws only when no resource index was loaded: a wiring error, never a request's. */
export function eventDeclaration(type: EventType): EventDeclaration {
  const declaration = catalogue[type];
  if (!declaration) throw new Error(`event type ${type} is declared by no loaded resource`);
  return declaration;
}

/** Every scope that lets a key see some event, in the contract's order of event types. */
export function eventReadScopes(): Scope[] {
  return [...new Set(EVENT_TYPES.flatMap((type) => eventDeclaration(type).readScopes))];
}
