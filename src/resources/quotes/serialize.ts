import type { DocumentLine, quotes } from '../../db/schema/index.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';

export type QuoteRow = typeof quotes.$inferSelect;

/** A stored line as the API shows it (without the request it came from). */
export const serializeLine = <O extends string>(object: O, { input: _input, ...line }: DocumentLine) => ({
  object,
  ...line,
});

export function serializeQuote(row: QuoteRow) {
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
    discount_amount: row.discountAmount,
    discount_description: row.discountDescription,
    subtotal: row.subtotal,
    tax_amount: row.taxAmount,
    total: row.total,
    sent_at: isoOrNull(row.sentAt),
    viewed_at: isoOrNull(row.viewedAt),
    accepted_at: isoOrNull(row.acceptedAt),
    rejected_at: isoOrNull(row.rejectedAt),
    invoice_id: row.invoiceId,
    items: row.items.map((line) => serializeLine('quote_item' as const, line)),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
