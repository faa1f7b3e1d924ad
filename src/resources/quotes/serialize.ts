import type { DocumentLine, quotes } from '../../db/schema/index.ts';
import { type StoredLine, taxBreakdown } from '../../domain/totals.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';

export type QuoteRow = typeof quotes.$inferSelect;

/** A stored line as the API shows it (without the request it came from). */
export const serializeLine = <O extends string>(object: O, { input: _input, ...line }: DocumentLine) => ({
  object,
  ...line,
  vat_exemption_reason: line.vat_exemption_reason ?? null,
});

/**
 * VAT per rate of a document as the API shows it (quotes, invoices, work orders); the PDF prints these rows, so
 * both say the same.
 */
export const serializeTaxBreakdown = (lines: readonly StoredLine[], discountAmount: string) =>
  taxBreakdown(lines, discountAmount).map((rate) => ({
    tax_rate: rate.rate,
    is_taxable: !rate.exempt,
    subtotal: rate.base,
    discount_amount: rate.discount,
    taxable_amount: rate.taxable,
    tax_amount: rate.tax,
  }));

export type TaxBreakdown = ReturnType<typeof serializeTaxBreakdown>;

/** The figures of a quote, as its answer and its PDF show them. */
export const quoteFigures = (row: QuoteRow) => ({
  subtotal: row.subtotal,
  discount_amount: row.discountAmount,
  tax_breakdown: serializeTaxBreakdown(row.items, row.discountAmount),
  tax_amount: row.taxAmount,
  total: row.total,
});

/**
 * @param publicUrl the online quote's address when the reader may send quotes, else null: the page accepts the
 *   quote in the customer's name, so its link is shown only with `quotes.write` (never in events).
 */
export function serializeQuote(row: QuoteRow, publicUrl: string | null) {
  return {
    object: 'quote' as const,
    id: row.id,
    number: row.number,
    status: row.status,
    title: row.title,
    description: row.description,
    customer_id: row.customerId,
    customer: row.customer,
    deal_id: row.dealId,
    pipeline_stage_id: row.pipelineStageId === null ? null : idString(row.pipelineStageId),
    language: row.language,
    currency: row.currency,
    quote_date: row.quoteDate,
    valid_until: row.validUntil,
    intro_text: row.introText,
    outro_text: row.outroText,
    terms_conditions: row.termsConditions,
    notes: row.notes,
    hide_line_amounts: row.hideLineAmounts,
    discount_percentage: row.discountPercentage,
    discount_description: row.discountDescription,
    ...quoteFigures(row),
    sent_at: isoOrNull(row.sentAt),
    viewed_at: isoOrNull(row.viewedAt),
    accepted_at: isoOrNull(row.acceptedAt),
    rejected_at: isoOrNull(row.rejectedAt),
    invoice_id: row.invoiceId,
    public_url: publicUrl,
    items: row.items.map((line) => serializeLine('quote_item' as const, line)),
    created_at: iso(row.createdAt),
    metadata: row.metadata,
    updated_at: iso(row.updatedAt),
  };
}
