// The e-invoice of an invoice (or the credit note of a cancelled or refunded one): GET /invoices/{invoice}/ubl as
// UBL per Peppol BIS Billing 3.0, GET /invoices/{invoice}/pdf?format=facturx as a Factur-X PDF/A-3 with the Cross
// Industry Invoice embedded, and the credit note's own page. The rows are read in one tenant transaction;
// src/einvoicing builds and writes the document from one model, so both carry the same figures and refuse the same
// missing data (409), except the Peppol addresses, which only the UBL (for the Peppol network) needs.

import { and, eq } from 'drizzle-orm';
import { customers } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { ciiXml } from '../../einvoicing/cii.ts';
import { eInvoiceOf, type Missing } from '../../einvoicing/from-invoice.ts';
import type { EInvoice } from '../../einvoicing/model.ts';
import { ublXml } from '../../einvoicing/ubl.ts';
import type { Language } from '../../http/language.ts';
import { localize } from '../../http/message-catalogue.ts';
import { documentPdf } from '../../http/pdf-render.ts';
import { ApiProblem } from '../../http/problems.ts';
import type { EmailAttachment } from '../../mail/outbox.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import { attachmentDisposition } from '../files/content-disposition.ts';
import { companyDefaults } from '../quotes/documents.ts';
import { type PdfDocument, pdfAttachment, pdfDownloadHeaders, pdfViewOf, salesDocumentPdf } from '../quotes/pdf.ts';
import { invoiceMessages } from './messages.ts';
import * as q from './queries.ts';
import type { InvoiceRow } from './serialize.ts';

/** The documents of an invoice: the invoice itself, or the credit note of a cancelled or refunded one. */
export type EDocument = 'invoice' | 'credit_note';
export type UblRequest = { document: EDocument; embedPdf: boolean };

/** The day of `at` in the company's time zone (YYYY-MM-DD). */
const dayIn = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);

/** The text of a field the e-invoice lacks, or of a stored value that breaks its rule. */
const missingDetail = (m: Missing) =>
  m.invalid
    ? invoiceMessages.message('einvoice.invalid', { field: m.field, rule: m.rule })
    : invoiceMessages.message(`einvoice.${m.field}`);
const described = (list: Missing[]) =>
  list.map(({ field, rule }) => ({ field, rule, detail: missingDetail({ field, rule }) }));

/** 409: the fields to fill in (`missing`) and the stored values to correct (`invalid`), each with its rule. */
const missingProblem = (found: Missing[]) => {
  const missing = found.filter((m) => !m.invalid);
  const invalid = found.filter((m) => m.invalid);
  return new ApiProblem('conflict', invoiceMessages.message('invoice.einvoice_incomplete'), {
    missing: described(missing),
    ...(invalid.length > 0
      ? {
          invalid: invalid.map(({ field, rule }) => ({
            field,
            rule,
            detail: missingDetail({ field, rule, invalid: true }),
          })),
        }
      : {}),
  });
};

/** The company and the customer's Peppol id beside the invoice, read in `tx`. */
async function withParties(tx: Tx, invoice: InvoiceRow) {
  const [customer] = await tx
    .select({ peppolId: customers.peppolId })
    .from(customers)
    .where(and(eq(customers.companyId, invoice.companyId), eq(customers.id, invoice.customerId)));
  return { invoice, peppolId: customer?.peppolId ?? null, company: await companyDefaults(tx, invoice.companyId) };
}
type Loaded = Awaited<ReturnType<typeof withParties>>;

/** The invoice, the company and the customer's Peppol id, read together; undefined for an unknown invoice. */
async function load(tenant: Tenant, id: string): Promise<Loaded | undefined> {
  return tenant.transaction(async (tx) => {
    const invoice = await q.findInvoice(tx, tenant.companyId, id);
    return invoice && withParties(tx, invoice);
  });
}

/**
 * Whether the invoice has a credit note: it credits an invoice the customer received and that no longer stands,
 * cancelled after it was sent or refunded in full.
 */
const credited = (invoice: InvoiceRow) =>
  (invoice.status === 'cancelled' && invoice.sentAt !== null && invoice.cancelledAt !== null) ||
  invoice.status === 'refunded';

/** The day a credit note is dated: the day its invoice was cancelled or fully refunded. */
const creditDay = (found: Loaded) =>
  dayIn(found.invoice.cancelledAt ?? found.invoice.updatedAt, found.company.timeZone);

/**
 * 409 unless the invoice has the document asked for. A credit note exists only for a credited invoice. A cancelled
 * or refunded invoice asks for nothing any more, while the invoice as issued asked for its total: its own
 * e-invoice would make a buyer's system pay, so it is refused and the credit note named instead (or, cancelled
 * before it was sent, nothing: the customer never had it).
 */
function assertDocument(invoice: InvoiceRow, document: EDocument) {
  if (document === 'credit_note') {
    if (!credited(invoice))
      throw new ApiProblem('conflict', invoiceMessages.message('invoice.no_credit_note', { status: invoice.status }));
  } else if (invoice.status === 'cancelled' || invoice.status === 'refunded') {
    throw new ApiProblem(
      'conflict',
      credited(invoice)
        ? invoiceMessages.message('invoice.einvoice_credited', { status: invoice.status })
        : invoiceMessages.message('invoice.einvoice_cancelled_unsent'),
    );
  }
}

/** The e-invoice model, or what the rules need and the data lacks. */
function eInvoiceResult(
  found: Loaded,
  kind: EDocument,
  attachment: EInvoice['attachment'],
  rules: 'peppol' | 'en16931' = 'peppol',
) {
  const { invoice, company } = found;
  return eInvoiceOf({ ...invoice, customer: { ...invoice.customer, peppol_id: found.peppolId } }, company, {
    kind,
    issueDate: kind === 'credit_note' ? creditDay(found) : undefined,
    attachment,
    rules,
  });
}

/** The e-invoice model, or 409 naming what the rules need and the data lacks. */
function eInvoice(
  found: Loaded,
  kind: EDocument,
  attachment: EInvoice['attachment'],
  rules: 'peppol' | 'en16931' = 'peppol',
): EInvoice {
  const result = eInvoiceResult(found, kind, attachment, rules);
  if (!result.ok) throw missingProblem(result.missing);
  return result.document;
}

/**
 * The credit note's own page: the invoice's lines and totals under its own title, number (`-C`) and date, naming
 * the invoice it credits; it asks for no payment. The same figures as its XML (from-invoice.ts, kind credit_note).
 */
export function creditNotePdf(doc: PdfDocument, issueDate: string): PdfDocument {
  const { subtotal, discount_amount, tax_breakdown, total } = doc.figures;
  return {
    ...doc,
    kind: 'credit_note',
    number: `${doc.number}-C`,
    issueDate,
    dueDate: null,
    figures: { subtotal, discount_amount, tax_breakdown, total },
    mark: null,
    creditedInvoice: { number: doc.number, issueDate: doc.issueDate },
  };
}

/** The page of the document asked for: the invoice's, or its credit note's. */
const pageOf = (found: Loaded, document: EDocument, pdfOf: (row: InvoiceRow) => PdfDocument) =>
  document === 'credit_note' ? creditNotePdf(pdfOf(found.invoice), creditDay(found)) : pdfOf(found.invoice);

const fileName = (number: string, extension: string) =>
  `${number.replace(/[^A-Za-z0-9._-]/g, '_') || 'document'}.${extension}`;

/** The UBL document of an invoice with its file name, or undefined for an unknown invoice. */
export async function invoiceUbl(
  tenant: Tenant,
  id: string,
  request: UblRequest,
  pdfOf: (row: InvoiceRow) => PdfDocument,
  renderer: PdfRenderer,
) {
  const found = await load(tenant, id);
  if (!found) return undefined;
  assertDocument(found.invoice, request.document);
  let attachment: EInvoice['attachment'] = null;
  if (request.embedPdf) {
    const page = pageOf(found, request.document, pdfOf);
    const pdf = await pdfAttachment(page, found.company, renderer, { tenant });
    attachment = {
      filename: pdf.filename,
      mimeCode: 'application/pdf',
      base64: Buffer.from(pdf.content).toString('base64'),
    };
  }
  const document = eInvoice(found, request.document, attachment);
  return { xml: ublXml(document), filename: fileName(document.number, 'xml') };
}

/**
 * The PDF of an invoice's document (the invoice or its credit note), or undefined for an unknown invoice: the page
 * as printed, or as Factur-X (PDF/A-3b) with the same document's CII embedded, so that page and XML are one
 * document. Factur-X follows EN 16931 (no Peppol addresses needed).
 */
export async function invoiceDocumentPdf(
  tenant: Tenant,
  id: string,
  request: { document: EDocument; format: 'pdf' | 'facturx' },
  pdfOf: (row: InvoiceRow) => PdfDocument,
  renderer: PdfRenderer,
) {
  const found = await load(tenant, id);
  if (!found) return undefined;
  const page = pageOf(found, request.document, pdfOf);
  if (request.format === 'pdf') {
    if (request.document === 'credit_note') assertDocument(found.invoice, 'credit_note');
    const { pdf } = await salesDocumentPdf(page, found.company, renderer, { tenant });
    return { pdf: new Uint8Array(pdf), headers: pdfDownloadHeaders(page, pdf) };
  }
  assertDocument(found.invoice, request.document);
  const document = eInvoice(found, request.document, null, 'en16931');
  const view = { ...pdfViewOf(page, found.company), facturX: { xml: ciiXml(document) } };
  const { pdf } = await documentPdf(renderer, { tenant }, { documentId: page.id, variant: 'facturx', view });
  return { pdf: new Uint8Array(pdf), headers: pdfDownloadHeaders(page, pdf) };
}

/** What the send's answer says of the e-invoice (meta.einvoice): attached, or why not and what is missing. */
export type SentEInvoice = {
  attached: boolean;
  reason: 'not_wanted' | 'incomplete' | null;
  missing: { field: Missing['field']; rule: string; detail: string }[];
};

/**
 * The UBL that the email of a sent invoice carries, read in the send's transaction: as the company's
 * `einvoice_attachment` says (`auto`: when the invoice's customer has a VAT number). An invoice the rules refuse is
 * still sent, without it: `einvoice` says why, its texts in `language` (the request's).
 */
export async function emailedUbl(
  tx: Tx,
  invoice: InvoiceRow,
  language: Language,
): Promise<{ attachment: EmailAttachment | null; einvoice: SentEInvoice }> {
  const found = await withParties(tx, invoice);
  const setting = found.company.einvoiceAttachment;
  const wanted = setting === 'always' || (setting === 'auto' && Boolean(invoice.customer.vat_number?.trim()));
  if (!wanted) return { attachment: null, einvoice: { attached: false, reason: 'not_wanted', missing: [] } };
  const result = eInvoiceResult(found, 'invoice', null);
  if (!result.ok) {
    const missing = result.missing.map(({ field, rule, invalid }) => ({
      field,
      rule,
      detail: localize(missingDetail({ field, rule, invalid }), language),
    }));
    return { attachment: null, einvoice: { attached: false, reason: 'incomplete', missing } };
  }
  const xml = ublXml(result.document);
  return {
    attachment: {
      filename: fileName(result.document.number, 'xml'),
      contentType: 'application/xml',
      content: Buffer.from(xml),
    },
    einvoice: { attached: true, reason: null, missing: [] },
  };
}

export const ublHeaders = (filename: string, xml: string) => ({
  'Content-Type': 'application/xml; charset=utf-8',
  'Content-Disposition': attachmentDisposition(filename),
  'Cache-Control': 'private, no-store',
  'Content-Length': String(Buffer.byteLength(xml)),
});
