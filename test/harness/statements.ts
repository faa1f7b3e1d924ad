// The statements a test's service sends through its two pools (transactions, one-statement reads as the tenant),
// seen through postgres.js' `debug` hook: which pool and which text, to tell a one-statement read from a
// transaction.
import type { Deps } from '../../src/deps.ts';

export type SentStatement = { pool: 'transaction' | 'tenant'; text: string };

/** The statements `deps`' pools send while `work` runs. */
export async function statementsDuring(deps: Deps, work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  deps.sql.options.debug = (_connection, text) => sent.push({ pool: 'transaction', text });
  deps.tenantSql.options.debug = (_connection, text) => sent.push({ pool: 'tenant', text });
  try {
    await work();
  } finally {
    deps.sql.options.debug = false;
    deps.tenantSql.options.debug = false;
  }
  return sent;
}
