import type { EventDeclarations } from '../../events/catalogue.ts';

export const orderEvents = {
  'order.status_changed': {
    readScopes: ['orders.read'],
    summary: {
      en: 'Order status changed',
      nl: 'Status van bestelling gewijzigd',
      de: 'Bestellstatus geändert',
      fr: 'Statut de la commande modifié',
    },
  },
} as const satisfies EventDeclarations;
