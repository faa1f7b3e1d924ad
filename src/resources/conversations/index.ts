// The resource as the house sees it (src/resources/index.ts): its handlers, and its texts and events.

export { conversationEvents as events } from './events.ts';
export { handlers } from './handlers.ts';
export { conversationMessages as messages } from './messages.ts';
