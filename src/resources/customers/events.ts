import type { EventDeclarations } from '../../events/catalogue.ts';

export const customerEvents = {
  'customer.created': {
    readScopes: ['customers.read'],
    summary: { en: 'Customer created', nl: 'Klant aangemaakt', de: 'Kunde angelegt', fr: 'Client créé' },
  },
  'customer.updated': {
    readScopes: ['customers.read'],
    summary: { en: 'Details changed', nl: 'Gegevens gewijzigd', de: 'Daten geändert', fr: 'Coordonnées modifiées' },
  },
  'customer.converted': {
    readScopes: ['customers.read'],
    summary: {
      en: 'Lead converted into a customer',
      nl: 'Lead omgezet in klant',
      de: 'Lead in Kunden umgewandelt',
      fr: 'Prospect converti en client',
    },
  },
} as const satisfies EventDeclarations;
