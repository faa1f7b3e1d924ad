// The PDF of a quote or an invoice (src/pdf/document-pdf.ts renders it): the company, the customer copy, the
// lines as stored, tax per rate recalculated from the lines by the totals engine, the document's language.
import type { DocumentCustomerCopy, DocumentLine } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { documentTotals } from '../../domain/totals.ts';
import { renderPdf } from '../../http/pdf-render.ts';
import type { EmailAttachment } from '../../mail/outbox.ts';
import type { DocumentPdfView } from '../../pdf/document-pdf.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import { attachmentDisposition } from '../files/content-disposition.ts';
import { type CompanyDefaults, companyDefaults, itemsAsInput } from './documents.ts';

export type PdfDocument = {
  kind: 'quote' | 'invoice';
  number: string;
  title: string;
  language: 'nl' | 'en' | 'de' | 'fr';
  currency: string;
  issueDate: string;
  dueDate?: string | null;
  validUntil?: string | null;
  customer: DocumentCustomerCopy;
  items: DocumentLine[];
  hideLineAmounts: boolean;
  discountPercentage: string;
  discountAmount: string;
  subtotal: string;
  total: string;
  amountPaid?: string | null;
  amountDue?: string | null;
  termsConditions: string | null;
  outroText: string | null;
};

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
  const recalculated = documentTotals({
    lines: itemsAsInput(doc.items),
    discount_percentage: doc.discountPercentage,
    discount_amount: doc.discountAmount,
    default_tax_rate: '0',
  });
  const taxes = recalculated.ok
    ? recalculated.totals.taxes
        .filter((t) => t.rate !== '0.00')
        .map((t) => ({ rate: t.rate, base: t.taxable, amount: t.tax }))
    : [];
  return {
    kind: doc.kind,
    number: doc.number,
    language: doc.language,
    currency: doc.currency,
    timeZone: company.timeZone,
    title: doc.title,
    issueDate: doc.issueDate,
    dueDate: doc.dueDate ?? null,
    validUntil: doc.validUntil ?? null,
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
    },
    lines: doc.items.map((line) => ({
      type: line.type === 'text' ? ('text' as const) : ('other' as const),
      name: line.name,
      description: line.description,
      quantity: line.quantity,
      unit: line.unit,
      unitPrice: line.unit_price,
      discount: line.discount_amount,
      taxRate: line.tax_rate,
      total: line.line_total,
    })),
    hideLineAmounts: doc.hideLineAmounts,
    totals: {
      subtotal: doc.subtotal,
      discount: doc.discountAmount === '0.00' ? null : doc.discountAmount,
      taxes,
      total: doc.total,
      amountPaid: doc.amountPaid ?? null,
      amountDue: doc.amountDue ?? null,
    },
    paymentTerms: doc.termsConditions,
    notes: doc.outroText,
  };
}

/** The PDF's file name: the document's number with anything but letters, digits, `-`, `_` and `.` as `_`. */
export const pdfFileName = (doc: { number: string }) =>
  `${doc.number.replace(/[^A-Za-z0-9._-]/g, '_') || 'document'}.pdf`;

/** The PDF as an email attachment named after the document's number. */
export async function pdfAttachment(
  doc: PdfDocument,
  company: CompanyDefaults,
  renderer: PdfRenderer,
): Promise<EmailAttachment> {
  return {
    filename: pdfFileName(doc),
    contentType: 'application/pdf',
    content: await renderPdf(renderer, pdfViewOf(doc, company)),
  };
}

/**
 * The headers of a PDF download (GET /quotes/{quote}/pdf, /invoices/{invoice}/pdf). Not cached: the PDF also
 * shows the company's details, which change apart from the document's version.
 */
function pdfDownloadHeaders(doc: PdfDocument, pdf: Buffer): Record<string, string> {
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
 * current details read in the same tenant transaction.
 */
export async function pdfDownload(
  tenant: Tenant,
  renderer: PdfRenderer,
  find: (tx: Tx) => Promise<PdfDocument | undefined>,
) {
  const found = await tenant.transaction(async (tx) => {
    const doc = await find(tx);
    return doc && { doc, company: await companyDefaults(tx, tenant.companyId) };
  });
  if (!found) return undefined;
  // Rendered after the transaction: its connection goes back to the pool while the PDF is made.
  const pdf = await renderPdf(renderer, pdfViewOf(found.doc, found.company));
  return { pdf: new Uint8Array(pdf), headers: pdfDownloadHeaders(found.doc, pdf) };
}
