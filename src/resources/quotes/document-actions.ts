// The actions a quote and an invoice share, one implementation for both, given what differs by the resource
// (SalesDocumentResource): the link to the online page a key may see, the PDF download and the send.
import type { Context } from 'hono';
import type { Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion, type Lockable } from '../../http/etag.ts';
import { runCreation } from '../../http/idempotency.ts';
import type { ApiProblem } from '../../http/problems.ts';
import type { EmailAttachment } from '../../mail/outbox.ts';
import { type PdfDocument, pdfDownload } from './pdf.ts';
import { type SendBody, sendSalesDocument } from './send.ts';

type DocumentRow = { id: string; companyId: string; version: number; status: string };

/** What the shared actions need of a resource: its kind, its write scope, and how to read, lock and print it. */
export type SalesDocumentResource<Row extends DocumentRow> = Lockable<Row> & {
  kind: 'quote' | 'invoice';
  /** The scope that sends the document: only a key with it sees the online page, which shows the customer's details. */
  writeScope: 'quotes.write' | 'invoices.write';
  find: (tx: Tx, companyId: string, id: string) => Promise<Row | undefined>;
  pdf: (row: Row) => PdfDocument;
};

/** The online page's address for this key: null without the resource's write scope (never in events). */
export const publicLink =
  <Row extends DocumentRow>(c: Context<AppEnv>, resource: SalesDocumentResource<Row>) =>
  (row: Row): string | null =>
    c.get('auth').scopes.has(resource.writeScope)
      ? c.get('deps').documentLinks.url({ kind: resource.kind, companyId: row.companyId, documentId: row.id })
      : null;

/** The document's PDF download (src/resources/quotes/pdf.ts: pdfDownload); 404 without the document. */
export async function documentPdfDownload<Row extends DocumentRow>(
  c: Context<AppEnv>,
  resource: SalesDocumentResource<Row>,
  id: string,
) {
  const tenant = c.get('tenant');
  const download = await pdfDownload(tenant, c.get('deps').pdfRenderer, async (tx) => {
    const row = await resource.find(tx, tenant.companyId, id);
    return row && resource.pdf(row);
  });
  if (!download) throw resource.notFound();
  return download;
}

/** What differs in a send: which states may be sent, what is attached besides the PDF, what a first send changes. */
export type SendSteps<Row extends DocumentRow, Extra extends { attachments: readonly EmailAttachment[] }, B> = {
  /** The conflict to answer when the document's state may not be sent, else undefined. */
  refusal: (row: Row) => ApiProblem | undefined;
  /** Files besides the PDF (an invoice's UBL), composed in the transaction so the email that commits is complete. */
  extra: (tx: Tx, row: Row) => Promise<Extra>;
  /** "Pay now" for the email, given the online page's address (an invoice of a company with a payment provider). */
  payUrl?: (tx: Tx, row: Row, publicUrl: string) => Promise<string | null>;
  /** The state change and event of a send that changes the state; the row as it is otherwise. */
  markSent: (tx: Tx, row: Row) => Promise<Row>;
  /** The answer's body, given the attached files' names. */
  answer: (tx: Tx, row: Row, sent: { attachments: string[]; extra: Extra }) => Promise<B>;
};

/**
 * Sends the document `id` as one creation (an Idempotency-Key replays it): locked behind If-Match, refused in a
 * state that may not be sent, its email with its PDF queued (sendSalesDocument), then marked sent when the send
 * changes its state, all in one transaction.
 */
export function sendDocument<Row extends DocumentRow, Extra extends { attachments: readonly EmailAttachment[] }, B>(
  c: Context<AppEnv>,
  resource: SalesDocumentResource<Row>,
  id: string,
  body: SendBody,
  steps: SendSteps<Row, Extra, B>,
) {
  const expected = expectedVersion(c);
  const { companyId } = c.get('tenant');
  const deps = c.get('deps');
  return runCreation(c, async (tx) => {
    const current = await resource.lock(tx, companyId, id);
    checkIfMatch(current, expected, resource.notFound);
    const refusal = steps.refusal(current);
    if (refusal) throw refusal;
    const extra = await steps.extra(tx, current);
    const publicUrl = deps.documentLinks.url({ kind: resource.kind, companyId, documentId: current.id });
    const pdf = resource.pdf(current);
    const attachments = await sendSalesDocument(
      tx,
      companyId,
      pdf,
      body,
      deps.pdfRenderer,
      publicUrl,
      extra.attachments,
      (await steps.payUrl?.(tx, current, publicUrl)) ?? null,
    );
    const row = await steps.markSent(tx, current);
    return {
      status: 200 as const,
      body: await steps.answer(tx, row, { attachments, extra }),
      headers: { ETag: etagOf(row.version) },
    };
  });
}
