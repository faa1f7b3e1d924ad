import type { EventDeclarations } from '../../events/catalogue.ts';

export const workOrderEvents = {
  'work_order.created': {
    readScopes: ['work_orders.read'],
    summary: {
      en: 'Work order created',
      nl: 'Werkbon aangemaakt',
      de: 'Arbeitsauftrag erstellt',
      fr: 'Bon d’intervention créé',
    },
  },
  'work_order.status_changed': {
    readScopes: ['work_orders.read'],
    summary: {
      en: 'Work order status changed',
      nl: 'Status van werkbon gewijzigd',
      de: 'Status des Arbeitsauftrags geändert',
      fr: 'Statut du bon d’intervention modifié',
    },
  },
} as const satisfies EventDeclarations;
