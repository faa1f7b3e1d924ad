// SQL of pipeline stages (set up in the web application, read here); every function takes the tenant
// transaction first.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { pipelineStages } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { type PageRequest, selectPage } from '../../http/pagination.ts';
import type { StageRow } from './serialize.ts';

const active = (companyId: string) => and(eq(pipelineStages.companyId, companyId), eq(pipelineStages.isActive, true));

/** The active stages in board order (position, then id). */
export async function listStages(tx: Tx, companyId: string, page: PageRequest) {
  return selectPage(tx, pipelineStages, page, { sorts: { position: pipelineStages.position }, id: pipelineStages.id }, [
    active(companyId),
  ]);
}

// The stage lookups below are for deals about to be written into the stage: each holds the stage FOR SHARE until
// commit. A stage deleted or retired meanwhile (in the web application) then waits for the deal's write, or is
// seen gone and answered 422 — not a foreign-key failure (500), nor a deal left in a stage no longer listed.

export async function findActiveStage(tx: Tx, companyId: string, id: number): Promise<StageRow | undefined> {
  const [row] = await tx
    .select()
    .from(pipelineStages)
    .where(and(active(companyId), eq(pipelineStages.id, id)))
    .for('share');
  return row;
}

/** The active stages of type open among `ids`, each held FOR SHARE like findActiveStage (a batch's new deals). */
export async function findActiveOpenStages(tx: Tx, companyId: string, ids: number[]): Promise<StageRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(pipelineStages)
    .where(and(active(companyId), eq(pipelineStages.type, 'open'), inArray(pipelineStages.id, ids)))
    .orderBy(pipelineStages.id)
    .for('share');
}

/** Where new deals land without a stage: the active default stage of type open. */
export async function findDefaultStage(tx: Tx, companyId: string): Promise<StageRow | undefined> {
  return againAfterReplacement(async () => {
    const [row] = await tx
      .select()
      .from(pipelineStages)
      .where(and(active(companyId), eq(pipelineStages.isDefault, true), eq(pipelineStages.type, 'open')))
      .orderBy(asc(pipelineStages.position), asc(pipelineStages.id))
      .limit(1)
      .for('share');
    return row;
  });
}

/**
 * findDefaultStage's first look-up as a value inside a write (a new deal's stage_id), held FOR SHARE the same way:
 * the write needs no round trip of its own to learn the stage. Null when it finds none — also when it waited for a
 * replacement of the board (see againAfterReplacement): the caller then asks findDefaultStage.
 */
export function defaultStageId(companyId: string): SQL {
  const lookup = new QueryBuilder()
    .select({ id: pipelineStages.id })
    .from(pipelineStages)
    .where(and(active(companyId), eq(pipelineStages.isDefault, true), eq(pipelineStages.type, 'open')))
    .orderBy(asc(pipelineStages.position), asc(pipelineStages.id))
    .limit(1)
    .for('share');
  return sql`${lookup}`;
}

/**
 * A lookup that waited for the stages' lock while the operator replaced them (`company stages`) sees only the
 * rows it waited for, re-checked: no longer the default, or gone. The new board is there for the next statement,
 * so a lookup that found nothing runs once more (one statement more, only when it finds nothing).
 */
async function againAfterReplacement<T>(lookup: () => Promise<T | undefined>): Promise<T | undefined> {
  return (await lookup()) ?? lookup();
}

/** The first active stage of a type on the board (win and lose without a stage). */
export async function firstStageOfType(tx: Tx, companyId: string, type: 'won' | 'lost'): Promise<StageRow | undefined> {
  return againAfterReplacement(async () => {
    const [row] = await tx
      .select()
      .from(pipelineStages)
      .where(and(active(companyId), eq(pipelineStages.type, type)))
      .orderBy(asc(pipelineStages.position), asc(pipelineStages.id))
      .limit(1)
      .for('share');
    return row;
  });
}
