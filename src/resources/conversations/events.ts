import type { EventDeclarations } from '../../events/catalogue.ts';

export const conversationEvents = {
  'conversation.created': {
    readScopes: ['messages.read'],
    summary: {
      en: 'Conversation started',
      nl: 'Gesprek begonnen',
      de: 'Unterhaltung begonnen',
      fr: 'Conversation commencée',
    },
  },
  'conversation.closed': {
    readScopes: ['messages.read'],
    summary: {
      en: 'Conversation closed',
      nl: 'Gesprek gesloten',
      de: 'Unterhaltung geschlossen',
      fr: 'Conversation fermée',
    },
  },
  'message.created': {
    readScopes: ['messages.read'],
    summary: { en: 'Message written', nl: 'Bericht geschreven', de: 'Nachricht geschrieben', fr: 'Message écrit' },
  },
} as const satisfies EventDeclarations;
