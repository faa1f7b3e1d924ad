import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('invoices.read');

export const invoiceEvents = {
  'invoice.created': event({
    en: 'Invoice created',
    nl: 'Factuur aangemaakt',
    de: 'Rechnung erstellt',
    fr: 'Facture créée',
  }),
  'invoice.sent': event({
    en: 'Invoice sent',
    nl: 'Factuur verstuurd',
    de: 'Rechnung gesendet',
    fr: 'Facture envoyée',
  }),
  'invoice.viewed': event({
    en: 'Invoice opened by the customer',
    nl: 'Factuur door de klant geopend',
    de: 'Rechnung vom Kunden geöffnet',
    fr: 'Facture ouverte par le client',
  }),
  'invoice.paid': event({ en: 'Invoice paid', nl: 'Factuur betaald', de: 'Rechnung bezahlt', fr: 'Facture payée' }),
  'invoice.overdue': event({
    en: 'Invoice overdue',
    nl: 'Factuur vervallen',
    de: 'Rechnung überfällig',
    fr: 'Facture en retard',
  }),
  'invoice.reminder_sent': event({
    en: 'Payment reminder sent',
    nl: 'Betalingsherinnering verstuurd',
    de: 'Zahlungserinnerung gesendet',
    fr: 'Relance de paiement envoyée',
  }),
  'invoice.cancelled': event({
    en: 'Invoice cancelled',
    nl: 'Factuur geannuleerd',
    de: 'Rechnung storniert',
    fr: 'Facture annulée',
  }),
  'invoice.refund_failed': event({
    en: 'Refund failed at the payment provider',
    nl: 'Terugbetaling mislukt bij de betaalprovider',
    de: 'Erstattung beim Zahlungsanbieter fehlgeschlagen',
    fr: 'Remboursement échoué chez le prestataire de paiement',
  }),
} as const satisfies EventDeclarations;
