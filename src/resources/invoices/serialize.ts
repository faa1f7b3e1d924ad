import { ublUrlOf } from '../../api-address.ts';
import type { invoicePayments, invoiceReminders, invoices } from '../../db/schema/index.ts';
import { fromCents, toCents } from '../../domain/money.ts';
import { iso, isoOrNull } from '../../http/serialize.ts';
import { serializeLine, serializeTaxBreakdown } from '../quotes/serialize.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof invoicePayments.$inferSelect;
export type ReminderRow = typeof invoiceReminders.$inferSelect;
/** The invoice with what its answer lists besides its own columns: its payments and its reminders. */
export type InvoiceWithPayments = InvoiceRow & { payments: PaymentRow[]; reminders: ReminderRow[] };

/** Nothing is owed on a cancelled or refunded invoice. */
export const amountDue = (row: InvoiceRow): string =>
  row.status === 'cancelled' || row.status === 'refunded'
    ? '0.00'
    : fromCents(toCents(row.total) - toCents(row.amountPaid));

/** The figures of an invoice, as its answer and its PDF show them. */
export const invoiceFigures = (row: InvoiceRow) => ({
  subtotal: row.subtotal,
  discount_amount: row.discountAmount,
  tax_breakdown: serializeTaxBreakdown(row.items, row.discountAmount),
  tax_amount: row.taxAmount,
  total: row.total,
  amount_paid: row.amountPaid,
  amount_due: amountDue(row),
});

export function serializePayment(row: PaymentRow) {
  return {
    object: 'invoice_payment' as const,
    id: row.id,
    amount: row.amount,
    type: row.type,
    status: row.status,
    payment_method: row.paymentMethod,
    description: row.description,
    paid_at: isoOrNull(row.paidAt),
    provider: row.provider,
    provider_payment_id: row.providerPaymentId,
    refunded_payment_id: row.refundedPaymentId,
    provider_refund_id: row.providerRefundId,
    provider_refund_status: row.providerRefundStatus,
    failure_reason: row.failureReason,
    created_at: iso(row.createdAt),
  };
}

export function serializeReminder(row: ReminderRow) {
  return {
    kind: row.kind,
    days_after_due: row.daysAfterDue,
    status: row.status,
    sent_at: isoOrNull(row.sentAt),
    skipped_reason: row.skippedReason,
  };
}

/** The states in which an invoice takes a payment (and offers "pay now"). */
export const PAYABLE: readonly string[] = ['sent', 'viewed', 'overdue', 'partial'];

/** Whether the invoice can be paid now: a payable state with an amount due. */
export const payableNow = (row: InvoiceRow) => PAYABLE.includes(row.status) && toCents(amountDue(row)) > 0n;

/** "Pay now" of the online invoice at `publicUrl` (document-pages: GET /invoice/{token}/pay). */
export const payUrlOf = (publicUrl: string) => `${publicUrl}/pay`;

/**
 * @param publicUrl the online invoice's address when the reader may send invoices, else null (never in events):
 *   like the email that carries it, the page shows the customer's details.
 * @param serviceUrl the service's public address (PUBLIC_URL), the base of `ubl_url`: in events too, since the
 *   UBL needs a key to fetch.
 */
export function serializeInvoice(row: InvoiceWithPayments, publicUrl: string | null, serviceUrl: string) {
  return {
    object: 'invoice' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    title: row.title,
    description: row.description,
    customer_id: row.customerId,
    customer: row.customer,
    quote_id: row.quoteId,
    deal_id: row.dealId,
    language: row.language,
    currency: row.currency,
    invoice_date: row.invoiceDate,
    due_date: row.dueDate,
    payment_term_days: row.paymentTermDays,
    is_term_invoice: row.isTermInvoice,
    term_percentage: row.termPercentage,
    terms_conditions: row.termsConditions,
    notes: row.notes,
    outro_text: row.outroText,
    hide_line_amounts: row.hideLineAmounts,
    discount_percentage: row.discountPercentage,
    discount_description: row.discountDescription,
    ...invoiceFigures(row),
    sent_at: isoOrNull(row.sentAt),
    viewed_at: isoOrNull(row.viewedAt),
    paid_at: isoOrNull(row.paidAt),
    cancelled_at: isoOrNull(row.cancelledAt),
    public_url: publicUrl,
    pay_url: publicUrl !== null && payableNow(row) ? payUrlOf(publicUrl) : null,
    ubl_url: ublUrlOf(serviceUrl, row.id),
    items: row.items.map((line) => serializeLine('invoice_item' as const, line)),
    payments: row.payments.map(serializePayment),
    reminders_enabled: row.remindersEnabled,
    reminders: row.reminders.map(serializeReminder),
    created_at: iso(row.createdAt),
    metadata: row.metadata,
    updated_at: iso(row.updatedAt),
  };
}
