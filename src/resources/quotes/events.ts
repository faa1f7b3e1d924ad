import type { EventDeclarations } from '../../events/catalogue.ts';

export const quoteEvents = {
  'quote.created': {
    readScopes: ['quotes.read'],
    summary: { en: 'Quote created', nl: 'Offerte aangemaakt', de: 'Angebot erstellt', fr: 'Devis créé' },
  },
  'quote.sent': {
    readScopes: ['quotes.read'],
    summary: { en: 'Quote sent', nl: 'Offerte verstuurd', de: 'Angebot gesendet', fr: 'Devis envoyé' },
  },
  'quote.viewed': {
    readScopes: ['quotes.read'],
    summary: {
      en: 'Quote opened by the customer',
      nl: 'Offerte door de klant geopend',
      de: 'Angebot vom Kunden geöffnet',
      fr: 'Devis ouvert par le client',
    },
  },
  'quote.accepted': {
    readScopes: ['quotes.read'],
    summary: { en: 'Quote accepted', nl: 'Offerte geaccepteerd', de: 'Angebot angenommen', fr: 'Devis accepté' },
  },
  'quote.rejected': {
    readScopes: ['quotes.read'],
    summary: { en: 'Quote rejected', nl: 'Offerte afgewezen', de: 'Angebot abgelehnt', fr: 'Devis refusé' },
  },
} as const satisfies EventDeclarations;
