// The resource as the house sees it (src/resources/index.ts): its handlers, texts and events.

export { quoteEvents as events } from './events.ts';
export { handlers } from './handlers.ts';
export { quoteMessages as messages } from './messages.ts';
