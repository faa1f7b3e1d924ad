// Recording a payment (or a refund) on an invoice: one implementation for *Record a payment* (the API) and for a
// payment that came through the company's payment provider (provider-payments.ts), so both change the invoice and
// emit events alike. The caller holds the invoice's lock and its transaction.
import { and, eq, sql } from 'drizzle-orm';
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
  paymentMethod: PaymentRow['paymentMethod'];
  description: string | null;
  paidAt?: Date;
  /** A note about the payment, added to the invoice's notes. */
  notes: string | null;
  /** The provider the payment came through, with its payment id there (unique: recorded once). */
  provider: { name: 'mollie'; paymentId: string } | null;
};

const conflict = (key: 'invoice.cannot_pay' | 'invoice.cannot_refund', status: string) =>
  new ApiProblem('conflict', invoiceMessages.message(key, { status }));

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
  if (refund) {
    if (paid === 0n || !['paid', 'partial', 'overdue'].includes(current.status))
      throw conflict('invoice.cannot_refund', current.status);
    if (amount > paid)
      problems.add(
        '/amount',
        'too_big',
        invoiceMessages.message('invoice.refund_above_paid', { max: fromCents(paid) }),
      );
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

  const type = input.type ?? (amount === due ? 'full' : 'partial');
  const payment = await q.insertPayment(tx, {
    companyId,
    id: newId(),
    invoiceId: current.id,
    amount: fromCents(amount),
    type,
    status: 'paid',
    paymentMethod: input.paymentMethod,
    description: input.description,
    paidAt: paidAt ?? sql`app_now()`,
    provider: input.provider?.name ?? null,
    providerPaymentId: input.provider?.paymentId ?? null,
  });
  const nowPaid = refund ? paid - amount : paid + amount;
  const settled = !refund && nowPaid === toCents(current.total);
  const status = settled
    ? 'paid'
    : refund && nowPaid === 0n
      ? 'refunded'
      : current.status === 'overdue'
        ? 'overdue'
        : 'partial';
  const noteLine = input.notes
    ? `${(payment.paidAt ?? new Date()).toISOString().slice(0, 10)} ${refund ? '−' : ''}${fromCents(amount)}: ${input.notes}`
    : null;
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
    ...(noteLine ? { notes: [current.notes, noteLine].filter(Boolean).join('\n') } : {}),
  });
  if (settled) await recordInvoiceEvent(tx, updated, 'invoice.paid', serviceUrl);
  return { invoice: updated, paymentId: payment.id };
}
