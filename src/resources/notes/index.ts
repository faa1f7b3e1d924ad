// The resource as the house sees it (src/resources/index.ts): its handlers, and its texts and events if any.

export { noteEvents as events } from './events.ts';
export { handlers } from './handlers.ts';
export { noteMessages as messages } from './messages.ts';
