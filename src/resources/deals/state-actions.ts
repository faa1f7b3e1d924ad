// Move, win, lose, archive and unarchive: the transitions of a deal, with the source states and events the
// contract gives each (see openapi/paths/deals.yaml).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/tenant.ts';
import { enterStage } from '../../domain/deals.ts';
import { etagOf } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField } from '../../http/validation.ts';
import { stageMessages } from '../pipeline-stages/messages.ts';
import { findActiveStage, firstStageOfType } from '../pipeline-stages/queries.ts';
import type { StageRow } from '../pipeline-stages/serialize.ts';
import { dealMessages } from './messages.ts';
import { type DealRow, serializeDeal } from './serialize.ts';
import { keepingOneOpenDeal, onLockedDeal, recordDealChange, saveDeal } from './writes.ts';

const respond = (row: DealRow) => [{ data: serializeDeal(row) }, 200, { ETag: etagOf(row.version) }] as const;

function refuseArchived(deal: DealRow) {
  if (deal.isArchived) throw new ApiProblem('conflict', dealMessages.message('deal.archived'));
}

const NOT_OPEN = { won: 'deal.win_not_open', lost: 'deal.lose_not_open' } as const;
function requireOpen(deal: DealRow, action: 'won' | 'lost') {
  if (deal.status !== 'open')
    throw new ApiProblem('conflict', dealMessages.message(NOT_OPEN[action], { status: deal.status }));
}

/** The stage of type won/lost to end in: the one asked for, else the first of that type on the board. */
async function closingStage(tx: Tx, companyId: string, type: 'won' | 'lost', stageId?: number) {
  if (stageId !== undefined) {
    const stage = await findActiveStage(tx, companyId, stageId);
    if (stage?.type !== type)
      throw invalidField(
        '/stage_id',
        'invalid_reference',
        stageMessages.message('stage.unknown_reference_of_type', { type }),
      );
    return stage;
  }
  const stage = await firstStageOfType(tx, companyId, type);
  if (!stage) throw new ApiProblem('conflict', stageMessages.message('stage.none_of_type', { type }));
  return stage;
}

/** Puts the deal in `stage`: status and dates follow (enterStage), then deal.stage_changed and any deal.won/lost. */
export async function enterDealStage(
  tx: Tx,
  current: DealRow,
  stage: StageRow,
  lostReason?: string | null,
): Promise<DealRow> {
  const { entered, statusEvent, reopens } = enterStage(current, stage, sql`app_now()`, lostReason);
  const write = (t: Tx) => saveDeal(t, current, entered);
  // Reopening a won or lost deal may give its customer a second open deal.
  const updated = reopens
    ? await keepingOneOpenDeal(tx, current.companyId, current.customerId, write)
    : await write(tx);
  await recordDealChange(tx, updated, 'deal.stage_changed', ...(statusEvent ? [statusEvent] : []));
  return updated;
}

export const dealActionHandlers = {
  moveDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const body = c.req.valid('json');
    const row = await onLockedDeal(c, deal, async (tx, current, companyId) => {
      refuseArchived(current);
      // Already there: nothing changes and nothing is emitted, also when that stage was retired since (a repeated
      // move must not fail because the stage it led to is no longer offered).
      if (body.stage_id === current.stageId) return current;
      const stage = await findActiveStage(tx, companyId, body.stage_id);
      if (!stage)
        throw invalidField('/stage_id', 'invalid_reference', stageMessages.message('stage.unknown_reference'));
      return enterDealStage(tx, current, stage);
    });
    return c.json(...respond(row));
  },

  winDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const body = c.req.valid('json');
    const row = await onLockedDeal(c, deal, async (tx, current, companyId) => {
      refuseArchived(current);
      requireOpen(current, 'won');
      return enterDealStage(tx, current, await closingStage(tx, companyId, 'won', body.stage_id));
    });
    return c.json(...respond(row));
  },

  loseDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const body = c.req.valid('json');
    const row = await onLockedDeal(c, deal, async (tx, current, companyId) => {
      refuseArchived(current);
      requireOpen(current, 'lost');
      return enterDealStage(
        tx,
        current,
        await closingStage(tx, companyId, 'lost', body.stage_id),
        body.lost_reason ?? null,
      );
    });
    return c.json(...respond(row));
  },

  archiveDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const row = await onLockedDeal(c, deal, async (tx, current) => {
      if (current.isArchived) throw new ApiProblem('conflict', dealMessages.message('deal.already_archived'));
      const updated = await saveDeal(tx, current, { isArchived: true, archivedAt: sql`app_now()` });
      await recordDealChange(tx, updated, 'deal.updated');
      return updated;
    });
    return c.json(...respond(row));
  },

  unarchiveDeal: async (c) => {
    const { deal } = c.req.valid('param');
    const row = await onLockedDeal(c, deal, async (tx, current) => {
      if (!current.isArchived) throw new ApiProblem('conflict', dealMessages.message('deal.not_archived'));
      // An archived open deal counted as its customer's open deal all along: unarchiving adds none.
      const updated = await saveDeal(tx, current, { isArchived: false, archivedAt: null });
      await recordDealChange(tx, updated, 'deal.updated');
      return updated;
    });
    return c.json(...respond(row));
  },
} satisfies Partial<Handlers>;
