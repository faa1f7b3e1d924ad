// The PDF of a quote or an invoice (src/pdf/document-pdf.ts renders it): the company, the customer copy, the
// lines as stored, the figures exactly as the API answers them (quoteFigures, invoiceFigures), the document's
// language.
import type { DocumentCustomerCopy, DocumentLine } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { exemptionText } from '../../domain/vat-exemption.ts';
import { reverseChargeApplies } from '../../einvoicing/from-invoice.ts';
import { documentPdf, type PdfOptions, type PdfOwner } from '../../http/pdf-render.ts';
import type { EmailAttachment } from '../../mail/outbox.ts';
import type { DocumentPdfView, InvoiceMark } from '../../pdf/document-view.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import { attachmentDisposition } from '../files/content-disposition.ts';
import { type CompanyDefaults, companyDefaults } from './documents.ts';
import { type QuoteRow, quoteFigures, type TaxBreakdown } from './serialize.ts';

export type PdfDocument = {
  id: string;
  kind: 'quote' | 'invoice' | 'credit_note';
  number: string;
  title: string;
  /** Printed above the lines (quotes and invoices). */
  description: string | null;
  /** Quotes: the opening text, printed above the description. */
  introText?: string | null;
  language: 'nl' | 'en' | 'de' | 'fr';
  currency: string;
  issueDate: string;
  dueDate?: string | null;
  validUntil?: string | null;
  customer: DocumentCustomerCopy;
  items: DocumentLine[];
  hideLineAmounts: boolean;
  /** The total the email's text names (the same as `figures.total`). */
  total: string;
  /** The figures of the API's answer, printed as they are (nothing is recalculated for the PDF). */
  figures: {
    subtotal: string;
    discount_amount: string;
    tax_breakdown: TaxBreakdown;
    total: string;
    /** Invoices only. */
    amount_paid?: string;
    amount_due?: string;
  };
  /** Credit notes: the invoice it credits in full. */
  creditedInvoice?: { number: string; issueDate: string } | null;
  /** Invoices: what the PDF marks it as (cancelled, refunded, paid, partly paid), or null. */
  mark?: InvoiceMark | null;
  termsConditions: string | null;
  outroText: string | null;
};

/** What the PDF of a quote shows (an invoice's: src/resources/invoices/pdf.ts). */
export const quotePdf = (row: QuoteRow): PdfDocument => ({
  ...row,
  kind: 'quote',
  issueDate: row.quoteDate,
  validUntil: row.validUntil,
  figures: quoteFigures(row),
});

/** The company as a document's letterhead shows it (quotes, invoices, work orders). */
export const letterheadOf = (company: CompanyDefaults): DocumentPdfView['company'] => ({
  name: company.name,
  legalName: company.legalName,
  address: { line: company.address, postalCode: company.postalCode, city: company.city, country: company.country },
  vatNumber: company.vatNumber,
  cocNumber: company.cocNumber,
  iban: company.iban,
  email: company.email,
  phone: company.phone,
});

export function pdfViewOf(doc: PdfDocument, company: CompanyDefaults): DocumentPdfView {
  const { figures } = doc;
  return {
    kind: doc.kind,
    number: doc.number,
    language: doc.language,
    currency: doc.currency,
    timeZone: company.timeZone,
    title: doc.title,
    introText: doc.introText ?? null,
    description: doc.description,
    issueDate: doc.issueDate,
    dueDate: doc.dueDate ?? null,
    validUntil: doc.validUntil ?? null,
    creditedInvoice: doc.creditedInvoice ?? null,
    company: letterheadOf(company),
    customer: {
      name: doc.customer.name,
      companyName: doc.customer.company_name,
      address: {
        line: doc.customer.address,
        postalCode: doc.customer.postal_code,
        city: doc.customer.city,
        country: doc.customer.country,
      },
      email: doc.customer.email,
      vatNumber: doc.customer.vat_number,
    },
    reverseCharge: reverseChargeApplies(company.country, company.vatNumber, doc.customer.vat_number),
    exemptions: exemptionsOf(doc, company),
    lines: pdfLines(doc.items),
    hideLineAmounts: doc.hideLineAmounts,
    totals: pdfTotals(figures),
    mark: doc.mark ?? null,
    paymentTerms: doc.termsConditions,
    notes: doc.outroText,
  };
}

/** The lines as stored, as the renderer takes them (quotes, invoices, work orders). */
export const pdfLines = (items: readonly DocumentLine[]): DocumentPdfView['lines'] =>
  items.map((line) => ({
    type: line.type === 'text' ? ('text' as const) : ('other' as const),
    name: line.name,
    description: line.description,
    quantity: line.quantity,
    unit: line.unit,
    unitPrice: line.unit_price,
    discount: line.discount_amount,
    taxRate: line.tax_rate,
    isTaxable: line.is_taxable,
    total: line.line_total,
  }));

/** The legal grounds of the document's exempt lines: each line's VATEX code, else the company's default. */
function exemptionsOf(doc: PdfDocument, company: CompanyDefaults): DocumentPdfView['exemptions'] {
  const codes = new Set(
    doc.items
      .filter((line) => line.type !== 'text' && !line.is_taxable)
      .map((line) => line.vat_exemption_reason ?? company.vatExemptionReason),
  );
  return [...codes].flatMap((code) => (code ? [{ code, text: exemptionText(code, doc.language) }] : []));
}

/** The API's figures as the renderer takes them: every row of the tax breakdown, 0 % and exempt included. */
export const pdfTotals = (figures: PdfDocument['figures']): DocumentPdfView['totals'] => ({
  subtotal: figures.subtotal,
  discount: figures.discount_amount === '0.00' ? null : figures.discount_amount,
  taxes: figures.tax_breakdown.map((rate) => ({
    rate: rate.tax_rate,
    exempt: !rate.is_taxable,
    base: rate.taxable_amount,
    amount: rate.tax_amount,
  })),
  total: figures.total,
  amountPaid: figures.amount_paid ?? null,
  amountDue: figures.amount_due ?? null,
});

/** The PDF's file name: the document's number with anything but letters, digits, `-`, `_` and `.` as `_`. */
export const pdfFileName = (doc: { number: string }) =>
  `${doc.number.replace(/[^A-Za-z0-9._-]/g, '_') || 'document'}.pdf`;

/** The document's PDF (kept or rendered: http/pdf-render.ts). */
export async function salesDocumentPdf(
  doc: PdfDocument,
  company: CompanyDefaults,
  renderer: PdfRenderer,
  owner: PdfOwner,
  options?: PdfOptions,
) {
  return documentPdf(renderer, owner, { documentId: doc.id, variant: 'pdf', view: pdfViewOf(doc, company) }, options);
}

/** The PDF as an email attachment named after the document's number. */
export async function pdfAttachment(
  doc: PdfDocument,
  company: CompanyDefaults,
  renderer: PdfRenderer,
  owner: PdfOwner,
): Promise<EmailAttachment> {
  return {
    filename: pdfFileName(doc),
    contentType: 'application/pdf',
    content: (await salesDocumentPdf(doc, company, renderer, owner)).pdf,
  };
}

/**
 * The headers of a PDF download (GET /quotes/{quote}/pdf, /invoices/{invoice}/pdf). Not cached: the PDF also
 * shows the company's details, which change apart from the document's version.
 */
export function pdfDownloadHeaders(doc: PdfDocument, pdf: Buffer): Record<string, string> {
  return {
    'Content-Type': 'application/pdf',
    'Content-Length': String(pdf.byteLength),
    'Content-Disposition': attachmentDisposition(pdfFileName(doc)),
    'Content-Language': doc.language,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  };
}

/**
 * The PDF download of the document `find` reads (undefined when there is none), rendered with the company's
 * current details read in the same tenant transaction (or kept from an earlier render of the same content).
 */
export async function pdfDownload(
  tenant: Tenant,
  renderer: PdfRenderer,
  find: (tx: Tx) => Promise<PdfDocument | undefined>,
  options?: PdfOptions,
) {
  const found = await tenant.transaction(async (tx) => {
    const doc = await find(tx);
    return doc && { doc, company: await companyDefaults(tx, tenant.companyId) };
  });
  if (!found) return undefined;
  // Rendered after the transaction: its connection goes back to the pool while the PDF is made.
  const { pdf } = await salesDocumentPdf(found.doc, found.company, renderer, { tenant }, options);
  return { pdf: new Uint8Array(pdf), headers: pdfDownloadHeaders(found.doc, pdf) };
}
