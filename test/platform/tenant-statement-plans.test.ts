// The worker's pipelined tenant statements (src/db/tenant-statement.ts) run on their generic plan from the
// first run on a connection: PostgreSQL would otherwise plan them anew on each of their first five runs there.
import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { tenantStatements } from '../../src/db/tenant-statement.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let companyId: string;
beforeAll(async () => {
  api = await setupApi();
  ({ companyId } = await api.tenant());
});

it('plans a statement with parameters once, generically, on its first run', async () => {
  // A text no connection has prepared yet.
  const tag = randomUUID();
  const [, [plans]] = await tenantStatements<Record<string, unknown>>(api.db, companyId, (sql) => [
    sql.unsafe(`select count(*) as n from customers where id = any($1::uuid[]) -- ${tag}`, [[randomUUID()]], {
      prepare: true,
    }),
    sql.unsafe(
      'select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like $1',
      [`%${tag}`],
    ),
  ]);
  expect(plans).toEqual({ generic: 1, custom: 0 });
});
