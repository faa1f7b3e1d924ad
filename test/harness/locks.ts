// Tests that make two transactions meet at a known point: one holds a lock from another connection, and the test
// waits until the other is seen waiting for it.
import type postgres from 'postgres';

/** Whether a backend of this database waits for a lock while running a statement matching `pattern` (ILIKE). */
export async function waitsForLock(sql: postgres.Sql, pattern = '%'): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`;
  return (row?.n ?? 0) > 0;
}
