// Every operation of the contract is either built (its resource registers a handler) or listed below as
// not implemented yet, answering 501 after the usual checks. The type check at the bottom makes a contract
// operation that is in neither list — or in both — a compile error.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { type OperationId, operations } from '../../generated/operations.ts';
import { companyOperations, registerCompany } from '../resources/company/handlers.ts';
import { customerOperations, registerCustomers } from '../resources/customers/handlers.ts';
import { dealOperations, registerDeals } from '../resources/deals/handlers.ts';
import { eventOperations, registerEvents } from '../resources/events/handlers.ts';
import { meOperations, registerMe } from '../resources/me/handlers.ts';
import { dealNoteOperations, registerDealNotes } from '../resources/notes/deal-handlers.ts';
import { customerNoteOperations, registerCustomerNotes } from '../resources/notes/handlers.ts';
import { pipelineStageOperations, registerPipelineStages } from '../resources/pipeline-stages/handlers.ts';
import { registerWebhookDeliveries, webhookDeliveryOperations } from '../resources/webhook-deliveries/handlers.ts';
import { registerWebhookEndpoints, webhookEndpointOperations } from '../resources/webhook-endpoints/handlers.ts';
import type { AppEnv } from './app-env.ts';
import { message } from './messages.ts';
import { ApiProblem } from './problems.ts';

const BUILT = [
  ...meOperations,
  ...companyOperations,
  ...customerOperations,
  ...customerNoteOperations,
  ...dealOperations,
  ...dealNoteOperations,
  ...pipelineStageOperations,
  ...eventOperations,
  ...webhookDeliveryOperations,
  ...webhookEndpointOperations,
] as const;

/** Operations of later issues. Each answers 501 not_implemented until its resource is built. */
export const NOT_IMPLEMENTED = [
  // Inbox and tasks
  'listConversations',
  'getConversation',
  'listConversationMessages',
  'createConversationMessage',
  'closeConversation',
  'reopenConversation',
  'listTasks',
  'createTask',
  'getTask',
  'updateTask',
  'moveTask',
  'completeTask',
  'reopenTask',
  'cancelTask',
  'listTaskComments',
  'createTaskComment',
  'listTaskBoards',
  // Invoices, quotes, attachments and file downloads
  'listInvoices',
  'createInvoice',
  'getInvoice',
  'updateInvoice',
  'deleteInvoice',
  'sendInvoice',
  'cancelInvoice',
  'createInvoicePayment',
  'listQuotes',
  'createQuote',
  'getQuote',
  'updateQuote',
  'sendQuote',
  'acceptQuote',
  'rejectQuote',
  'listQuoteAttachments',
  'createQuoteAttachment',
  'deleteQuoteAttachment',
  'downloadFile',
  // Work orders and appointments
  'listWorkOrders',
  'createWorkOrder',
  'getWorkOrder',
  'updateWorkOrder',
  'deleteWorkOrder',
  'changeWorkOrderStatus',
  'listWorkOrderPhotos',
  'createWorkOrderPhoto',
  'deleteWorkOrderPhoto',
  'listAppointments',
  'createAppointment',
  'getAppointment',
  'updateAppointment',
  'deleteAppointment',
  'confirmAppointment',
  'cancelAppointment',
  'completeAppointment',
  'notifyAppointment',
  'listAppointmentTypes',
  'getAppointmentAvailability',
  // Orders and reviews
  'listOrders',
  'getOrder',
  'changeOrderStatus',
  'updateOrderTracking',
  'listOrderNotes',
  'createOrderNote',
  'listReviews',
  'getReview',
  'listReviewRequests',
  'createReviewRequest',
  'getReviewRequest',
] as const satisfies readonly OperationId[];

export function registerOperations(app: OpenAPIHono<AppEnv>): void {
  registerMe(app);
  registerCompany(app);
  registerCustomers(app);
  registerCustomerNotes(app);
  registerDeals(app);
  registerDealNotes(app);
  registerPipelineStages(app);
  registerEvents(app);
  registerWebhookDeliveries(app);
  registerWebhookEndpoints(app);
  for (const id of NOT_IMPLEMENTED) {
    const { method, honoPath } = operations[id];
    app.on(method.toUpperCase(), honoPath, () => {
      throw new ApiProblem('not_implemented', message('request.not_implemented', { operation: id }));
    });
  }
}

export const BUILT_OPERATIONS: readonly OperationId[] = BUILT;

type Built = (typeof BUILT)[number];
type Pending = (typeof NOT_IMPLEMENTED)[number];
type Missing = Exclude<OperationId, Built | Pending>;
type Twice = Built & Pending;
const everyOperationAccountedFor: [Missing, Twice] extends [never, never] ? true : { missing: Missing; twice: Twice } =
  true;
void everyOperationAccountedFor;
