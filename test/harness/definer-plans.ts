// The plan of the statement inside a SECURITY DEFINER lookup function (app_search_customers, the custom-field
// search and range lookups) as app_api in one company calls it: auto_explain sends it, with the function's nested
// statements, to a connection of its own (a fresh backend: no plan of the function cached yet).
import postgres from 'postgres';
import { inject } from 'vitest';
import type { TestApi } from './api.ts';
import { withDatabase } from './db.ts';

/** Whether `fn` is owned by a role that bypasses row-level security (else it is correct, only without its index). */
export async function definerBypassesRls(api: TestApi, fn: string): Promise<boolean> {
  const [owner] = await api.sql<{ bypasses: boolean }[]>`
    select r.rolsuper or r.rolbypassrls as bypasses from pg_proc p join pg_roles r on r.oid = p.proowner
    where p.proname = ${fn}`;
  return Boolean(owner?.bypasses);
}

/** Runs `call` as app_api in `companyId` with auto_explain on: its rows, and the plans logged (nested ones too). */
export async function definerCallPlans(
  api: TestApi,
  companyId: string,
  call: (tx: postgres.TransactionSql) => postgres.PendingQuery<postgres.Row[]>,
): Promise<{ rows: postgres.Row[]; logged: string[] }> {
  const logged: string[] = [];
  const client = postgres(withDatabase(inject('pgAdminUrl'), api.sql.options.database), {
    max: 1,
    onnotice: (notice) => logged.push(String(notice.message)),
  });
  try {
    const rows = await client.begin(async (tx) => {
      await tx`load 'auto_explain'`;
      await tx`select set_config('auto_explain.log_min_duration', '0', true),
                      set_config('auto_explain.log_nested_statements', 'on', true),
                      set_config('client_min_messages', 'log', true)`;
      await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true)`;
      return call(tx);
    });
    return { rows, logged };
  } finally {
    await client.end();
  }
}
