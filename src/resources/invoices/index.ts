// The resource as the house sees it (src/resources/index.ts): its handlers, texts and events.

export { invoiceEvents as events } from './events.ts';
export { handlers } from './handlers.ts';
export { invoiceMessages as messages } from './messages.ts';
