// A creation that waits on the default stage's lock while the operator replaces the stages (`company stages`,
// which locks them FOR UPDATE) must land in the new default stage, not answer 409 "no default stage": after the
// wait, PostgreSQL re-checks only the row it waited for, which is no longer the default.
import { beforeAll, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { until } from '../../harness/async.ts';
import { waitsForLock } from '../../harness/locks.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

it('a creation that waited for a stage replacement takes the new default stage', async () => {
  const customer = await api.call('createCustomer', { key, body: { email: 'wacht@example.nl' } });
  let newDefault = 0;
  let creation: ReturnType<typeof api.call<'createDeal'>> | undefined;
  await api.sql.begin(async (tx) => {
    await tx`select id from pipeline_stages where company_id = ${companyId} for update`;
    await tx`update pipeline_stages set is_default = false where company_id = ${companyId} and is_default`;
    const [row] = await tx<{ id: number }[]>`
      insert into pipeline_stages (company_id, name_en, type, is_default, position, probability)
      values (${companyId}, 'Intake', 'open', true, 0, 5) returning id`;
    newDefault = Number(row.id);
    creation = api.call<'createDeal'>('createDeal', {
      key,
      body: { customer_id: customer.body.data.id, title: 'Dakkapel' },
    });
    await until(() => waitsForLock(api.sql, '%pipeline_stages%'), 'the creation waits for the stages', 5000);
  });
  const created = await creation;
  expect({ status: created?.status, stage: created?.body.data?.stage.id }).toEqual({
    status: 201,
    stage: String(newDefault),
  });
});
