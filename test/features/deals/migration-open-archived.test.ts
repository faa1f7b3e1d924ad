// Migration 0021 counts archived open deals in deals_one_open_per_customer. Data written before it may give a
// customer an archived open deal besides another open deal: the migration keeps one open deal per customer (the
// one on the board, else the one archived last) and closes the other archived ones as lost, working through
// row-level security as the API does. Run here against the old index, on a database migrated to the end.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, emptyPipeline, type Pipeline, pipelineOf, stageOf } from './fixtures.ts';

const MIGRATION = readFileSync(
  fileURLToPath(new URL('../../../drizzle/0021_open_deal_archived_too.sql', import.meta.url)),
  'utf8',
);

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

/** Puts the index back as it was before 0021 (archived deals left out). */
async function oldIndex() {
  await api.sql.unsafe(`drop index deals_one_open_per_customer;
    create unique index deals_one_open_per_customer on deals (company_id, customer_id)
      where status = 'open' and not is_archived`);
}

const migrate = () => api.sql.begin((tx) => tx.unsafe(MIGRATION.replaceAll('--> statement-breakpoint', '')));

async function deal(companyId: string, customer: string, stage: number, archivedMinutesAgo: number | null) {
  const [row] = await api.sql<{ id: string }[]>`
    insert into deals (company_id, id, customer_id, stage_id, currency, source, is_archived, archived_at)
    values (${companyId}, ${crypto.randomUUID()}, ${customer}, ${stage}, 'EUR', 'api', ${archivedMinutesAgo !== null},
            ${archivedMinutesAgo === null ? null : new Date(Date.now() - archivedMinutesAgo * 60_000).toISOString()}::timestamptz)
    returning id`;
  return row.id;
}

const stateOf = async (id: string) => {
  const [row] = await api.sql`select status, stage_id::int as stage, is_archived, version, lost_at is not null as lost
                              from deals where id = ${id}`;
  return row;
};

describe('migration 0021 (an archived open deal is still open)', () => {
  it('closes the extra archived open deals as lost and then counts archived deals in the index', async () => {
    const t = await api.tenant();
    const stages: Pipeline = await pipelineOf(api, t.companyId);
    const [onBoard, allArchived, single] = [
      await customerOf(api, t.key),
      await customerOf(api, t.key),
      await customerOf(api, t.key),
    ];
    await oldIndex();
    const archivedBesideBoard = await deal(t.companyId, onBoard, stages.qualified, 60);
    const board = await deal(t.companyId, onBoard, stages.newStage, null);
    const archivedFirst = await deal(t.companyId, allArchived, stages.newStage, 120);
    const archivedLast = await deal(t.companyId, allArchived, stages.quote, 30);
    const alone = await deal(t.companyId, single, stages.newStage, 10);

    await migrate();

    const closed = { status: 'lost', stage: stages.lost, is_archived: true, version: 2, lost: true };
    expect(await stateOf(archivedBesideBoard)).toEqual(closed);
    expect(await stateOf(archivedFirst)).toEqual(closed);
    const kept = { status: 'open', is_archived: true, version: 1, lost: false };
    expect(await stateOf(board)).toMatchObject({ ...kept, is_archived: false });
    expect(await stateOf(archivedLast)).toMatchObject(kept);
    expect(await stateOf(alone)).toMatchObject(kept);

    const [{ definition }] =
      await api.sql`select pg_get_indexdef('deals_one_open_per_customer'::regclass) as definition`;
    expect(definition).toMatch(/WHERE \(status = 'open'::text\)$/);
    const res = await api.call('createDeal', { key: t.key, body: { customer_id: single } });
    expect(res.status).toBe(409);
    expect(res.body.deal_id).toBe(alone);
  });

  it('refuses, naming the company, when such a company has no lost stage to close the deals in', async () => {
    const t = await api.tenant();
    await emptyPipeline(api, t.companyId);
    const open = await stageOf(api, t.companyId, { type: 'open', position: 1, isDefault: true });
    const customer = await customerOf(api, t.key);
    await oldIndex();
    await deal(t.companyId, customer, open, 5);
    await deal(t.companyId, customer, open, null);
    await expect(migrate()).rejects.toThrow(
      new RegExp(`company ${t.companyId} has customers with an archived open deal`),
    );
    await api.sql`delete from deals where company_id = ${t.companyId}`;
    await migrate();
  });
});
