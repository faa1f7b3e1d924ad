// Orders placed in webshop forms outside this service, brought in by the operator (`cli orders import FILE`).
// Each order has the contract's Order shape (generated OrderSchema); what the service assigns itself (`object`,
// `id`, `customer_id`, `notes`, `updated_at`) may be left out and is ignored when sent; `metadata` may be left out
// and is kept when sent (the shop's own ids, under the API's limits). An order number that is
// there already is skipped, so the same file can be imported again. Each order meets the API's own checks (text
// PostgreSQL can store, the buyer as a customer the API would take, a tracking link on the web, the company's own
// invoice and quote): one that does not is a bad row, reported with its line and reason, and the others import.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { CustomerCreateSchema, OrderItemSchema, OrderSchema } from '../../../generated/routes.ts';
import { customers, invoices, quotes } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { toCents } from '../../domain/money.ts';
import { unstorable } from '../../http/storable-text.ts';
import { insertCustomer } from '../customers/queries.ts';
import * as q from './queries.ts';
import { trackingUrlAllowed } from './rules.ts';

const ImportedItem = OrderItemSchema.partial({ object: true });
const ImportedOrder = OrderSchema.partial({
  object: true,
  id: true,
  customer_id: true,
  notes: true,
  metadata: true,
  created_at: true,
  updated_at: true,
}).extend({ items: z.array(ImportedItem).max(1000) });

export type ImportedOrder = z.infer<typeof ImportedOrder>;
export type ImportResult = { number: string; id: string; result: 'imported' | 'existing' };

/** A row the import refuses, with why (a line of the report). */
export class BadRow extends Error {}

/** The JSON Pointer of the first text in `value` PostgreSQL cannot store (U+0000, an unpaired surrogate). */
function unstorableAt(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return unstorable(value) ? at || '/' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = unstorable(key) ? `${at}/${key}` : unstorableAt(item, `${at}/${key}`);
    if (found) return found;
  }
  return null;
}

const issueText = (issues: z.core.$ZodIssue[]) =>
  issues
    .slice(0, 3)
    .map((issue) => `/${issue.path.join('/')}: ${issue.message}`)
    .join('; ');

/**
 * The order of one row of the file, or why it is refused: the contract's Order shape, text that can be stored,
 * the buyer as the API takes a new customer, a tracking link on the web (it is emailed), totals that add up.
 */
export function checkedOrder(row: unknown): ImportedOrder {
  // First: a NUL would otherwise reach PostgreSQL as its own error.
  const unstorableText = unstorableAt(row);
  if (unstorableText) throw new BadRow(`${unstorableText}: text with U+0000 or an unpaired surrogate cannot be stored`);
  const parsed = ImportedOrder.safeParse(row);
  if (!parsed.success) throw new BadRow(issueText(parsed.error.issues));
  const order = parsed.data;
  const buyer = CustomerCreateSchema.safeParse({
    email: order.customer.email,
    name: order.customer.name,
    phone: order.customer.phone,
    company_name: order.customer.company_name,
    vat_number: order.customer.vat_number,
  });
  if (!buyer.success) {
    const issues = buyer.error.issues.map((issue) => ({ ...issue, path: ['customer', ...issue.path] }));
    throw new BadRow(issueText(issues));
  }
  if (order.tracking_url !== null && !trackingUrlAllowed(order.tracking_url))
    throw new BadRow('/tracking_url: the link must start with http:// or https://');
  const expected =
    toCents(order.subtotal) - toCents(order.discount_amount) + toCents(order.shipping_cost) + toCents(order.tax_amount);
  if (expected !== toCents(order.total))
    throw new BadRow(`/total: ${order.total} is not subtotal − discount + shipping + tax`);
  return order;
}

/** A row of an import file refused: its line, its order number when it has one, and why. */
export type BadImportRow = { line: number; number: string | null; reason: string };

/**
 * The orders of an import file's rows (undefined: a line that is not JSON), each checked as the API would; the bad
 * rows with their reasons. An order number a row before it has is a bad row too.
 */
export function checkedRows(rows: { line: number; value: unknown }[]): {
  orders: { line: number; order: ImportedOrder }[];
  badRows: BadImportRow[];
} {
  const orders: { line: number; order: ImportedOrder }[] = [];
  const badRows: BadImportRow[] = [];
  const numbers = new Set<string>();
  for (const { line, value } of rows) {
    const number =
      value !== null && typeof value === 'object' && typeof (value as { number?: unknown }).number === 'string'
        ? (value as { number: string }).number.slice(0, 100)
        : null;
    if (value === undefined) {
      badRows.push({ line, number, reason: 'not JSON' });
      continue;
    }
    try {
      const order = checkedOrder(value);
      if (numbers.has(order.number)) throw new BadRow(`/number: order ${order.number} appears twice in the file`);
      numbers.add(order.number);
      orders.push({ line, order });
    } catch (error) {
      if (!(error instanceof BadRow)) throw error;
      badRows.push({ line, number, reason: error.message });
    }
  }
  return { orders, badRows };
}

/** The invoice and quote an order names must be the company's (the foreign keys say so too). */
async function checkReferences(tx: Tx, companyId: string, order: ImportedOrder): Promise<void> {
  if (order.invoice_id) {
    const [found] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.companyId, companyId), eq(invoices.id, order.invoice_id)));
    if (!found) throw new BadRow(`/invoice_id: no invoice ${order.invoice_id} in this company`);
  }
  if (order.quote_id) {
    const [found] = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(eq(quotes.companyId, companyId), eq(quotes.id, order.quote_id)));
    if (!found) throw new BadRow(`/quote_id: no quote ${order.quote_id} in this company`);
  }
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
  await checkReferences(tx, companyId, order);
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
      metadata: order.metadata ?? {},
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
