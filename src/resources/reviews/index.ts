// The resource as the house sees it (src/resources/index.ts): its handlers, texts and events.

export { reviewEvents as events } from './events.ts';
export { handlers } from './handlers.ts';
export { reviewMessages as messages } from './messages.ts';
