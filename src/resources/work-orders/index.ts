// The resource as the house sees it (src/resources/index.ts): its handlers and texts.

export { handlers } from './handlers.ts';
export { workOrderMessages as messages } from './messages.ts';
