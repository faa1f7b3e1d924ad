// Term (instalment) invoices: a percentage of an accepted quote, billed as one line per VAT rate of the quote
// (the percentage of what the quote taxes at that rate, after its discount), so that the terms of a quote add up
// to the quote and every term carries the quote's VAT split. The quote is locked while its terms are counted,
// so two terms created at once cannot pass 100 % together.
import { and, eq, ne, sql } from 'drizzle-orm';
import { invoices } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { fromCents, toCents } from '../../domain/money.ts';
import { documentTotals, roundDiv, scaled } from '../../domain/totals.ts';
import type { Language } from '../../languages.ts';
import { type DocumentProblems, type ItemBody, itemsAsInput } from '../quotes/documents.ts';
import { lockQuote } from '../quotes/queries.ts';
import { invoiceMessages } from './messages.ts';

const TERM_LINE: Record<Language, string> = {
  en: 'Instalment {percentage}% of quote {number}',
  nl: 'Termijn {percentage}% van offerte {number}',
  de: 'Abschlag {percentage} % zum Angebot {number}',
  fr: 'Acompte de {percentage} % sur le devis {number}',
};

/** `30.00` → `30`, `12.50` → `12,5` (with the language's decimal sign). */
function shownPercentage(hundredths: bigint, language: Language): string {
  const text = fromCents(hundredths).replace(/\.?0+$/, '');
  return language === 'en' ? text : text.replace('.', ',');
}

export type TermRequest = {
  term_percentage: number;
  quote_id?: string | null;
  customer_id: string;
  items?: readonly unknown[];
  discount_percentage?: number;
  discount_amount?: number;
};

/**
 * The lines of a new term invoice, or undefined with every refused input reported to `problems`: the
 * percentage (within what the quote's other terms leave), a quote of the customer that
 * is accepted or completed, and no lines or discount of the request's own.
 */
export async function termItems(
  tx: Tx,
  companyId: string,
  body: TermRequest,
  language: Language,
  problems: DocumentProblems,
): Promise<ItemBody[] | undefined> {
  const before = problems.errors.length;
  if (body.items !== undefined)
    problems.add('/items', 'invalid_combination', invoiceMessages.message('invoice.term_items'));
  for (const field of ['discount_percentage', 'discount_amount'] as const)
    if ((body[field] ?? 0) !== 0)
      problems.add(`/${field}`, 'invalid_combination', invoiceMessages.message('invoice.term_discount'));
  // Two decimals, rounded half-up like every percentage of a document.
  const percentage = scaled(body.term_percentage, 2);
  if (!body.quote_id) {
    problems.add('/quote_id', 'required', invoiceMessages.message('invoice.term_needs_quote'));
    return undefined;
  }
  const quote = await lockQuote(tx, companyId, body.quote_id);
  // Another customer's or an unknown quote is reported by the invoice's own quote check.
  if (quote?.customerId !== body.customer_id) return undefined;
  if (quote.status !== 'accepted' && quote.status !== 'completed')
    problems.add(
      '/quote_id',
      'invalid_combination',
      invoiceMessages.message('invoice.term_quote_state', { status: quote.status }),
    );
  const [{ billed }] = await tx
    .select({ billed: sql<string>`coalesce(sum(${invoices.termPercentage}), 0)::text` })
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.quoteId, quote.id),
        eq(invoices.isTermInvoice, true),
        ne(invoices.status, 'cancelled'),
      ),
    );
  const left = 10000n - toCents(billed);
  if (percentage > left)
    problems.add(
      '/term_percentage',
      'too_big',
      invoiceMessages.message('invoice.term_above_rest', { left: fromCents(left) }),
    );
  if (problems.errors.length > before) return undefined;

  const totals = documentTotals({
    lines: itemsAsInput(quote.items),
    discount_percentage: quote.discountPercentage,
    discount_amount: quote.discountAmount,
    default_tax_rate: '0',
  });
  if (!totals.ok) throw new Error(`quote ${quote.id} has lines its own totals refuse`);
  const name = TERM_LINE[language]
    .replace('{percentage}', shownPercentage(percentage, language))
    .replace('{number}', quote.number);
  const lines = totals.totals.taxes
    .filter((rate) => toCents(rate.taxable) !== 0n)
    .map((rate) => ({
      type: 'service' as const,
      name,
      quantity: 1,
      unit_price: fromCents(roundDiv(toCents(rate.taxable) * percentage, 10000n)),
      tax_rate: rate.rate,
    }));
  // A quote of text lines only (or discounted to nothing) still gets one line, of nothing.
  return lines.length > 0 ? lines : [{ type: 'service', name, quantity: 1, unit_price: '0.00', tax_rate: '0' }];
}
