// Orders placed in webshop forms outside this service, brought in by the operator (`cli orders import FILE.json`).
// Each order has the contract's Order shape (generated OrderSchema); what the service assigns itself (`object`,
// `id`, `customer_id`, `notes`, `updated_at`) may be left out and is ignored when sent. An order number that is
// there already is skipped, so the same file can be imported again.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { OrderItemSchema, OrderSchema } from '../../../generated/routes.ts';
import { customers } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { toCents } from '../../domain/money.ts';
import { insertCustomer } from '../customers/queries.ts';
import * as q from './queries.ts';

const ImportedItem = OrderItemSchema.partial({ object: true });
const ImportedOrder = OrderSchema.partial({
  object: true,
  id: true,
  customer_id: true,
  notes: true,
  created_at: true,
  updated_at: true,
}).extend({ items: z.array(ImportedItem).max(1000) });
/** A file is a list of orders, or `{ "orders": [...] }`. */
export const OrdersList = z.array(ImportedOrder);
export const OrdersObject = z.strictObject({ orders: OrdersList });

export type ImportedOrder = z.infer<typeof ImportedOrder>;
export type ImportResult = { number: string; id: string; result: 'imported' | 'existing' };

/** Problems of the file beyond its shape, each naming the order: the totals must add up. */
export function totalsProblems(list: ImportedOrder[]): string[] {
  const problems: string[] = [];
  for (const order of list) {
    const expected =
      toCents(order.subtotal) -
      toCents(order.discount_amount) +
      toCents(order.shipping_cost) +
      toCents(order.tax_amount);
    if (expected !== toCents(order.total))
      problems.push(`order ${order.number}: total ${order.total} is not subtotal − discount + shipping + tax`);
  }
  return problems;
}

/** The customer with the buyer's email address (case-insensitive), or a new customer. */
async function customerFor(tx: Tx, companyId: string, order: ImportedOrder): Promise<string> {
  const [found] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.emailLower, order.customer.email.toLowerCase())));
  if (found) return found.id;
  const created = await insertCustomer(tx, companyId, {
    email: order.customer.email,
    name: order.customer.name,
    phone: order.customer.phone,
    companyName: order.customer.company_name,
    vatNumber: order.customer.vat_number,
    type: order.customer.company_name ? 'business' : 'individual',
    status: 'customer',
    address: order.billing_address.address,
    postalCode: order.billing_address.postal_code,
    city: order.billing_address.city,
    country: order.billing_address.country,
  });
  if (!created) throw new Error('customer not created');
  return created.id;
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

export async function importOrder(tx: Tx, companyId: string, order: ImportedOrder): Promise<ImportResult> {
  const existing = await q.findOrderByNumber(tx, companyId, order.number);
  if (existing) return { number: order.number, id: existing.id, result: 'existing' };
  const customerId = await customerFor(tx, companyId, order);
  const id = await q.insertOrder(
    tx,
    companyId,
    {
      number: order.number,
      status: order.status,
      customerId,
      buyerName: order.customer.name,
      buyerEmail: order.customer.email,
      buyerPhone: order.customer.phone,
      buyerCompanyName: order.customer.company_name,
      buyerVatNumber: order.customer.vat_number,
      billingAddress: order.billing_address,
      shippingAddress: order.shipping_address,
      formTitle: order.form_title,
      language: order.language,
      currency: order.currency,
      subtotal: order.subtotal,
      discountAmount: order.discount_amount,
      shippingCost: order.shipping_cost,
      taxAmount: order.tax_amount,
      total: order.total,
      paymentMethod: order.payment_method,
      trackingCode: order.tracking_code,
      trackingUrl: order.tracking_url,
      invoiceId: order.invoice_id,
      quoteId: order.quote_id,
      paidAt: dateOrNull(order.paid_at),
      shippedAt: dateOrNull(order.shipped_at),
      deliveredAt: dateOrNull(order.delivered_at),
      cancelledAt: dateOrNull(order.cancelled_at),
      refundedAt: dateOrNull(order.refunded_at),
      ...(order.created_at ? { createdAt: new Date(order.created_at), updatedAt: new Date(order.created_at) } : {}),
    },
    order.items.map((item) => ({
      type: item.type,
      name: item.name,
      description: item.description,
      quantity: item.quantity,
      unit: item.unit,
      unitPrice: item.unit_price,
      discountPercentage: item.discount_percentage,
      discountAmount: item.discount_amount,
      lineTotal: item.line_total,
      isTaxable: item.is_taxable,
      taxRate: item.tax_rate,
    })),
  );
  return { number: order.number, id, result: 'imported' };
}
