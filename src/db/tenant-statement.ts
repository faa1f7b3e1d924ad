// A tenant transaction of one statement (or a few) sent in one go: BEGIN, the settings withTenant makes (role
// app_api, app.company_id, both local to the transaction, so row-level security confines the statements to the
// company), the statements, COMMIT — pipelined on one reserved connection of the postgres.js pool. One round
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
  return tenantStatements(db, companyId, (sql) => [statement(sql)]).then((results) => results[0] as T[]);
}

/**
 * Several statements in one such transaction, in order, still in one round trip: each statement sees what the
 * earlier ones wrote and locked (e.g. rows locked in id order first, then read as they are once locked).
 * Answers each statement's rows, in order.
 */
export function tenantStatements<T extends Row>(
  db: Db,
  companyId: string,
  statements: (sql: postgres.ReservedSql) => postgres.PendingQuery<T[]>[],
): Promise<T[][]> {
  // Made again, in a new transaction, when PostgreSQL aborted it for a deadlock (see transient.ts).
  return retryingConflicts(() => pipelined(db, companyId, statements));
}

async function pipelined<T extends Row>(
  db: Db,
  companyId: string,
  statements: (sql: postgres.ReservedSql) => postgres.PendingQuery<T[]>[],
): Promise<T[][]> {
  const sql = await db.$client.reserve();
  try {
    // Built before BEGIN is sent: a builder that throws must not leave the connection in a transaction.
    const built = statements(sql);
    // Executed in this order on the one connection, without waiting for each other's answers.
    // The generic plan from the first run on: these statements' plans do not depend on their values (a company,
    // ids, a batch), and PostgreSQL otherwise plans each anew on its first five runs on every connection — a burst
    // spread over a pool's fresh connections spent 1–5 ms of planning per batch (scripts/bench/README.md).
    const begun = [
      sql`begin`.execute(),
      sql`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true),
        set_config('plan_cache_mode', 'force_generic_plan', true)`.execute(),
    ];
    const results = built.map((query) => query.execute());
    // After a failed statement the transaction is aborted and COMMIT rolls it back.
    const ended = sql`commit`.execute();
    const settled = await Promise.allSettled([...begun, ...results, ended]);
    // The first failure is the cause; the later ones only say that the transaction was aborted.
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    return settled
      .slice(begun.length, begun.length + results.length)
      .map((r) => (r as PromiseFulfilledResult<T[]>).value);
  } finally {
    sql.release();
  }
}
