// GET /invoices/{invoice}/ubl: the invoice (or the credit note of a cancelled or refunded one) as UBL per Peppol
// BIS Billing 3.0. The rows are read in one tenant transaction; src/einvoicing builds and writes the document.

import { and, eq } from 'drizzle-orm';
import { customers } from '../../db/schema/index.ts';
import type { Tenant } from '../../db/tenant.ts';
import { eInvoiceOf, type Missing } from '../../einvoicing/from-invoice.ts';
import type { EInvoice } from '../../einvoicing/model.ts';
import { ublXml } from '../../einvoicing/ubl.ts';
import { ApiProblem } from '../../http/problems.ts';
import type { PdfRenderer } from '../../pdf/render-pool.ts';
import { attachmentDisposition } from '../files/content-disposition.ts';
import { companyDefaults } from '../quotes/documents.ts';
import { type PdfDocument, pdfAttachment } from '../quotes/pdf.ts';
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

/** The UBL document of an invoice with its file name, or undefined for an unknown invoice. */
export async function invoiceUbl(
  tenant: Tenant,
  id: string,
  request: UblRequest,
  pdfOf: (row: InvoiceRow) => PdfDocument,
  renderer: PdfRenderer,
) {
  const found = await tenant.transaction(async (tx) => {
    const invoice = await q.findInvoice(tx, tenant.companyId, id);
    if (!invoice) return undefined;
    const [customer] = await tx
      .select({ peppolId: customers.peppolId })
      .from(customers)
      .where(and(eq(customers.companyId, tenant.companyId), eq(customers.id, invoice.customerId)));
    return {
      invoice,
      peppolId: customer?.peppolId ?? null,
      defaults: await companyDefaults(tx, tenant.companyId),
    };
  });
  if (!found) return undefined;
  const { invoice, defaults } = found;

  let issueDate: string | undefined;
  if (request.document === 'credit_note') {
    // A credit note credits an invoice the customer received and that no longer stands: cancelled after it was
    // sent, or refunded in full.
    const credited =
      (invoice.status === 'cancelled' && invoice.sentAt !== null && invoice.cancelledAt !== null) ||
      invoice.status === 'refunded';
    if (!credited)
      throw new ApiProblem('conflict', invoiceMessages.message('invoice.no_credit_note', { status: invoice.status }));
    issueDate = dayIn(invoice.cancelledAt ?? invoice.updatedAt, defaults.timeZone);
  }

  let attachment: EInvoice['attachment'] = null;
  if (request.embedPdf) {
    const pdf = await pdfAttachment(pdfOf(invoice), found.defaults, renderer);
    attachment = {
      filename: pdf.filename,
      mimeCode: 'application/pdf',
      base64: Buffer.from(pdf.content).toString('base64'),
    };
  }
  const result = eInvoiceOf(
    { ...invoice, customer: { ...invoice.customer, peppol_id: found.peppolId } },
    found.defaults,
    { kind: request.document, issueDate, attachment },
  );
  if (!result.ok) throw missingProblem(result.missing);
  const name = `${result.document.number.replace(/[^A-Za-z0-9._-]/g, '_') || 'document'}.xml`;
  return { xml: ublXml(result.document), filename: name };
}

export const ublHeaders = (filename: string, xml: string) => ({
  'Content-Type': 'application/xml; charset=utf-8',
  'Content-Disposition': attachmentDisposition(filename),
  'Cache-Control': 'private, no-store',
  'Content-Length': String(Buffer.byteLength(xml)),
});
