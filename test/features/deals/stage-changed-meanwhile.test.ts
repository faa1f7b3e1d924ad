// A pipeline stage deleted or retired (in the web application) while a deal is being moved into it or created in
// it. The deal's stage is read FOR SHARE (pipeline-stages/queries.ts): the request waits for the change and then
// answers as after it (422 invalid_reference). With a plain read the deal's foreign key failed (500) after a
// deletion, and after a retirement the deal was left in a stage no longer listed.
//
// Deterministic timing: connection Z stands for the web application changing the stage; it holds the stage row
// until it commits, once the request waits for it.
import { beforeAll, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { until } from '../../harness/async.ts';
import { waitsForLock } from '../../harness/locks.ts';
import { customerOf, dealOf, type Pipeline, pipelineOf, stageOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let stages: Pipeline;
beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  stages = await pipelineOf(api, companyId);
});

/** Until the request waits for the lock connection Z holds. */
const waitForLockWaiter = () => until(() => waitsForLock(api.sql), 'the request waits', 3000);

/** Runs `request` while connection Z deletes stage `id`; Z commits once the request waits for it. */
async function whileStageIsDeleted<T>(id: number, request: () => Promise<T>): Promise<T> {
  const z = await api.sql.reserve();
  try {
    await z`begin`;
    await z`delete from pipeline_stages where id = ${id}`;
    const pending = request();
    await waitForLockWaiter();
    await z`commit`;
    return await pending;
  } finally {
    await z`rollback`.catch(() => {});
    z.release();
  }
}

it('moveDeal into a stage deleted meanwhile: 422 invalid_reference, not 500', async () => {
  const deal = await dealOf(api, key);
  const doomed = await stageOf(api, companyId, { type: 'open', position: 4 });
  const res = await whileStageIsDeleted(doomed, () =>
    api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: doomed } }),
  );
  // The same request after the deletion answers 422 invalid_reference.
  const after = await api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: doomed } });
  expect(after.status).toBe(422);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect((await api.call('getDeal', { key, params: { deal: deal.id } })).body.data.stage.id).toBe(
    String(stages.newStage),
  );
});

it('createDeal with a stage_id deleted meanwhile: 422 invalid_reference, not 500', async () => {
  const customer = await customerOf(api, key);
  const doomed = await stageOf(api, companyId, { type: 'open', position: 4 });
  const res = await whileStageIsDeleted(doomed, () =>
    api.call('createDeal', { key, body: { customer_id: customer, stage_id: doomed } }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(422);
});

it('winDeal into a won stage deleted meanwhile: 422 invalid_reference, not 500', async () => {
  const deal = await dealOf(api, key);
  const doomed = await stageOf(api, companyId, { type: 'won', position: 7 });
  const res = await whileStageIsDeleted(doomed, () =>
    api.call('winDeal', { key, params: { deal: deal.id }, body: { stage_id: doomed } }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(422);
});

// Retiring instead of deleting: connection Z stands for the web application retiring a stage in one transaction
// (deactivate it, move its deals to the first stage). With a plain read the move never waited for Z and the deal
// landed in the stage after Z emptied it: no serial order of the two gives that.
it('moveDeal into a stage being retired: the deal does not end up in an inactive stage', async () => {
  const deal = await dealOf(api, key);
  const retired = await stageOf(api, companyId, { type: 'open', position: 4 });
  const z = await api.sql.reserve();
  let res: Awaited<ReturnType<typeof api.call>>;
  try {
    await z`begin`;
    await z`update pipeline_stages set is_active = false where id = ${retired}`;
    await z`update deals set stage_id = ${stages.newStage} where stage_id = ${retired}`;
    const pending = api.call('moveDeal', { key, params: { deal: deal.id }, body: { stage_id: retired } });
    // Give the move time to either wait for Z (fixed) or finish (now).
    await waitForLockWaiter();
    await z`commit`;
    res = await pending;
    expect(res.status).toBe(422);
  } finally {
    await z`rollback`.catch(() => {});
    z.release();
  }
  const [row] = await api.sql`select d.stage_id, s.is_active from deals d join pipeline_stages s
    on s.company_id = d.company_id and s.id = d.stage_id where d.id = ${deal.id}`;
  expect(row.is_active, `deal ${res.status} in stage ${row.stage_id}`).toBe(true);
});
