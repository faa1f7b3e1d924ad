// The status changes the API may make and the source states each allows (openapi/paths/orders.yaml,
// "Change the status of an order"); everything else is 409 conflict.
import type { OrderRow } from './serialize.ts';

export type OrderStatus = OrderRow['status'];
export type SettableStatus = 'processing' | 'shipped' | 'delivered' | 'cancelled';

export const ALLOWED_FROM: Readonly<Record<SettableStatus, readonly OrderStatus[]>> = {
  processing: ['paid'],
  shipped: ['paid', 'processing'],
  delivered: ['shipped'],
  cancelled: ['pending_payment', 'paid', 'processing'],
};

export const mayMove = (from: OrderStatus, to: SettableStatus): boolean => ALLOWED_FROM[to].includes(from);

/** Track and trace may be filled in while the order is being fulfilled. */
export const TRACKING_STATUSES: readonly OrderStatus[] = ['paid', 'processing', 'shipped'];

/** The time column a status records (`processing` has none). */
export const TIME_OF = { shipped: 'shippedAt', delivered: 'deliveredAt', cancelled: 'cancelledAt' } as const;

/** A link the customer is emailed and may click: only web addresses (not javascript: or data:). */
export const trackingUrlAllowed = (url: string): boolean => /^https?:\/\//i.test(url);
