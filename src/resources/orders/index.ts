// The resource as the house sees it (src/resources/index.ts): its handlers, texts and events.

export { orderEvents as events } from './events.ts';
export { handlers } from './handlers.ts';
export { orderMessages as messages } from './messages.ts';
