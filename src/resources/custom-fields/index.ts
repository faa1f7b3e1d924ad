// The resource as the house sees it (src/resources/index.ts): its handlers, and its texts and events if any.
export { handlers } from './handlers.ts';
export { customFieldMessages as messages } from './messages.ts';
