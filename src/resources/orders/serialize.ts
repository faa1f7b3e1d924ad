import type { orderItems, orderNotes, orders } from '../../db/schema/index.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;
export type OrderNoteRow = typeof orderNotes.$inferSelect;

export function serializeOrderNote(row: OrderNoteRow) {
  return {
    object: 'order_note' as const,
    id: row.id,
    type: row.type,
    content: row.content,
    is_internal: row.isInternal,
    created_at: iso(row.createdAt),
  };
}

export function serializeOrderItem(row: OrderItemRow) {
  return {
    object: 'order_item' as const,
    type: row.type,
    name: row.name,
    description: row.description,
    quantity: row.quantity,
    unit: row.unit,
    unit_price: row.unitPrice,
    discount_percentage: row.discountPercentage,
    discount_amount: row.discountAmount,
    line_total: row.lineTotal,
    is_taxable: row.isTaxable,
    tax_rate: row.taxRate,
  };
}

export type OrderWithParts = { order: OrderRow; items: OrderItemRow[]; notes: OrderNoteRow[] };

export function serializeOrder({ order, items, notes }: OrderWithParts) {
  return {
    object: 'order' as const,
    id: order.id,
    number: order.number,
    status: order.status,
    customer_id: order.customerId,
    customer: {
      name: order.buyerName,
      email: order.buyerEmail,
      phone: order.buyerPhone,
      company_name: order.buyerCompanyName,
      vat_number: order.buyerVatNumber,
    },
    billing_address: order.billingAddress,
    shipping_address: order.shippingAddress,
    form_title: order.formTitle,
    language: order.language,
    currency: order.currency,
    subtotal: order.subtotal,
    discount_amount: order.discountAmount,
    shipping_cost: order.shippingCost,
    tax_amount: order.taxAmount,
    total: order.total,
    payment_method: order.paymentMethod,
    tracking_code: order.trackingCode,
    tracking_url: order.trackingUrl,
    invoice_id: order.invoiceId,
    quote_id: order.quoteId,
    paid_at: isoOrNull(order.paidAt),
    shipped_at: isoOrNull(order.shippedAt),
    delivered_at: isoOrNull(order.deliveredAt),
    cancelled_at: isoOrNull(order.cancelledAt),
    refunded_at: isoOrNull(order.refundedAt),
    items: items.map(serializeOrderItem),
    notes: notes.map(serializeOrderNote),
    created_at: iso(order.createdAt),
    metadata: order.metadata,
    updated_at: iso(order.updatedAt),
  };
}
