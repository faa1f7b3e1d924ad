// Move, win, lose, archive and unarchive: the source states each allows, what changes (status, stage, dates,
// lost_reason, is_archived), and the 409/422 answers of the contract.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, emptyPipeline, type Pipeline, pipelineOf, stageOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let stages: Pipeline;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  stages = await pipelineOf(api, companyId);
});

const stageRef = (id: number) => ({ object: 'pipeline_stage', id: String(id) });

async function expectConflict(res: { status: number; body: { code: string; detail: string } }, detail: RegExp) {
  expect(res.status).toBe(409);
  expect(res.body.code).toBe('conflict');
  expect(res.body.detail).toMatch(detail);
}

async function won() {
  const deal = await dealOf(api, key);
  const res = await api.call('winDeal', { key, params: { deal: deal.id } });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('moveDeal', () => {
  it('moves to another open stage: stage and stage_changed_at change, status stays open', async () => {
    const deal = await dealOf(api, key, { title: 'Verhuizen' });
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.quote } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    const moved = res.body.data;
    expect(moved).toEqual({
      ...deal,
      stage: stageRef(stages.quote),
      stage_changed_at: moved.updated_at,
      updated_at: moved.updated_at,
    });
    expect(Date.parse(moved.stage_changed_at)).toBeGreaterThan(Date.parse(deal.stage_changed_at) - 1);
  });

  it('to a won stage: status won, won_at set', async () => {
    const deal = await dealOf(api, key);
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.won } });
    expect(res.body.data).toMatchObject({
      status: 'won',
      stage: stageRef(stages.won),
      won_at: res.body.data.updated_at,
      lost_at: null,
      lost_reason: null,
      stage_changed_at: res.body.data.updated_at,
    });
  });

  it('to a lost stage: status lost, lost_at set, no reason; from won, won_at is cleared', async () => {
    const deal = await won();
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.lost } });
    expect(res.body.data).toMatchObject({
      status: 'lost',
      stage: stageRef(stages.lost),
      won_at: null,
      lost_at: res.body.data.updated_at,
      lost_reason: null,
    });
  });

  it('back to an open stage reopens a lost deal: won_at, lost_at and lost_reason are cleared', async () => {
    const deal = await dealOf(api, key);
    await api.call('loseDeal', { key, params: { deal: deal.id }, body: { lost_reason: 'Te duur' } });
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.qualified } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'open',
      stage: stageRef(stages.qualified),
      won_at: null,
      lost_at: null,
      lost_reason: null,
    });
  });

  it('between two won stages keeps won_at (the deal was won then)', async () => {
    const bonus = await stageOf(api, companyId, { type: 'won', position: 7 });
    const deal = await won();
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: bonus } });
    expect(res.body.data).toMatchObject({ status: 'won', stage: stageRef(bonus), won_at: deal.won_at });
    expect(res.body.data.stage_changed_at).toBe(res.body.data.updated_at);
  });

  it('to the stage it is in changes nothing and answers the deal', async () => {
    const deal = await dealOf(api, key);
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.newStage } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.data).toEqual(deal);
  });

  it('to the stage it is in, deactivated since, still changes nothing (200); into another inactive stage: 422', async () => {
    const retiring = await stageOf(api, companyId, { type: 'open', position: 8 });
    const deal = await dealOf(api, key);
    const moved = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: retiring } });
    expect(moved.status).toBe(200);
    await api.sql`update pipeline_stages set is_active = false where id = ${retiring}`;
    const again = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: retiring } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(moved.body.data);
    const other = await dealOf(api, key);
    const refused = await api.call('moveDeal', { key, params: { deal: other.id }, body: { stage_id: retiring } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: '/stage_id', code: 'invalid_reference' })]);
  });

  it('reopening when the customer meanwhile has another open deal: 409 with that deal_id', async () => {
    const customer = await customerOf(api, key);
    const first = await dealOf(api, key, { customer_id: customer });
    await api.call('loseDeal', { key, params: { deal: first.id } });
    const second = await dealOf(api, key, { customer_id: customer });
    const res = await api.call('moveDeal', { key, params: { deal: first.id }, body: { stage_id: stages.newStage } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', deal_id: second.id });
    const [row] = await api.sql`select status, version from deals where id = ${first.id}`;
    expect(row).toEqual({ status: 'lost', version: 2 });
  });

  it('an archived deal: 409; an unknown, inactive or other stage: 422 invalid_reference', async () => {
    const deal = await dealOf(api, key);
    const inactive = await stageOf(api, companyId, { type: 'open', position: 8, active: false });
    for (const stage_id of [999999, inactive]) {
      const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/stage_id', code: 'invalid_reference' })]);
    }
    await api.call('archiveDeal', { key, params: { deal: deal.id } });
    await expectConflict(
      await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.quote } }),
      /archived/,
    );
  });

  it('requires stage_id', async () => {
    const deal = await dealOf(api, key);
    const res = await api.call('moveDeal', { key, params: { deal: deal.id }, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/stage_id', code: 'required' })]);
  });
});

describe('winDeal', () => {
  it('without a body: into the first won stage; status won, won_at and stage_changed_at set', async () => {
    const deal = await dealOf(api, key, { value: 100 });
    const res = await api.call('winDeal', { key, params: { deal: deal.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    const at = res.body.data.updated_at;
    expect(res.body.data).toEqual({
      ...deal,
      status: 'won',
      stage: stageRef(stages.won),
      won_at: at,
      stage_changed_at: at,
      updated_at: at,
    });
  });

  it('with {} and with a chosen won stage', async () => {
    const second = await stageOf(api, companyId, { type: 'won', position: 4 });
    const a = await dealOf(api, key);
    const first = await api.call('winDeal', { key, params: { deal: a.id }, body: {} });
    // The won stage with the lowest position.
    expect(first.body.data.stage).toEqual(stageRef(second));
    const b = await dealOf(api, key);
    const chosen = await api.call('winDeal', { key, params: { deal: b.id }, body: { stage_id: stages.won } });
    expect(chosen.body.data).toMatchObject({ status: 'won', stage: stageRef(stages.won) });
    await api.sql`update pipeline_stages set is_active = false where id = ${second}`;
  });

  it('a won, lost or archived deal: 409', async () => {
    const wonDeal = await won();
    await expectConflict(await api.call('winDeal', { key, params: { deal: wonDeal.id } }), /this deal is won/);
    const lost = await dealOf(api, key);
    await api.call('loseDeal', { key, params: { deal: lost.id } });
    await expectConflict(await api.call('winDeal', { key, params: { deal: lost.id } }), /this deal is lost/);
    const archived = await dealOf(api, key);
    await api.call('archiveDeal', { key, params: { deal: archived.id } });
    await expectConflict(await api.call('winDeal', { key, params: { deal: archived.id } }), /archived/);
  });

  it('a stage that is not of type won: 422 invalid_reference', async () => {
    const deal = await dealOf(api, key);
    for (const stage_id of [stages.lost, stages.quote, 999999]) {
      const res = await api.call('winDeal', { key, params: { deal: deal.id }, body: { stage_id } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/stage_id', code: 'invalid_reference' })]);
    }
  });

  it('a pipeline without an active won stage: 409', async () => {
    const bare = await api.tenant();
    await emptyPipeline(api, bare.companyId);
    await stageOf(api, bare.companyId, { type: 'open', position: 1, isDefault: true });
    await stageOf(api, bare.companyId, { type: 'won', position: 2, active: false });
    const deal = await dealOf(api, bare.key);
    await expectConflict(
      await api.call('winDeal', { key: bare.key, params: { deal: deal.id } }),
      /no active stage of type won/,
    );
    await expectConflict(
      await api.call('loseDeal', { key: bare.key, params: { deal: deal.id } }),
      /no active stage of type lost/,
    );
  });

  it('unknown fields and a body that is not JSON are refused', async () => {
    const deal = await dealOf(api, key);
    const unknown = await api.call('winDeal', { key, params: { deal: deal.id }, body: { lost_reason: 'x' } });
    expect(unknown.body.code).toBe('unknown_field');
    const text = await api.call('winDeal', {
      key,
      params: { deal: deal.id },
      rawBody: 'win',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });
});

describe('loseDeal', () => {
  it('with a reason: status lost, lost_at, lost_reason, first lost stage', async () => {
    const deal = await dealOf(api, key);
    const res = await api.call('loseDeal', {
      key,
      params: { deal: deal.id },
      body: { lost_reason: 'Koos voor een goedkopere aanbieder.' },
    });
    expect(res.status).toBe(200);
    const at = res.body.data.updated_at;
    expect(res.body.data).toEqual({
      ...deal,
      status: 'lost',
      stage: stageRef(stages.lost),
      lost_reason: 'Koos voor een goedkopere aanbieder.',
      lost_at: at,
      stage_changed_at: at,
      updated_at: at,
    });
  });

  it('without a body, or with lost_reason null: no reason', async () => {
    for (const body of [undefined, {}, { lost_reason: null }]) {
      const deal = await dealOf(api, key);
      const res = await api.call('loseDeal', { key, params: { deal: deal.id }, body });
      expect(res.body.data).toMatchObject({ status: 'lost', lost_reason: null });
    }
  });

  it('a won, lost or archived deal: 409; a reason over 500 characters or a non-lost stage: 422', async () => {
    const wonDeal = await won();
    await expectConflict(await api.call('loseDeal', { key, params: { deal: wonDeal.id } }), /this deal is won/);
    const deal = await dealOf(api, key);
    const long = await api.call('loseDeal', { key, params: { deal: deal.id }, body: { lost_reason: 'x'.repeat(501) } });
    expect(long.status).toBe(422);
    const stage = await api.call('loseDeal', { key, params: { deal: deal.id }, body: { stage_id: stages.won } });
    expect(stage.body.errors).toEqual([expect.objectContaining({ pointer: '/stage_id', code: 'invalid_reference' })]);
    await api.call('loseDeal', { key, params: { deal: deal.id } });
    await expectConflict(await api.call('loseDeal', { key, params: { deal: deal.id } }), /this deal is lost/);
  });
});

describe('archiveDeal and unarchiveDeal', () => {
  it('archive keeps stage and status, sets is_archived and archived_at; unarchive undoes it', async () => {
    const deal = await won();
    const archived = await api.call('archiveDeal', { key, params: { deal: deal.id } });
    expect(archived.status).toBe(200);
    const at = archived.body.data.updated_at;
    expect(archived.body.data).toEqual({ ...deal, is_archived: true, archived_at: at, updated_at: at });
    const back = await api.call('unarchiveDeal', { key, params: { deal: deal.id } });
    expect(back.status).toBe(200);
    expect(back.body.data).toEqual({ ...deal, updated_at: back.body.data.updated_at });
    expect(back.headers.get('etag')).toBe('"4"');
  });

  it('archiving an archived deal or unarchiving one on the board: 409', async () => {
    const deal = await dealOf(api, key);
    await expectConflict(await api.call('unarchiveDeal', { key, params: { deal: deal.id } }), /not archived/);
    await api.call('archiveDeal', { key, params: { deal: deal.id } });
    await expectConflict(await api.call('archiveDeal', { key, params: { deal: deal.id } }), /already archived/);
  });

  it('an archived open deal is still its customer’s open deal: creation 409 with its id until it is won or lost', async () => {
    const customer = await customerOf(api, key);
    const old = await dealOf(api, key, { customer_id: customer });
    await api.call('archiveDeal', { key, params: { deal: old.id } });
    const refused = await api.call('createDeal', { key, body: { customer_id: customer } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', deal_id: old.id });
    expect(refused.body.detail).toMatch(/archived ones count too/);
    // Unarchiving never conflicts: the deal was the customer's open deal all along.
    expect((await api.call('unarchiveDeal', { key, params: { deal: old.id } })).status).toBe(200);
    await api.call('loseDeal', { key, params: { deal: old.id } });
    const fresh = await dealOf(api, key, { customer_id: customer });
    // A won or lost deal comes back from the archive regardless.
    await api.call('archiveDeal', { key, params: { deal: old.id } });
    await api.call('winDeal', { key, params: { deal: fresh.id } });
    await api.call('archiveDeal', { key, params: { deal: fresh.id } });
    expect((await api.call('unarchiveDeal', { key, params: { deal: old.id } })).status).toBe(200);
    const wonBack = await api.call('unarchiveDeal', { key, params: { deal: fresh.id } });
    expect(wonBack.status).toBe(200);
    expect(wonBack.body.data).toMatchObject({ status: 'won', is_archived: false });
  });
});
