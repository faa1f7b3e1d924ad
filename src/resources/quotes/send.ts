// Sending a quote or an invoice, one way for both: the email (the standard text in the document's language or
// the request's own, its PDF attached) is queued in the outbox within the company's outgoing-message limit, in
// the caller's transaction, so the send, its state change and its event commit or roll back together.
import type { DocumentCustomerCopy } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { countOutgoingMessage } from '../../http/outgoing-limit.ts';
import { type EmailAttachment, queueEmail } from '../../mail/outbox.ts';
import { COMPANY_SCOPE } from '../../mail/outgoing-limit.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import { companyDefaults, DocumentProblems } from './documents.ts';
import { documentEmail } from './email.ts';
import { quoteMessages } from './messages.ts';
import { type PdfDocument, pdfAttachment } from './pdf.ts';

/** What a send request may give: other recipients, copies, its own subject or message. */
export type SendBody = { to?: string; cc?: string[]; subject?: string; message?: string };

/** The recipients of a send: `to` or the customer copy's email (422 without either), and the copies. */
function recipientsOf(body: SendBody, customer: DocumentCustomerCopy): string[] {
  const to = body.to ?? customer.email;
  if (!to) {
    const problems = new DocumentProblems();
    problems.add('/to', 'required', quoteMessages.message('document.no_recipient'));
    problems.done();
  }
  return [to as string, ...(body.cc ?? [])];
}

/**
 * Queues the email of `doc` with its PDF (then `more` attachments: an invoice's UBL) and the link to its online
 * page (`publicUrl`) in `tx`, after counting it in the company's outgoing-message limit (shared with the inbox):
 * past the limit it answers 429 rate_limited with Retry-After, and the caller's transaction (with its count) rolls
 * back. Answers the attached files' names.
 */
export async function sendSalesDocument(
  tx: Tx,
  companyId: string,
  doc: PdfDocument,
  body: SendBody,
  renderer: PdfRenderer,
  publicUrl: string,
  more: readonly EmailAttachment[] = [],
  payUrl: string | null = null,
): Promise<string[]> {
  // A credit note has a page of its own (GET /invoices/{invoice}/pdf?document=credit_note) but no email.
  const kind = doc.kind;
  if (kind === 'credit_note') throw new Error('a credit note is not sent by email');
  const company = await companyDefaults(tx, companyId);
  const to = recipientsOf(body, doc.customer);
  const attachment = await pdfAttachment(doc, company, renderer, { tx, companyId });
  await countOutgoingMessage(tx, companyId, [COMPANY_SCOPE], ({ limit }) =>
    quoteMessages.message('document.outgoing_limit', { limit }),
  );
  const attachments = [attachment, ...more];
  await queueEmail(tx, companyId, {
    to,
    ...documentEmail({ ...doc, kind, publicUrl, payUrl }, company, body),
    kind: `${kind}_sent`,
    attachments,
  });
  return attachments.map((a) => a.filename);
}
