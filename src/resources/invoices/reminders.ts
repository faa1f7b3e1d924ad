// Invoice reminders (issue 52, point 6), in two steps. The daily job schedules: each overdue invoice that takes
// reminders gets a row for the latest step of its company's schedule it has reached (one row per invoice and step:
// a second or concurrent run adds nothing) with a job to send it, in the job's tenant transaction. The job sends:
// with the invoice locked, so no payment or cancellation commits in between, it either writes the email to the
// outbox (PDF, UBL where the company sends it, amount due, pay-now link) and emits invoice.reminder_sent, or
// records why it was skipped. The outbox sends the email once that commits, and checks the invoice once more as it
// does (reminderEmailHold): a reminder held up by an unreachable mail server until the invoice was paid is withheld.
import { and, eq, sql } from 'drizzle-orm';
import { queueJob } from '../../db/job-queue.ts';
import { companies, invoiceReminders, invoices } from '../../db/schema/index.ts';
import { sendUntilCommit, type Tx } from '../../db/tenant.ts';
import { toCents } from '../../domain/money.ts';
import type { DocumentLinks } from '../../files/document-links.ts';
import { countOutgoingMessage } from '../../http/outgoing-limit.ts';
import { newId } from '../../ids.ts';
import { queueEmail } from '../../mail/outbox.ts';
import { COMPANY_SCOPE } from '../../mail/outgoing-limit.ts';
import { hasPaymentProvider } from '../../payments/accounts.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import { companyDefaults } from '../quotes/documents.ts';
import { quoteMessages } from '../quotes/messages.ts';
import { pdfAttachment } from '../quotes/pdf.ts';
import { emailedUbl } from './einvoice.ts';
import { invoicePdf } from './pdf.ts';
import * as q from './queries.ts';
import { recordInvoiceEvent } from './record-event.ts';
import { reminderEmail } from './reminder-email.ts';
import { amountDue, type InvoiceRow, payUrlOf, type ReminderRow } from './serialize.ts';

/**
 * Schedules the reminders due on the company's date at `now` (in its time zone): for each overdue invoice that takes
 * reminders, the latest step of the schedule it has reached, unless it had that step or a later one. Returns the
 * rows made, each with its send job queued in `tx`.
 */
export async function scheduleReminders(tx: Tx, companyId: string, now: Date): Promise<ReminderRow[]> {
  // The schedule and the time zone first, then the invoices with them as values: each statement then names the one
  // company it reads (docs/scaling.md), which a join to the company row would not.
  const [company] = await tx
    .select({ steps: companies.invoiceReminderSteps, timeZone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company || company.steps.length === 0) return [];
  // Each overdue invoice's days past its due date on the company's date, and the latest step it already had.
  const overdue = await tx.execute<{ invoice_id: string; days_overdue: number; last_step: number | null }>(sql`
    select i.id as invoice_id,
      (${now.toISOString()}::timestamptz at time zone ${company.timeZone})::date - i.due_date as days_overdue,
      (select max(r.days_after_due) from ${invoiceReminders} r
        where r.company_id = ${companyId} and r.invoice_id = i.id) as last_step
    from ${invoices} i
    where i.company_id = ${companyId} and i.status = 'overdue' and i.reminders_enabled`);
  const steps = [...company.steps].sort((a, b) => b.days_after_due - a.days_after_due);
  const due = overdue.flatMap((row) => {
    const step = steps.find((s) => s.days_after_due <= row.days_overdue);
    if (!step || (row.last_step !== null && row.last_step >= step.days_after_due)) return [];
    return [{ invoice_id: row.invoice_id, days_after_due: step.days_after_due, kind: step.kind }];
  });
  if (due.length === 0) return [];
  // A concurrent run that inserted the same step first leaves this one nothing to insert, hence no second job.
  const made = await tx
    .insert(invoiceReminders)
    .values(
      due.map((row) => ({
        companyId,
        id: newId(),
        invoiceId: row.invoice_id,
        daysAfterDue: row.days_after_due,
        kind: row.kind,
      })),
    )
    .onConflictDoNothing()
    .returning();
  for (const reminder of made)
    await sendUntilCommit(
      tx,
      tx.execute(
        sql`select ${queueJob('invoice_reminder_send', { companyId, reminderId: reminder.id }, { jobKey: `reminder:${reminder.id}` })}`,
      ),
    );
  return made;
}

/** Why a reminder may not go out now, or null: the invoice is settled, cancelled, refunded or opted out. */
function skipReason(invoice: InvoiceRow): ReminderRow['skippedReason'] {
  if (invoice.status === 'cancelled' || invoice.status === 'refunded') return invoice.status;
  if (invoice.status === 'paid' || toCents(amountDue(invoice)) <= 0n) return 'paid';
  if (!invoice.remindersEnabled) return 'opted_out';
  return null;
}

export type ReminderSending = { pdfRenderer: PdfRenderer; documentLinks: DocumentLinks; serviceUrl: string };

/**
 * Sends one scheduled reminder in `tx` (the company's): `sent`, its email in the outbox and its event, or `skipped`
 * with its reason. A reminder no longer scheduled (sent, skipped: a retried job) is left as it is.
 */
export async function sendReminder(
  tx: Tx,
  companyId: string,
  reminderId: string,
  deps: ReminderSending,
): Promise<ReminderRow['status'] | null> {
  const key = and(eq(invoiceReminders.companyId, companyId), eq(invoiceReminders.id, reminderId));
  const [reminder] = await tx.select().from(invoiceReminders).where(key);
  if (!reminder) return null;
  const company = await companyDefaults(tx, companyId);
  const documentsOf = async (of: InvoiceRow) => ({
    version: of.version,
    pdf: await pdfAttachment(invoicePdf(of), company, deps.pdfRenderer, { tx, companyId }),
    ubl: await emailedUbl(tx, of, of.language),
  });
  // The PDF (about a second) is rendered before the invoice's lock, so that a payment of the invoice does not wait
  // for it; rendered again under the lock only if the invoice changed meanwhile.
  const before = await q.findInvoice(tx, companyId, reminder.invoiceId);
  let documents = before && skipReason(before) === null ? await documentsOf(before) : null;
  // Then the invoice's lock, as every change of the invoice takes it: a payment waits for this send, or this send
  // sees the payment.
  const invoice = await q.lockInvoice(tx, companyId, reminder.invoiceId);
  const [current] = await tx.select().from(invoiceReminders).where(key).for('update');
  if (!invoice || !current || current.status !== 'scheduled') return current?.status ?? null;
  const reason = skipReason(invoice);
  const to = invoice.customer.email;
  if (reason !== null || !to) {
    await tx
      .update(invoiceReminders)
      .set({ status: 'skipped', skippedReason: reason ?? 'no_email', skippedAt: sql`app_now()` })
      .where(key);
    return 'skipped';
  }
  if (documents?.version !== invoice.version) documents = await documentsOf(invoice);
  const { pdf, ubl } = documents;
  const publicUrl = deps.documentLinks.url({ kind: 'invoice', companyId, documentId: invoice.id });
  const payUrl = (await hasPaymentProvider(tx, companyId)) ? payUrlOf(publicUrl) : null;
  // Past the company's hourly limit this throws: the job fails, and Graphile Worker tries again later.
  await countOutgoingMessage(tx, companyId, [COMPANY_SCOPE], ({ limit }) =>
    quoteMessages.message('document.outgoing_limit', { limit }),
  );
  const email = reminderEmail({ ...invoice, amountDue: amountDue(invoice) }, current.kind, company, {
    publicUrl,
    payUrl,
  });
  const queued = await queueEmail(tx, companyId, {
    to: [to],
    ...email,
    kind: 'invoice_reminder',
    attachments: ubl.attachment ? [pdf, ubl.attachment] : [pdf],
  });
  await tx
    .update(invoiceReminders)
    .set({ status: 'sent', sentAt: sql`app_now()`, emailId: queued?.id ?? null })
    .where(key);
  await recordInvoiceEvent(tx, invoice, 'invoice.reminder_sent', deps.serviceUrl);
  return 'sent';
}

/**
 * The outbox's last check of a reminder's email (EmailHolds, src/mail/jobs/email-send.ts), when the email is about to
 * leave, which may be long after it was composed (the mail server unreachable meanwhile): a reason to withhold it when
 * its invoice was paid, cancelled, refunded or opted out since; the reminder then becomes `skipped` after all.
 */
export async function reminderEmailHold(tx: Tx, email: { companyId: string; id: string }): Promise<string | null> {
  const [reminder] = await tx
    .select()
    .from(invoiceReminders)
    .where(and(eq(invoiceReminders.companyId, email.companyId), eq(invoiceReminders.emailId, email.id)));
  if (!reminder) return null;
  const invoice = await q.lockInvoice(tx, email.companyId, reminder.invoiceId);
  const reason = invoice && skipReason(invoice);
  if (!reason) return null;
  await tx
    .update(invoiceReminders)
    .set({ status: 'skipped', skippedReason: reason, skippedAt: sql`app_now()` })
    .where(and(eq(invoiceReminders.companyId, email.companyId), eq(invoiceReminders.id, reminder.id)));
  return `invoice reminder withheld: the invoice is ${reason === 'opted_out' ? 'opted out of reminders' : reason}`;
}
