// An invoice's columns from a request's fields (a creation's, or an update's over the current invoice): the reads
// they need in one round trip, the checks that report every invalid input at once, and the quote an invoice is made
// from, completed by it or given back.
import { and, eq, sql } from 'drizzle-orm';
import { invoices, quotes } from '../../db/schema/index.ts';
import { inOrder, type Tx } from '../../db/tenant.ts';
import { fromCents } from '../../domain/money.ts';
import { scaled } from '../../domain/totals.ts';
import type { MetadataInput } from '../../http/metadata.ts';
import { dealFollowsQuotes } from '../deals/from-quotes.ts';
import {
  addDays,
  companyDefaults,
  customerCopy,
  DocumentProblems,
  daysBetween,
  documentAmounts,
  documentTexts,
  documentValue,
  type ItemBody,
  itemsAsInput,
} from '../quotes/documents.ts';
import { quoteMessages } from '../quotes/messages.ts';
import { lockQuote } from '../quotes/queries.ts';
import { invoiceMessages } from './messages.ts';
import type { InvoiceRow } from './serialize.ts';
import { termItems } from './terms.ts';

export type InvoiceFields = {
  customer_id?: string;
  title?: string;
  items?: ItemBody[];
  quote_id?: string | null;
  term_percentage?: number;
  description?: string | null;
  language?: 'nl' | 'en' | 'de' | 'fr';
  invoice_date?: string;
  due_date?: string;
  payment_term_days?: number;
  terms_conditions?: string | null;
  notes?: string | null;
  outro_text?: string | null;
  hide_line_amounts?: boolean;
  discount_percentage?: number;
  discount_amount?: number;
  discount_description?: string | null;
  reminders_enabled?: boolean;
  metadata?: MetadataInput;
};

/**
 * The reads an invoice's columns need, all handed to the connection at once (behind the invoice's lock for an
 * update, `invoiceId`: they see the locked invoice as it is): the company's defaults, the customer to copy (an
 * update's current one read from the invoice's row) and the quote the request names, locked. One round trip.
 */
export function invoiceReads(tx: Tx, companyId: string, body: InvoiceFields, invoiceId?: string) {
  const problems = new DocumentProblems();
  const customerId =
    body.customer_id ??
    (invoiceId === undefined ? undefined : documentValue(invoices, invoices.customerId, companyId, invoiceId));
  if (customerId === undefined) throw new Error('a new invoice names its customer (the contract requires it)');
  const quoteId = body.quote_id;
  const all = inOrder(
    () => companyDefaults(tx, companyId),
    () => customerCopy(tx, companyId, customerId, problems),
    () => (typeof quoteId === 'string' ? lockQuote(tx, companyId, quoteId) : Promise.resolve(undefined)),
  );
  // Awaited by invoiceColumns; a request answered before (404, 412, 409) must not leave it unhandled.
  all.catch(() => {});
  return { problems, all };
}

/**
 * The columns of an invoice from the request's fields over the current invoice (none for a creation): customer
 * copied again, quote and dates checked, totals recalculated; every invalid input reported at once.
 */
export async function invoiceColumns(
  tx: Tx,
  companyId: string,
  body: InvoiceFields,
  reads: ReturnType<typeof invoiceReads>,
  current?: InvoiceRow,
) {
  const { problems } = reads;
  const [company, customer, namedQuote] = await reads.all;
  const customerId = body.customer_id ?? (current?.customerId as string);
  const quoteId = body.quote_id !== undefined ? body.quote_id : (current?.quoteId ?? null);
  let dealId = current?.dealId ?? null;
  if (quoteId !== null && (body.quote_id !== undefined || body.customer_id !== undefined)) {
    // Locked with the reads when the request names it; the current quote of a new customer's invoice after them.
    const quote = namedQuote ?? (await lockQuote(tx, companyId, quoteId));
    if (quote?.customerId !== customerId)
      problems.add('/quote_id', 'invalid_reference', quoteMessages.message('quote.unknown_reference'));
    else dealId = quote.dealId;
  } else if (quoteId === null) dealId = null;
  const invoiceDate = body.invoice_date ?? current?.invoiceDate ?? company.today;
  const term = body.payment_term_days ?? current?.paymentTermDays ?? company.paymentTermDays;
  // Without a due date of its own, the due date follows the date and the term.
  const dueDate =
    body.due_date ??
    (current && body.invoice_date === undefined && body.payment_term_days === undefined
      ? current.dueDate
      : undefined) ??
    addDays(invoiceDate, term);
  if (dueDate < invoiceDate)
    problems.add('/due_date', 'too_small', quoteMessages.message('document.date_before', { field: 'invoice_date' }));
  const language = body.language ?? current?.language ?? company.language;
  let items = body.items;
  let termPercentage = current?.termPercentage ?? null;
  if (!current && body.term_percentage !== undefined) {
    const request = { ...body, term_percentage: body.term_percentage, customer_id: customerId, quote_id: quoteId };
    items = await termItems(tx, companyId, request, language, problems);
    termPercentage = fromCents(scaled(body.term_percentage, 2));
  } else if (!current && items === undefined)
    problems.add('/items', 'required', invoiceMessages.message('invoice.items_required'));
  // A term's lines, quote and discount follow from its quote and percentage: kept as they are.
  const fixed = termPercentage !== null;
  if (current?.isTermInvoice) {
    for (const field of ['items', 'quote_id', 'discount_percentage', 'discount_amount'] as const)
      if (body[field] !== undefined)
        problems.add(`/${field}`, 'invalid_combination', invoiceMessages.message('invoice.term_fixed'));
    items = undefined;
  }
  const amounts = documentAmounts(
    items ?? itemsAsInput(current?.items ?? []),
    {
      percentage: (fixed ? undefined : body.discount_percentage) ?? current?.discountPercentage ?? 0,
      amount: (fixed ? undefined : body.discount_amount) ?? current?.discountAmount ?? 0,
    },
    company.defaultTaxRate,
    problems,
  );
  problems.done();
  if (!customer || !amounts) throw new Error('unreachable: problems were reported');
  return {
    ...documentTexts(body, current),
    customerId,
    customer,
    quoteId,
    dealId,
    language,
    currency: current?.currency ?? company.currency,
    isTermInvoice: termPercentage !== null,
    termPercentage,
    invoiceDate,
    dueDate,
    // A due date of its own sets the term it amounts to.
    paymentTermDays: body.due_date !== undefined ? daysBetween(invoiceDate, dueDate) : term,
    remindersEnabled: body.reminders_enabled ?? current?.remindersEnabled ?? true,
    ...amounts,
  };
}

/** An accepted quote an invoice is made from becomes completed, with this invoice as its first. */
export async function completeQuote(tx: Tx, invoice: InvoiceRow) {
  if (!invoice.quoteId) return;
  const [quote] = await tx
    .update(quotes)
    .set({ status: 'completed', invoiceId: invoice.id, updatedAt: sql`app_now()`, version: sql`${quotes.version} + 1` })
    .where(and(eq(quotes.companyId, invoice.companyId), eq(quotes.id, invoice.quoteId), eq(quotes.status, 'accepted')))
    .returning();
  if (quote?.dealId) await dealFollowsQuotes(tx, invoice.companyId, quote.dealId);
}

/** Deleting the draft made from a completed quote gives the quote back its accepted state. */
export async function releaseQuote(tx: Tx, invoice: InvoiceRow) {
  if (!invoice.quoteId) return;
  await tx
    .update(quotes)
    .set({ status: 'accepted', invoiceId: null, updatedAt: sql`app_now()`, version: sql`${quotes.version} + 1` })
    .where(
      and(
        eq(quotes.companyId, invoice.companyId),
        eq(quotes.id, invoice.quoteId),
        eq(quotes.invoiceId, invoice.id),
        eq(quotes.status, 'completed'),
      ),
    );
}
