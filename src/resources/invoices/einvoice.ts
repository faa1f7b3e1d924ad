// The e-invoice of an invoice (or the credit note of a cancelled or refunded one): GET /invoices/{invoice}/ubl as
// UBL per Peppol BIS Billing 3.0, GET /invoices/{invoice}/pdf?format=facturx as a Factur-X PDF/A-3 with the Cross
// Industry Invoice embedded. The rows are read in one tenant transaction; src/einvoicing builds and writes the
// document from one model, so both carry the same figures and refuse the same missing data (409).

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
import { type PdfDocument, pdfAttachment, pdfDownloadHeaders, pdfViewOf } from '../quotes/pdf.ts';
import { invoiceMessages } from './messages.ts';
import * as q from './queries.ts';
import type { InvoiceRow } from './serialize.ts';

export type UblRequest = { document: 'invoice' | 'credit_note'; embedPdf: boolean };

/** The day of `at` in the company's time zone (YYYY-MM-DD). */
const dayIn = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);

const missingProblem = (missing: Missing[]) =>
  new ApiProblem('conflict', invoiceMessages.message('invoice.einvoice_incomplete'), {
    missing: missing.map((m) => ({
      ...m,
      detail: invoiceMessages.message(`einvoice.${m.field}`),
    })),
  });

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

/** The e-invoice model, or what the rules need and the data lacks. */
function eInvoiceResult(found: Loaded, kind: 'invoice' | 'credit_note', attachment: EInvoice['attachment']) {
  const { invoice, company } = found;
  // A credit note is dated the day its invoice was cancelled or fully refunded.
  const issueDate =
    kind === 'credit_note' ? dayIn(invoice.cancelledAt ?? invoice.updatedAt, company.timeZone) : undefined;
  return eInvoiceOf({ ...invoice, customer: { ...invoice.customer, peppol_id: found.peppolId } }, company, {
    kind,
    issueDate,
    attachment,
  });
}

/** The e-invoice model, or 409 naming what the rules need and the data lacks. */
function eInvoice(found: Loaded, kind: 'invoice' | 'credit_note', attachment: EInvoice['attachment']): EInvoice {
  const result = eInvoiceResult(found, kind, attachment);
  if (!result.ok) throw missingProblem(result.missing);
  return result.document;
}

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
  const { invoice } = found;
  if (request.document === 'credit_note' && !credited(invoice))
    throw new ApiProblem('conflict', invoiceMessages.message('invoice.no_credit_note', { status: invoice.status }));
  let attachment: EInvoice['attachment'] = null;
  if (request.embedPdf) {
    const pdf = await pdfAttachment(pdfOf(invoice), found.company, renderer, { tenant });
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
 * The Factur-X PDF of an invoice (the PDF the customer gets, as PDF/A-3b with the CII embedded), or undefined for
 * an unknown invoice. A cancelled-after-sending or refunded invoice embeds its credit note (type 381).
 */
export async function invoiceFacturX(
  tenant: Tenant,
  id: string,
  pdfOf: (row: InvoiceRow) => PdfDocument,
  renderer: PdfRenderer,
) {
  const found = await load(tenant, id);
  if (!found) return undefined;
  const document = eInvoice(found, credited(found.invoice) ? 'credit_note' : 'invoice', null);
  const doc = pdfOf(found.invoice);
  const view = { ...pdfViewOf(doc, found.company), facturX: { xml: ciiXml(document) } };
  const { pdf } = await documentPdf(renderer, { tenant }, { documentId: doc.id, variant: 'facturx', view });
  return { pdf: new Uint8Array(pdf), headers: pdfDownloadHeaders(doc, pdf) };
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
    const missing = result.missing.map((m) => ({
      ...m,
      detail: localize(invoiceMessages.message(`einvoice.${m.field}`), language),
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
