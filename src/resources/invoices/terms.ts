// Term (instalment) invoices: a percentage of an accepted quote, billed as one line per row of the quote's VAT
// breakdown (exempt lines stay exempt), so that every term carries the quote's VAT split. Each row is rounded on
// what has been billed so far, including VAT: a term brings the billed part to its cumulative percentage of the
// quote, never above it, so the terms never add up to more than the quote and the one reaching 100 % takes the
// remainder. The quote is locked while its terms are counted, so two terms created at once cannot pass 100 %.
import { and, eq, ne, sql } from 'drizzle-orm';
import { invoices } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { formatPercent } from '../../domain/locale-format.ts';
import { fromCents, toCents } from '../../domain/money.ts';
import { roundDiv, scaled, taxBreakdown } from '../../domain/totals.ts';
import type { Language } from '../../languages.ts';
import type { DocumentProblems, ItemBody } from '../quotes/documents.ts';
import { lockQuote } from '../quotes/queries.ts';
import { invoiceMessages } from './messages.ts';

const TERM_LINE: Record<Language, string> = {
  en: 'Instalment {percentage} of quote {number}',
  nl: 'Termijn {percentage} van offerte {number}',
  de: 'Abschlag {percentage} zum Angebot {number}',
  fr: 'Acompte de {percentage} sur le devis {number}',
};

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
  const earlier = await tx
    .select({ percentage: sql<string>`${invoices.termPercentage}::text`, items: invoices.items })
    .from(invoices)
    .where(
      and(
        eq(invoices.companyId, companyId),
        eq(invoices.quoteId, quote.id),
        eq(invoices.isTermInvoice, true),
        ne(invoices.status, 'cancelled'),
      ),
    );
  const billed = earlier.reduce((sum, row) => sum + toCents(row.percentage ?? '0'), 0n);
  const left = 10000n - billed;
  if (percentage > left)
    problems.add(
      '/term_percentage',
      'too_big',
      invoiceMessages.message('invoice.term_above_rest', { left: fromCents(left) }),
    );
  if (problems.errors.length > before) return undefined;

  // What the earlier terms billed per row, including VAT (a term invoice has no discount).
  const billedIncl = new Map<string, bigint>();
  for (const row of earlier)
    for (const rate of taxBreakdown(row.items, '0.00')) {
      const key = rowKey(rate);
      billedIncl.set(key, (billedIncl.get(key) ?? 0n) + toCents(rate.taxable) + toCents(rate.tax));
    }
  const name = TERM_LINE[language]
    .replace('{percentage}', formatPercent(fromCents(percentage), language))
    .replace('{number}', quote.number);
  const lines: ItemBody[] = taxBreakdown(quote.items, quote.discountAmount)
    .filter((rate) => toCents(rate.taxable) !== 0n)
    .map((rate) => {
      const quoteIncl = toCents(rate.taxable) + toCents(rate.tax);
      const aim = roundDiv(quoteIncl * (billed + percentage), 10000n) - (billedIncl.get(rowKey(rate)) ?? 0n);
      const amount = fromCents(largestBase(aim, rate.exempt ? 0n : toCents(rate.rate)));
      return rate.exempt
        ? { type: 'service' as const, name, quantity: 1, unit_price: amount, is_taxable: false }
        : { type: 'service' as const, name, quantity: 1, unit_price: amount, tax_rate: rate.rate };
    });
  // A quote of text lines only (or discounted to nothing) still gets one line, of nothing.
  return lines.length > 0 ? lines : [{ type: 'service', name, quantity: 1, unit_price: '0.00', tax_rate: '0' }];
}

const rowKey = (rate: { rate: string; exempt: boolean }) => `${rate.rate}/${rate.exempt}`;

/**
 * The largest amount excluding VAT whose total with VAT at `rate` (hundredths of a percent), calculated as every
 * invoice does (VAT rounded half up), is at most `incl` (cents). The total grows with the amount in steps of one
 * or two cents, so the answer is exact unless VAT rounding skips `incl`, then it is one cent below.
 */
function largestBase(incl: bigint, rate: bigint): bigint {
  const withVat = (base: bigint) => base + roundDiv(base * rate, 10000n);
  let base = roundDiv(incl * 10000n, 10000n + rate);
  while (withVat(base) > incl) base -= 1n;
  while (withVat(base + 1n) <= incl) base += 1n;
  return base;
}
