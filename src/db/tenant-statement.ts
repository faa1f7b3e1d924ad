// A one-statement tenant transaction sent in one go: BEGIN, the settings withTenant makes (role app_api,
// app.company_id, both local to the transaction, so row-level security confines the statement to the
// company), the statement, COMMIT — pipelined on one reserved connection of the postgres.js pool. One round
// trip instead of four, and the database never waits for Node in the middle of the transaction (no
// "idle in transaction" while the event loop is busy elsewhere). For the hot paths of the webhook tasks only;
// everything else uses withTenant (tenant.ts).
import type postgres from 'postgres';
import type { Db } from './client.ts';
import { retryingConflicts } from './transient.ts';

type Row = Record<string, unknown>;

export function tenantStatement<T extends Row>(
  db: Db,
  companyId: string,
  statement: (sql: postgres.ReservedSql) => postgres.PendingQuery<T[]>,
): Promise<T[]> {
  // Made again, in a new transaction, when PostgreSQL aborted it for a deadlock (see transient.ts).
  return retryingConflicts(() => pipelined(db, companyId, statement));
}

async function pipelined<T extends Row>(
  db: Db,
  companyId: string,
  statement: (sql: postgres.ReservedSql) => postgres.PendingQuery<T[]>,
): Promise<T[]> {
  const sql = await db.$client.reserve();
  try {
    // Built before BEGIN is sent: a builder that throws must not leave the connection in a transaction.
    const query = statement(sql);
    // Executed in this order on the one connection, without waiting for each other's answers.
    const queries = [
      sql`begin`.execute(),
      sql`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true)`.execute(),
      query.execute(),
      // After a failed statement the transaction is aborted and COMMIT rolls it back.
      sql`commit`.execute(),
    ] as const;
    const settled = await Promise.allSettled(queries);
    // The first failure is the cause; the later ones only say that the transaction was aborted.
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    return (settled[2] as PromiseFulfilledResult<T[]>).value;
  } finally {
    sql.release();
  }
}
