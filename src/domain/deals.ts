// The rules of deals that do not depend on storage: where a deal's value comes from, and what entering a
// stage does to its status and dates.
import { sumAmounts } from './money.ts';

/** The highest amount a deal's value may have. */
export const MAX_DEAL_VALUE = '99999999.00';

export type QuoteStatus =
  | 'draft'
  | 'pending_review'
  | 'sent'
  | 'viewed'
  | 'accepted'
  | 'rejected'
  | 'expired'
  | 'completed';
export type QuoteForValue = { status: QuoteStatus; total: string; currency: string };

const AGREED: readonly QuoteStatus[] = ['accepted', 'completed'];
const PENDING: readonly QuoteStatus[] = ['draft', 'pending_review', 'sent', 'viewed'];

/**
 * The value of a deal whose `value_source` is `quotes`: the sum of the totals of its accepted and completed
 * quotes when it has any, otherwise of its open ones; rejected and expired quotes never count, nor quotes in
 * another currency than the deal's; null when no quote counts.
 */
export function valueFromQuotes(quotes: readonly QuoteForValue[], currency: string): string | null {
  const same = quotes.filter((quote) => quote.currency === currency);
  const agreed = same.filter((quote) => AGREED.includes(quote.status));
  const counting = agreed.length > 0 ? agreed : same.filter((quote) => PENDING.includes(quote.status));
  return counting.length > 0 ? sumAmounts(counting.map((quote) => quote.total)) : null;
}

export type StageType = 'open' | 'won' | 'lost';
type DealState = {
  status: StageType;
  stageId: number;
  wonAt: Date | null;
  lostAt: Date | null;
  lostReason: string | null;
};

/**
 * The deal after entering `stage` at `now`, and the events that tells (after deal.stage_changed, which the
 * caller records for every stage change). The status follows the stage's type; won_at/lost_at are set when
 * the deal becomes won/lost and kept when it stays so (it was won or lost at that earlier moment);
 * reopening clears them and the reason.
 */
export function enterStage<Now>(
  deal: DealState,
  stage: { id: number; type: StageType },
  now: Now,
  lostReason: string | null = null,
) {
  const becomes = stage.type !== deal.status;
  const entered = {
    stageId: stage.id,
    status: stage.type,
    stageChangedAt: now,
    wonAt: stage.type !== 'won' ? null : becomes ? now : deal.wonAt,
    lostAt: stage.type !== 'lost' ? null : becomes ? now : deal.lostAt,
    lostReason: stage.type !== 'lost' ? null : becomes ? lostReason : deal.lostReason,
  };
  const statusEvent = becomes && stage.type !== 'open' ? (`deal.${stage.type}` as const) : undefined;
  return { entered, statusEvent, reopens: becomes && stage.type === 'open' };
}
