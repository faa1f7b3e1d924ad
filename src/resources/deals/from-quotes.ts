// What a deal takes from its quotes (called by the quotes resource in the quote's transaction): its value when
// `value_source` is `quotes`, and on acceptance the stage the quote names.

import type { Tx } from '../../db/tenant.ts';
import { valueFromQuotes } from '../../domain/deals.ts';
import { findActiveStage } from '../pipeline-stages/queries.ts';
import * as q from './queries.ts';
import { enterDealStage } from './state-actions.ts';
import { recordDealChange, saveDeal } from './writes.ts';

/**
 * Recalculates the value of a deal whose value comes from its quotes (deal.updated when it changes), then, when
 * `stageId` is given and the deal is open, moves it there (deal.stage_changed, and deal.won for a won stage).
 */
export async function dealFollowsQuotes(tx: Tx, companyId: string, dealId: string, stageId: number | null = null) {
  let deal = await q.lockDeal(tx, companyId, dealId);
  if (!deal) return;
  if (deal.valueSource === 'quotes') {
    const value = valueFromQuotes(await q.quotesOfDeal(tx, companyId, deal.id), deal.currency);
    if (value !== deal.value) {
      deal = await saveDeal(tx, deal, { value });
      await recordDealChange(tx, deal, 'deal.updated');
    }
  }
  if (stageId === null || deal.status !== 'open' || deal.stageId === stageId) return;
  const stage = await findActiveStage(tx, companyId, stageId);
  if (stage) await enterDealStage(tx, deal, stage);
}
