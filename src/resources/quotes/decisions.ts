// The customer's side of a quote, one way whoever records it: the online quote (src/resources/document-pages) and
// *Accept a quote* / *Reject a quote* on the customer's behalf change the quote, its deal and its events through
// these functions, in the caller's transaction with the quote locked.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { ApiProblem } from '../../http/problems.ts';
import { touchCustomerActivity } from '../customers/queries.ts';
import { dealFollowsQuotes } from '../deals/from-quotes.ts';
import { quoteMessages } from './messages.ts';
import * as q from './queries.ts';
import { type QuoteRow, serializeQuote } from './serialize.ts';

export type QuoteEventType = 'quote.created' | 'quote.sent' | 'quote.viewed' | 'quote.accepted' | 'quote.rejected';

/** A quote's event, with the quote as it is now (seen with quotes.read, on its customer's timeline). */
export async function recordQuoteEvent(tx: Tx, row: QuoteRow, type: QuoteEventType) {
  await recordEvent(tx, row.companyId, {
    type,
    scope: 'quotes.read',
    customerId: row.customerId,
    object: serializeQuote(row, null),
  });
  await touchCustomerActivity(tx, row.companyId, row.customerId);
}

/** The states a quote can be decided from; the business may still accept an expired offer, the customer not. */
export const DECIDABLE = ['sent', 'viewed', 'expired'] as const;
export const DECIDABLE_ONLINE = ['sent', 'viewed'] as const;

const decidable = (current: QuoteRow, from: readonly string[]) => {
  if (!from.includes(current.status))
    throw new ApiProblem('conflict', quoteMessages.message('quote.cannot_decide', { status: current.status }));
};

/** Accepts the locked quote (409 conflict from another state); its deal follows. */
export async function acceptQuote(tx: Tx, current: QuoteRow, from: readonly string[] = DECIDABLE): Promise<QuoteRow> {
  decidable(current, from);
  const updated = await q.updateQuote(tx, current, { status: 'accepted', acceptedAt: sql`app_now()` });
  await recordQuoteEvent(tx, updated, 'quote.accepted');
  if (updated.dealId) await dealFollowsQuotes(tx, updated.companyId, updated.dealId, updated.pipelineStageId);
  return updated;
}

/** Rejects the locked quote, the reason appended to its internal notes (409 conflict from another state). */
export async function rejectQuote(
  tx: Tx,
  current: QuoteRow,
  reason: string | null | undefined,
  from: readonly string[] = DECIDABLE,
): Promise<QuoteRow> {
  decidable(current, from);
  const given = reason?.trim();
  const notes = given ? [current.notes, given].filter(Boolean).join('\n') : current.notes;
  const updated = await q.updateQuote(tx, current, { status: 'rejected', rejectedAt: sql`app_now()`, notes });
  await recordQuoteEvent(tx, updated, 'quote.rejected');
  if (updated.dealId) await dealFollowsQuotes(tx, updated.companyId, updated.dealId);
  return updated;
}

/**
 * The customer opened the online quote: the first opening sets `viewed_at` (and `sent` becomes `viewed`) with
 * `quote.viewed`; later ones change nothing.
 */
export async function markQuoteViewed(tx: Tx, current: QuoteRow): Promise<QuoteRow> {
  if (current.viewedAt !== null) return current;
  const status = current.status === 'sent' ? 'viewed' : current.status;
  const updated = await q.updateQuote(tx, current, { status, viewedAt: sql`app_now()` });
  await recordQuoteEvent(tx, updated, 'quote.viewed');
  return updated;
}
