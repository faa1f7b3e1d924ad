import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('messages.read');

export const conversationEvents = {
  'conversation.created': event({
    en: 'Conversation started',
    nl: 'Gesprek begonnen',
    de: 'Unterhaltung begonnen',
    fr: 'Conversation commencée',
  }),
  'conversation.closed': event({
    en: 'Conversation closed',
    nl: 'Gesprek gesloten',
    de: 'Unterhaltung geschlossen',
    fr: 'Conversation fermée',
  }),
  'message.created': event({
    en: 'Message written',
    nl: 'Bericht geschreven',
    de: 'Nachricht geschrieben',
    fr: 'Message écrit',
  }),
} as const satisfies EventDeclarations;
