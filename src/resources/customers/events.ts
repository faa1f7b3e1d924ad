import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('customers.read');

export const customerEvents = {
  'customer.created': event({
    en: 'Customer created',
    nl: 'Klant aangemaakt',
    de: 'Kunde angelegt',
    fr: 'Client créé',
  }),
  'customer.updated': event({
    en: 'Details changed',
    nl: 'Gegevens gewijzigd',
    de: 'Daten geändert',
    fr: 'Coordonnées modifiées',
  }),
  'customer.converted': event({
    en: 'Lead converted into a customer',
    nl: 'Lead omgezet in klant',
    de: 'Lead in Kunden umgewandelt',
    fr: 'Prospect converti en client',
  }),
} as const satisfies EventDeclarations;
