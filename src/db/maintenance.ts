// The cron tasks' transaction: across companies, as the maintenance role (its grants and policies are what let
// it delete any company's old rows, and nothing else), without the sessions' statement limit (a large backlog
// may take longer, see SESSION_LIMITS in db/client.ts).
import type postgres from 'postgres';
import type { Sql } from './client.ts';

export async function asMaintenance(sql: Sql, statement: (tx: postgres.TransactionSql) => Promise<unknown>) {
  await sql.begin(async (tx) => {
    await tx`select set_config('role', 'app_maintenance', true), set_config('statement_timeout', '0', true)`;
    await statement(tx);
  });
}

/** A cron job's payload, as Graphile Worker's cron queues it; the purge tasks read nothing of it. */
export type CronPayload = { _cron?: { ts: string; backfilled?: boolean } };
