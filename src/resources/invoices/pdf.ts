// What an invoice's PDF shows (its figures and its mark), for its download, its email and its online page.
import { toCents } from '../../domain/money.ts';
import type { InvoiceMark } from '../../pdf/document-view.ts';
import type { PdfDocument } from '../quotes/pdf.ts';
import { amountDue, type InvoiceRow, invoiceFigures } from './serialize.ts';

/**
 * What an invoice's PDF marks it as: cancelled, refunded and paid invoices say so (and ask for nothing); an
 * invoice with an amount paid and an amount still due is partly paid, whether `partial` or already `overdue`.
 */
export function invoiceMark(row: InvoiceRow): InvoiceMark | null {
  if (row.status === 'cancelled' || row.status === 'refunded' || row.status === 'paid') return row.status;
  if (row.status !== 'draft' && toCents(row.amountPaid) > 0n && toCents(amountDue(row)) > 0n) return 'partly_paid';
  return null;
}

/** What the PDF of an invoice shows: the figures of its answer and its mark. */
export const invoicePdf = (row: InvoiceRow): PdfDocument => ({
  ...row,
  kind: 'invoice',
  issueDate: row.invoiceDate,
  dueDate: row.dueDate,
  figures: invoiceFigures(row),
  mark: invoiceMark(row),
});
