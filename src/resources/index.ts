// Every resource of the API, one line each (its folder's index.ts: handlers keyed by operationId, and its
// problem texts and event declarations if it has any). An operation of the contract without a handler answers
// 501 not_implemented (src/app.ts); an event type of the contract that no resource declares, or two resources
// declaring one text or event, fail the type check or the start.
import { type OperationId, operations } from '../../generated/operations.ts';
import { type EventDeclaration, type EventType, useEventCatalogue } from '../events/catalogue.ts';
import type { Handlers } from '../http/handler.ts';
import type { Templates } from '../http/message-catalogue.ts';
import { sharedMessages } from '../http/messages.ts';
import * as appointments from './appointments/index.ts';
import * as channelInbound from './channel-inbound/index.ts';
import * as company from './company/index.ts';
import * as conversations from './conversations/index.ts';
import * as customFields from './custom-fields/index.ts';
import * as customers from './customers/index.ts';
import * as deals from './deals/index.ts';
import * as events from './events/index.ts';
import * as files from './files/index.ts';
import * as invoices from './invoices/index.ts';
import * as me from './me/index.ts';
import * as notes from './notes/index.ts';
import * as orders from './orders/index.ts';
import * as pipelineStages from './pipeline-stages/index.ts';
import * as quoteAttachments from './quote-attachments/index.ts';
import * as quotes from './quotes/index.ts';
import * as reviews from './reviews/index.ts';
import * as tasks from './tasks/index.ts';
import * as webhookDeliveries from './webhook-deliveries/index.ts';
import * as webhookEndpoints from './webhook-endpoints/index.ts';
import * as widget from './widget/index.ts';
import * as workOrders from './work-orders/index.ts';

const RESOURCES = [
  me,
  company,
  customers,
  notes,
  deals,
  customFields,
  pipelineStages,
  tasks,
  events,
  webhookDeliveries,
  webhookEndpoints,
  conversations,
  orders,
  reviews,
  appointments,
  quotes,
  invoices,
  files,
  quoteAttachments,
  widget,
  channelInbound,
  workOrders,
];

type Resource = (typeof RESOURCES)[number];

/** Adds `source` to `target`, refusing an id that is there already. */
function addOnce(kind: string, target: object, source: object): void {
  for (const id of Object.keys(source)) if (id in target) throw new Error(`${kind} ${id} is declared twice`);
  Object.assign(target, source);
}

/** Every handler by operationId (each resource's map is checked against its routes: `satisfies`). */
export const handlers: Partial<Handlers> = {};
/** Every problem text: the shared ones and the resources' own. */
export const messageCatalogue: Record<string, Templates> = { ...sharedMessages };
const eventDeclarations: { [T in EventType]?: EventDeclaration } = {};
for (const resource of RESOURCES) {
  addOnce('operation', handlers, resource.handlers);
  if ('messages' in resource) addOnce('text', messageCatalogue, resource.messages.entries);
  if ('events' in resource) addOnce('event', eventDeclarations, resource.events);
}
useEventCatalogue(eventDeclarations);

// Compile-time: every event type of the contract is declared by a resource.
type Declared = Resource extends infer R ? (R extends { events: infer E } ? keyof E : never) : never;
type Undeclared = Exclude<EventType, Declared>;
const everyEventDeclared: [Undeclared] extends [never] ? true : { undeclared: Undeclared } = true;
void everyEventDeclared;

const ALL_OPERATIONS = Object.keys(operations).filter((id): id is OperationId => id in operations);

/** The operations with a handler, in the contract's order. */
export const builtOperations: readonly OperationId[] = ALL_OPERATIONS.filter((id) => handlers[id] !== undefined);
/** The operations without one: each answers 501 not_implemented after the usual checks. */
export const notImplementedOperations: readonly OperationId[] = ALL_OPERATIONS.filter(
  (id) => handlers[id] === undefined,
);
