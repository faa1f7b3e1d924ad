// A company's sales pipeline (its deal stages): the default pipeline every new company gets, and the
// operator's replacement of it (CLI `company stages`). The API only reads stages.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { deals, pipelineStages } from '../db/schema/index.ts';
import { type Tx, withTenant } from '../db/tenant.ts';
import type { LANGUAGES } from '../languages.ts';

export type StageNames = Record<(typeof LANGUAGES)[number], string | null>;

/** A stage as the operator gives it; `id` keeps an existing stage (its deals stay in it), without it one is added. */
export type StageInput = {
  id?: number;
  names: StageNames;
  type: 'open' | 'won' | 'lost';
  isDefault: boolean;
  /** Percentage with two decimals, as stored. */
  probability: string;
  color: string | null;
};

/**
 * Every new company's board, so that deals can be created at once: new deals land in the first stage, then
 * two further open stages, won and lost. Names in the four languages (the API answers the request's language).
 */
export const DEFAULT_PIPELINE: StageInput[] = [
  {
    names: { nl: 'Nieuw', en: 'New', de: 'Neu', fr: 'Nouveau' },
    type: 'open',
    isDefault: true,
    probability: '10.00',
    color: '#64748B',
  },
  {
    names: { nl: 'Contact gelegd', en: 'Contacted', de: 'Kontaktiert', fr: 'Contacté' },
    type: 'open',
    isDefault: false,
    probability: '25.00',
    color: '#3B82F6',
  },
  {
    names: { nl: 'Offerte verstuurd', en: 'Quote sent', de: 'Angebot gesendet', fr: 'Devis envoyé' },
    type: 'open',
    isDefault: false,
    probability: '50.00',
    color: '#F59E0B',
  },
  {
    names: { nl: 'Onderhandeling', en: 'Negotiation', de: 'Verhandlung', fr: 'Négociation' },
    type: 'open',
    isDefault: false,
    probability: '75.00',
    color: '#8B5CF6',
  },
  {
    names: { nl: 'Gewonnen', en: 'Won', de: 'Gewonnen', fr: 'Gagné' },
    type: 'won',
    isDefault: false,
    probability: '100.00',
    color: '#10B981',
  },
  {
    names: { nl: 'Verloren', en: 'Lost', de: 'Verloren', fr: 'Perdu' },
    type: 'lost',
    isDefault: false,
    probability: '0.00',
    color: '#EF4444',
  },
];

const name = z.string().trim().min(1).max(100).nullable().optional();
const PERCENTAGE = 'a percentage from 0 to 100, two decimals';
// A number is checked as written (`String`), not by arithmetic: 0.29 * 100 is 28.999999999999996.
const probability = z
  .union([z.number().transform(String), z.string()])
  .pipe(z.string().regex(/^\d{1,3}(\.\d{1,2})?$/, PERCENTAGE))
  .transform(Number)
  .refine((n) => n <= 100, PERCENTAGE);

/** One stage of a `company stages --file` JSON file (see README, Operator CLI). */
const stageFileEntry = z
  .object({
    id: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d{0,17}$/)]).optional(),
    names: z
      .object({ nl: name, en: name, de: name, fr: name })
      .strict()
      .refine((names) => Object.values(names).some(Boolean), 'at least one name'),
    type: z.enum(['open', 'won', 'lost']).default('open'),
    default: z.boolean().default(false),
    probability: probability.optional(),
    color: z
      .string()
      .regex(/^#[0-9A-Fa-f]{6}$/, 'a colour like #3B82F6')
      .nullable()
      .default(null),
  })
  .strict();

/** The stages of a JSON file, in board order, or what is wrong with them. */
export function stagesFromJson(text: string): StageInput[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = z.array(stageFileEntry).min(1).max(50).safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`stage file: ${issue.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  const stages = result.data.map((entry) => ({
    ...(entry.id === undefined ? {} : { id: Number(entry.id) }),
    names: {
      nl: entry.names.nl ?? null,
      en: entry.names.en ?? null,
      de: entry.names.de ?? null,
      fr: entry.names.fr ?? null,
    },
    type: entry.type,
    isDefault: entry.default,
    probability: (entry.probability ?? (entry.type === 'won' ? 100 : 0)).toFixed(2),
    color: entry.color,
  }));
  const problem = pipelineProblem(stages);
  if (problem) throw new Error(`stage file: ${problem}`);
  return stages;
}

/** What makes a board unusable for the API: new deals need one default open stage, win and lose a stage each. */
function pipelineProblem(stages: StageInput[]): string | null {
  const defaults = stages.filter((s) => s.isDefault);
  if (defaults.length !== 1) return `exactly one stage must be the default (found ${defaults.length})`;
  if (defaults[0].type !== 'open') return 'the default stage must be of type open';
  for (const type of ['won', 'lost'] as const) {
    if (!stages.some((s) => s.type === type)) return `a stage of type ${type} is needed`;
  }
  const ids = stages.flatMap((s) => (s.id === undefined ? [] : [s.id]));
  if (new Set(ids).size !== ids.length) return 'a stage id is listed twice';
  return null;
}

const columnsOf = (stage: StageInput, position: number) => ({
  nameNl: stage.names.nl,
  nameEn: stage.names.en,
  nameDe: stage.names.de,
  nameFr: stage.names.fr,
  type: stage.type,
  isDefault: stage.isDefault,
  position,
  probability: stage.probability,
  color: stage.color,
  isActive: true,
});

/** Adds `stages` in board order, in a transaction that acts as the company (see withTenant). */
export async function insertStages(tx: Tx, companyId: string, stages: StageInput[]) {
  return tx
    .insert(pipelineStages)
    .values(stages.map((stage, i) => ({ companyId, ...columnsOf(stage, i + 1) })))
    .returning();
}

export type StageRow = typeof pipelineStages.$inferSelect;

/** The company's active stages in board order. */
export async function activeStages(tx: Tx, companyId: string): Promise<StageRow[]> {
  return tx
    .select()
    .from(pipelineStages)
    .where(and(eq(pipelineStages.companyId, companyId), eq(pipelineStages.isActive, true)))
    .orderBy(asc(pipelineStages.position), asc(pipelineStages.id));
}

export type Replacement = { stages: StageRow[]; deactivated: number[]; deleted: number[] };

/**
 * Makes `stages` the company's board, in this order. A listed `id` keeps that stage (and its deals); a stage left
 * out is deleted when no deal was ever in it, and deactivated (gone from the board, its closed and archived deals
 * keep it) when deals were. A stage left out that holds an open deal, or a listed stage with deals whose type
 * would change, refuses the whole replacement: deals never end up in a stage that is gone or says another status.
 */
export function replaceStages(db: Db, companyId: string, stages: StageInput[]): Promise<Replacement> {
  const problem = pipelineProblem(stages);
  if (problem) return Promise.reject(new Error(problem));
  return withTenant(db, companyId, async (tx) => {
    // FOR UPDATE waits for API requests writing deals into these stages (they hold them FOR SHARE), so the deal
    // counts below are final; requests after this see the new board.
    const existing = await tx
      .select()
      .from(pipelineStages)
      .where(eq(pipelineStages.companyId, companyId))
      .orderBy(asc(pipelineStages.id))
      .for('update');
    const counts = await tx
      .select({
        stageId: deals.stageId,
        all: sql<number>`count(*)::int`,
        open: sql<number>`(count(*) filter (where ${deals.status} = 'open'))::int`,
      })
      .from(deals)
      .where(eq(deals.companyId, companyId))
      .groupBy(deals.stageId);
    const dealsIn = (id: number) => counts.find((c) => c.stageId === id) ?? { all: 0, open: 0 };
    const byId = new Map(existing.map((row) => [row.id, row]));

    for (const stage of stages) {
      if (stage.id === undefined) continue;
      const row = byId.get(stage.id);
      if (!row) throw new Error(`company ${companyId} has no stage ${stage.id}`);
      if (row.type !== stage.type && dealsIn(row.id).all > 0) {
        throw new Error(`stage ${row.id} holds deals: its type stays ${row.type} (add a new stage instead)`);
      }
    }
    const listed = new Set(stages.map((s) => s.id));
    const removed = existing.filter((row) => row.isActive && !listed.has(row.id));
    const holding = removed.filter((row) => dealsIn(row.id).open > 0);
    if (holding.length) {
      const which = holding.map((row) => `${row.id} (${dealsIn(row.id).open} open deals)`).join(', ');
      throw new Error(`stages ${which} hold open deals: keep them, or move, win or lose those deals first`);
    }
    const deactivated = removed.filter((row) => dealsIn(row.id).all > 0).map((row) => row.id);
    const deleted = removed.filter((row) => dealsIn(row.id).all === 0).map((row) => row.id);
    if (deactivated.length) {
      await tx
        .update(pipelineStages)
        .set({ isActive: false, isDefault: false })
        .where(and(eq(pipelineStages.companyId, companyId), inArray(pipelineStages.id, deactivated)));
    }
    if (deleted.length) {
      await tx
        .delete(pipelineStages)
        .where(and(eq(pipelineStages.companyId, companyId), inArray(pipelineStages.id, deleted)));
    }
    for (const [i, stage] of stages.entries()) {
      const columns = columnsOf(stage, i + 1);
      if (stage.id === undefined) await tx.insert(pipelineStages).values({ companyId, ...columns });
      else {
        await tx
          .update(pipelineStages)
          .set(columns)
          .where(and(eq(pipelineStages.companyId, companyId), eq(pipelineStages.id, stage.id)));
      }
    }
    return { stages: await activeStages(tx, companyId), deactivated, deleted };
  });
}
