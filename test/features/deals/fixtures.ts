// What deal tests need besides the API: a company's pipeline (a new company has the default pipeline; these
// boards replace it, inserted directly as the web application would) and its users, and a few shortcuts over the
// API.
import { expect } from 'vitest';
import type { TestApi } from '../../harness/api.ts';

export type Pipeline = { newStage: number; qualified: number; quote: number; won: number; lost: number };

/** Removes the company's stages (no deal may be in them yet), for a board built stage by stage (stageOf). */
export async function emptyPipeline(api: TestApi, companyId: string): Promise<void> {
  await api.sql`delete from pipeline_stages where company_id = ${companyId}`;
}

/** The board of the contract's example instead of the company's: three open stages (the first the default), won, lost. */
export async function pipelineOf(api: TestApi, companyId: string): Promise<Pipeline> {
  await emptyPipeline(api, companyId);
  const rows = await api.sql<{ id: string }[]>`
    insert into pipeline_stages (company_id, name_nl, name_en, name_de, name_fr, type, is_default, position, probability, color)
    values
      (${companyId}, 'Nieuw', 'New', 'Neu', 'Nouveau', 'open', true, 1, 10, '#94A3B8'),
      (${companyId}, 'Gekwalificeerd', 'Qualified', 'Qualifiziert', null, 'open', false, 2, 25, '#3B82F6'),
      (${companyId}, 'Offerte verstuurd', 'Quote sent', null, null, 'open', false, 3, 50, null),
      (${companyId}, 'Gewonnen', 'Won', 'Gewonnen', 'Gagné', 'won', false, 5, 100, '#22C55E'),
      (${companyId}, 'Verloren', 'Lost', 'Verloren', 'Perdu', 'lost', false, 6, 0, '#EF4444')
    returning id`;
  const [newStage, qualified, quote, won, lost] = rows.map((r) => Number(r.id));
  return { newStage, qualified, quote, won, lost };
}

export async function stageOf(
  api: TestApi,
  companyId: string,
  stage: { type: 'open' | 'won' | 'lost'; position: number; active?: boolean; isDefault?: boolean },
): Promise<number> {
  const [row] = await api.sql<{ id: string }[]>`
    insert into pipeline_stages (company_id, name_en, type, is_default, position, is_active)
    values (${companyId}, ${`Stage ${stage.position}`}, ${stage.type}, ${stage.isDefault ?? false}, ${stage.position},
            ${stage.active ?? true})
    returning id`;
  return Number(row.id);
}

export async function userOf(api: TestApi, companyId: string, status: 'active' | 'inactive' = 'active') {
  const [row] = await api.sql<{ id: string }[]>`
    insert into users (company_id, name, email, status)
    values (${companyId}, 'Sanne de Vries', ${`${crypto.randomUUID()}@example.nl`}, ${status})
    returning id`;
  return Number(row.id);
}

export async function customerOf(api: TestApi, key: string, name = 'Bakkerij Jansen'): Promise<string> {
  const res = await api.call('createCustomer', { key, body: { name, email: `${crypto.randomUUID()}@example.nl` } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** A new open deal (201) for a new customer unless one is given. */
export async function dealOf(api: TestApi, key: string, body: Record<string, unknown> = {}) {
  const customer_id = (body.customer_id as string | undefined) ?? (await customerOf(api, key));
  const res = await api.call('createDeal', { key, body: { customer_id, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const MISSING = '01900000-0000-7000-8000-000000000000';
