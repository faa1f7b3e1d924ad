// Recording a payment (or a refund) on an invoice: one implementation for *Record a payment* (the API) and for a
// payment that came through the company's payment provider (provider-payments.ts), so both change the invoice and
// emit events alike. A refund of a payment that came through the provider is recorded pending and sent to the
// provider by the invoice_refund_send job queued here (provider-refunds.ts), counted once the provider paid it
// back. The caller holds the invoice's lock and its transaction.
import { and, eq, sql } from 'drizzle-orm';
import { queueJob } from '../../db/job-queue.ts';
import { invoicePayments } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { fromCents, toCents } from '../../domain/money.ts';
import { scaled } from '../../domain/totals.ts';
import { ApiProblem } from '../../http/problems.ts';
import { newId } from '../../ids.ts';
import { DocumentProblems } from '../quotes/documents.ts';
import { invoiceMessages } from './messages.ts';
import * as q from './queries.ts';
import { recordInvoiceEvent } from './record-event.ts';
import { amountDue, type InvoiceRow, PAYABLE, type PaymentRow } from './serialize.ts';

export type PaymentInput = {
  amount: number | string;
  type?: PaymentRow['type'];
  /** How the money was paid (default bank_transfer); a refund through the provider takes its payment's. */
  paymentMethod?: PaymentRow['paymentMethod'];
  description: string | null;
  paidAt?: Date;
  /** A note about the payment, added to the invoice's notes. */
  notes: string | null;
  /** The provider the payment came through, with its payment id there (unique: recorded once). */
  provider: { name: 'mollie'; paymentId: string } | null;
  /** For a refund: the invoice's payment it pays back. */
  refundedPaymentId?: string;
};

const conflict = (key: 'invoice.cannot_pay' | 'invoice.cannot_refund', status: string) =>
  new ApiProblem('conflict', invoiceMessages.message(key, { status }));

/** Refunds sent to the provider and not yet paid back: they will count, so nothing may be refunded twice. */
const pendingRefunds = (payments: PaymentRow[], of?: string) =>
  payments
    .filter((p) => p.type === 'refund' && (of === undefined || p.refundedPaymentId === of))
    .filter((p) => p.status === 'pending' || (of !== undefined && p.status === 'paid'))
    .reduce((sum, p) => sum + toCents(p.amount), 0n);

/**
 * Records the payment on the locked invoice `current`: refused (409 conflict, 422 validation_failed) when the
 * invoice's state or amount due does not allow it. Answers the invoice as it is now and the payment's id (its status `paid`, `partial`,
 * `overdue` or `refunded`); a payment that settles the invoice emits `invoice.paid`.
 */
export async function recordInvoicePayment(
  tx: Tx,
  current: InvoiceRow,
  input: PaymentInput,
  serviceUrl: string,
): Promise<{ invoice: InvoiceRow; paymentId: string }> {
  const { companyId } = current;
  const amount = scaled(input.amount, 2);
  const paid = toCents(current.amountPaid);
  const due = toCents(amountDue(current));
  const refund = input.type === 'refund';
  const problems = new DocumentProblems();
  let refunded: PaymentRow | undefined;
  // A request that contradicts itself is refused whatever the invoice's state.
  if (!refund && input.refundedPaymentId !== undefined) {
    problems.add(
      '/refunded_payment_id',
      'invalid_combination',
      invoiceMessages.message('invoice.refunded_payment_only_refund'),
    );
    problems.done();
  }
  if (refund) {
    if (paid === 0n || !['paid', 'partial', 'overdue'].includes(current.status))
      throw conflict('invoice.cannot_refund', current.status);
    const payments = await q.paymentsOf(tx, companyId, current.id);
    const refundable = paid - pendingRefunds(payments);
    if (amount > refundable)
      problems.add(
        '/amount',
        'too_big',
        invoiceMessages.message('invoice.refund_above_paid', { max: fromCents(refundable) }),
      );
    if (input.refundedPaymentId !== undefined) {
      refunded = payments.find((p) => p.id === input.refundedPaymentId && p.type !== 'refund' && p.status === 'paid');
      if (!refunded)
        problems.add(
          '/refunded_payment_id',
          'invalid_reference',
          invoiceMessages.message('invoice.refunded_payment_unknown'),
        );
      else {
        const left = toCents(refunded.amount) - pendingRefunds(payments, refunded.id);
        if (amount > left)
          problems.add(
            '/amount',
            'too_big',
            invoiceMessages.message('invoice.refund_above_left', { max: fromCents(left) }),
          );
      }
    }
  } else {
    if (!PAYABLE.includes(current.status)) throw conflict('invoice.cannot_pay', current.status);
    if (amount > due)
      problems.add('/amount', 'too_big', invoiceMessages.message('invoice.payment_above_due', { max: fromCents(due) }));
    else if (input.type === 'full' && amount !== due)
      problems.add('/type', 'invalid_enum', invoiceMessages.message('invoice.full_not_due', { due: fromCents(due) }));
  }
  const paidAt = input.paidAt;
  if (paidAt && paidAt.getTime() > Date.now())
    problems.add('/paid_at', 'too_big', invoiceMessages.message('invoice.paid_in_future'));
  problems.done();

  // A refund of a payment that came through the provider is paid back by the provider: pending until it has.
  const viaProvider = refunded?.provider ?? null;
  const type = input.type ?? (amount === due ? 'full' : 'partial');
  const payment = await q.insertPayment(tx, {
    companyId,
    id: newId(),
    invoiceId: current.id,
    amount: fromCents(amount),
    type,
    status: viaProvider ? 'pending' : 'paid',
    paymentMethod: (viaProvider ? refunded?.paymentMethod : input.paymentMethod) ?? 'bank_transfer',
    description: input.description,
    paidAt: viaProvider ? null : (paidAt ?? sql`app_now()`),
    provider: viaProvider ?? input.provider?.name ?? null,
    providerPaymentId: input.provider?.paymentId ?? null,
    refundedPaymentId: refunded?.id ?? null,
    providerRefundStatus: viaProvider ? 'queued' : null,
  });
  const noteLine = input.notes
    ? `${(payment.paidAt ?? payment.createdAt).toISOString().slice(0, 10)} ${refund ? '−' : ''}${fromCents(amount)}: ${input.notes}`
    : null;
  if (viaProvider) {
    // Sent after COMMIT by the job (never while this transaction and the invoice's lock are held).
    await tx.execute(
      sql`select ${queueJob(
        'invoice_refund_send',
        { companyId, paymentId: payment.id },
        { jobKey: `invoice_refund_send:${companyId}:${payment.id}` },
      )}`,
    );
    const invoice = noteLine ? await q.updateInvoice(tx, current, { notes: withNote(current, noteLine) }) : current;
    return { invoice, paymentId: payment.id };
  }
  const invoice = await applyToInvoice(tx, current, { amount, refund, paidAt: payment.paidAt, noteLine }, serviceUrl);
  return { invoice, paymentId: payment.id };
}

const withNote = (current: InvoiceRow, line: string) => [current.notes, line].filter(Boolean).join('\n');

/**
 * Counts a payment (or a refund) now paid in the locked invoice's `amount_paid` and status: settled is `paid` (with
 * `invoice.paid`), everything paid back is `refunded` (its payments then read as refunded), else `partial` (or
 * still `overdue`).
 */
export async function applyToInvoice(
  tx: Tx,
  current: InvoiceRow,
  payment: { amount: bigint; refund: boolean; paidAt: Date | null; noteLine: string | null },
  serviceUrl: string,
): Promise<InvoiceRow> {
  const { companyId } = current;
  const { amount, refund } = payment;
  const paid = toCents(current.amountPaid);
  const nowPaid = refund ? paid - amount : paid + amount;
  const settled = !refund && nowPaid === toCents(current.total);
  const status = settled
    ? 'paid'
    : refund && nowPaid === 0n
      ? 'refunded'
      : current.status === 'overdue'
        ? 'overdue'
        : 'partial';
  if (refund && nowPaid === 0n)
    // Everything paid came back: the payments read as refunded.
    await tx
      .update(invoicePayments)
      .set({ status: 'refunded' })
      .where(
        and(
          eq(invoicePayments.companyId, companyId),
          eq(invoicePayments.invoiceId, current.id),
          eq(invoicePayments.status, 'paid'),
          sql`${invoicePayments.type} <> 'refund'`,
        ),
      );
  const updated = await q.updateInvoice(tx, current, {
    status,
    amountPaid: fromCents(nowPaid),
    paidAt: settled ? payment.paidAt : null,
    ...(payment.noteLine ? { notes: withNote(current, payment.noteLine) } : {}),
  });
  if (settled) await recordInvoiceEvent(tx, updated, 'invoice.paid', serviceUrl);
  return updated;
}
