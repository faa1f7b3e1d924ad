import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('orders.read');

export const orderEvents = {
  'order.status_changed': event({
    en: 'Order status changed',
    nl: 'Status van bestelling gewijzigd',
    de: 'Bestellstatus geändert',
    fr: 'Statut de la commande modifié',
  }),
} as const satisfies EventDeclarations;
