import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('quotes.read');

export const quoteEvents = {
  'quote.created': event({ en: 'Quote created', nl: 'Offerte aangemaakt', de: 'Angebot erstellt', fr: 'Devis créé' }),
  'quote.sent': event({ en: 'Quote sent', nl: 'Offerte verstuurd', de: 'Angebot gesendet', fr: 'Devis envoyé' }),
  'quote.viewed': event({
    en: 'Quote opened by the customer',
    nl: 'Offerte door de klant geopend',
    de: 'Angebot vom Kunden geöffnet',
    fr: 'Devis ouvert par le client',
  }),
  'quote.accepted': event({
    en: 'Quote accepted',
    nl: 'Offerte geaccepteerd',
    de: 'Angebot angenommen',
    fr: 'Devis accepté',
  }),
  'quote.rejected': event({
    en: 'Quote rejected',
    nl: 'Offerte afgewezen',
    de: 'Angebot abgelehnt',
    fr: 'Devis refusé',
  }),
} as const satisfies EventDeclarations;
