import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('work_orders.read');

export const workOrderEvents = {
  'work_order.created': event({
    en: 'Work order created',
    nl: 'Werkbon aangemaakt',
    de: 'Arbeitsauftrag erstellt',
    fr: 'Bon d’intervention créé',
  }),
  'work_order.status_changed': event({
    en: 'Work order status changed',
    nl: 'Status van werkbon gewijzigd',
    de: 'Status des Arbeitsauftrags geändert',
    fr: 'Statut du bon d’intervention modifié',
  }),
} as const satisfies EventDeclarations;
