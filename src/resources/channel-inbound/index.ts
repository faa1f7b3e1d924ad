// The resource as the house sees it (src/resources/index.ts): its handlers and its texts.

export { handlers } from './handlers.ts';
export { channelInboundMessages as messages } from './messages.ts';
