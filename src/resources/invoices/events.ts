import type { EventDeclarations } from '../../events/catalogue.ts';

export const invoiceEvents = {
  'invoice.created': {
    readScopes: ['invoices.read'],
    summary: { en: 'Invoice created', nl: 'Factuur aangemaakt', de: 'Rechnung erstellt', fr: 'Facture créée' },
  },
  'invoice.sent': {
    readScopes: ['invoices.read'],
    summary: { en: 'Invoice sent', nl: 'Factuur verstuurd', de: 'Rechnung gesendet', fr: 'Facture envoyée' },
  },
  'invoice.viewed': {
    readScopes: ['invoices.read'],
    summary: {
      en: 'Invoice opened by the customer',
      nl: 'Factuur door de klant geopend',
      de: 'Rechnung vom Kunden geöffnet',
      fr: 'Facture ouverte par le client',
    },
  },
  'invoice.paid': {
    readScopes: ['invoices.read'],
    summary: { en: 'Invoice paid', nl: 'Factuur betaald', de: 'Rechnung bezahlt', fr: 'Facture payée' },
  },
  'invoice.overdue': {
    readScopes: ['invoices.read'],
    summary: { en: 'Invoice overdue', nl: 'Factuur vervallen', de: 'Rechnung überfällig', fr: 'Facture en retard' },
  },
  'invoice.cancelled': {
    readScopes: ['invoices.read'],
    summary: { en: 'Invoice cancelled', nl: 'Factuur geannuleerd', de: 'Rechnung storniert', fr: 'Facture annulée' },
  },
} as const satisfies EventDeclarations;
