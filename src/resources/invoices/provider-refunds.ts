// Refunds of payments that came through the company's payment provider (issue 52, point 4). *Record a payment*
// with `refunded_payment_id` records the refund `pending` (`queued`) and queues invoice_refund_send in the same
// transaction (payments.ts); the job reads the refund in a short transaction, asks the provider outside any
// transaction, and records the answer in a second one under the invoice's lock. The refund's id is the provider's
// idempotency key and is in the refund's metadata (looked for first), so a retried job never pays back twice.
// `refunded`: the refund counts in the invoice (applyToInvoice); `failed`: kept with the provider's reason and
// `invoice.refund_failed`; still pending: looked at again later (Mollie pays back within days).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queueJob } from '../../db/job-queue.ts';
import { invoicePayments, invoices } from '../../db/schema/index.ts';
import { type Tx, withTenant } from '../../db/tenant.ts';
import { toCents } from '../../domain/money.ts';
import { paymentAccountOf } from '../../payments/accounts.ts';
import { type ProviderRefund, ProviderRefused } from '../../payments/provider.ts';
import { applyToInvoice } from './payments.ts';
import type { ProviderPaymentDeps } from './provider-payments.ts';
import * as q from './queries.ts';
import { recordInvoiceEvent } from './record-event.ts';
import type { PaymentRow } from './serialize.ts';

/** How often a refund the provider has accepted but not yet paid back is looked at again, and for how long. */
const RECHECK_MS = 60 * 60_000;
const RECHECK_DAYS = 30;

export type RefundOutcome = 'unknown' | 'done' | 'pending' | 'refunded' | 'failed';

type Answer = ProviderRefund | { status: 'failed'; reason: string };

const paymentKey = (companyId: string, id: string) =>
  and(eq(invoicePayments.companyId, companyId), eq(invoicePayments.id, id));

/** Queues the send (or the next look) of a refund: one job per refund. */
export const queueRefundSend = (companyId: string, paymentId: string, runAt?: Date) =>
  sql`select ${queueJob(
    'invoice_refund_send',
    { companyId, paymentId },
    { jobKey: `invoice_refund_send:${companyId}:${paymentId}`, runAt },
  )}`;

/**
 * A provider payment's webhook may be about one of its refunds: its refunds still pending are looked at now rather
 * than at their next hourly look. Answers how many were queued.
 */
export async function queuePendingRefundsOf(
  deps: Pick<ProviderPaymentDeps, 'db'>,
  companyId: string,
  providerPaymentId: string,
): Promise<number> {
  return withTenant(deps.db, companyId, async (tx) => {
    const paid = tx
      .select({ id: invoicePayments.id })
      .from(invoicePayments)
      .where(and(eq(invoicePayments.companyId, companyId), eq(invoicePayments.providerPaymentId, providerPaymentId)));
    const pending = await tx
      .select({ id: invoicePayments.id })
      .from(invoicePayments)
      .where(
        and(
          eq(invoicePayments.companyId, companyId),
          inArray(invoicePayments.refundedPaymentId, paid),
          eq(invoicePayments.status, 'pending'),
        ),
      );
    for (const refund of pending) await tx.execute(queueRefundSend(companyId, refund.id));
    return pending.length;
  });
}

/**
 * Sends the pending refund `paymentId` to the provider, or asks how it stands, and records the answer.
 * ProviderUnavailable (thrown on) leaves it pending for the job's retry.
 */
export async function sendProviderRefund(
  deps: ProviderPaymentDeps,
  companyId: string,
  paymentId: string,
): Promise<RefundOutcome> {
  const box = await deps.paymentKeys();
  const found = await withTenant(deps.db, companyId, async (tx) => {
    const [refund] = await tx.select().from(invoicePayments).where(paymentKey(companyId, paymentId));
    if (!refund || refund.status !== 'pending' || !refund.refundedPaymentId) return undefined;
    const [paid] = await tx.select().from(invoicePayments).where(paymentKey(companyId, refund.refundedPaymentId));
    const [invoice] = await tx
      .select({ currency: invoices.currency })
      .from(invoices)
      .where(and(eq(invoices.companyId, companyId), eq(invoices.id, refund.invoiceId)));
    const account = await paymentAccountOf(tx, companyId, box);
    return { refund, providerPaymentId: paid?.providerPaymentId ?? null, currency: invoice?.currency, account };
  });
  if (!found) return 'unknown';
  const { refund, providerPaymentId, currency, account } = found;
  let answer: Answer;
  if (!account || !providerPaymentId)
    answer = { status: 'failed', reason: 'The payment provider is no longer connected.' };
  else
    try {
      answer = refund.providerRefundId
        ? ((await account.provider.getRefund(providerPaymentId, refund.providerRefundId)) ?? {
            status: 'failed',
            reason: `The provider no longer knows refund ${refund.providerRefundId}.`,
          })
        : await account.provider.refund({
            paymentId: providerPaymentId,
            amount: refund.amount,
            currency,
            description: refund.description ?? `Refund ${refund.id}`,
            refundId: refund.id,
          });
    } catch (error) {
      if (!(error instanceof ProviderRefused)) throw error;
      deps.log.warn({ companyId, paymentId, err: error.message }, 'refund: the payment provider refused it');
      answer = { status: 'failed', reason: error.reason };
    }
  return withTenant(deps.db, companyId, (tx) => recordAnswer(tx, deps, refund, answer));
}

/** The provider's answer on the locked refund and invoice (another run may have recorded it already). */
async function recordAnswer(
  tx: Tx,
  deps: ProviderPaymentDeps,
  sent: PaymentRow,
  answer: Answer,
): Promise<RefundOutcome> {
  const invoice = await q.lockInvoice(tx, sent.companyId, sent.invoiceId);
  const [refund] = await tx.select().from(invoicePayments).where(paymentKey(sent.companyId, sent.id)).for('update');
  if (!invoice || !refund) return 'unknown';
  if (refund.status !== 'pending') return 'done';
  const providerRefundId = 'id' in answer ? answer.id : refund.providerRefundId;
  if (answer.status === 'pending') {
    await tx
      .update(invoicePayments)
      .set({ providerRefundId, providerRefundStatus: 'pending' })
      .where(paymentKey(refund.companyId, refund.id));
    if (Date.now() - refund.createdAt.getTime() < RECHECK_DAYS * 86_400_000)
      await tx.execute(queueRefundSend(refund.companyId, refund.id, new Date(Date.now() + RECHECK_MS)));
    else deps.log.warn({ companyId: refund.companyId, paymentId: refund.id }, 'refund: still pending after 30 days');
    return 'pending';
  }
  if (answer.status === 'failed') {
    await tx
      .update(invoicePayments)
      .set({
        status: 'failed',
        providerRefundId,
        providerRefundStatus: 'failed',
        failureReason: 'reason' in answer ? answer.reason.slice(0, 500) : 'The provider failed or canceled the refund.',
      })
      .where(paymentKey(refund.companyId, refund.id));
    await recordInvoiceEvent(tx, invoice, 'invoice.refund_failed', deps.serviceUrl);
    return 'failed';
  }
  const [done] = await tx
    .update(invoicePayments)
    .set({ status: 'paid', paidAt: sql`app_now()`, providerRefundId, providerRefundStatus: 'refunded' })
    .where(paymentKey(refund.companyId, refund.id))
    .returning();
  await applyToInvoice(
    tx,
    invoice,
    { amount: toCents(refund.amount), refund: true, paidAt: done?.paidAt ?? null, noteLine: null },
    deps.serviceUrl,
  );
  return 'refunded';
}
