// Retention of the event feed: events are kept 30 days (the contract's Limits). The feed already hides older
// rows (see resources/events/queries.ts); this purge, run by the worker, removes them from the table.
import type { Sql } from '../db/client.ts';

export const EVENT_RETENTION_DAYS = 30;

/**
 * Deletes the events of every company older than the retention period and answers how many went. Runs as
 * app_maintenance: the API role only sees one company's rows, this one may read and delete any company's
 * events (and nothing else). Deletes in batches, each its own transaction, so a large backlog never holds
 * one long transaction and its locks.
 */
export async function purgeOldEvents(sql: Sql, opts: { batchSize?: number } = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 5000;
  let total = 0;
  for (;;) {
    const deleted = await sql.begin(async (tx) => {
      await tx`select set_config('role', 'app_maintenance', true)`;
      const result = await tx`
        delete from events
        where (company_id, id) in (
          select company_id, id from events
          where created_at < app_now() - make_interval(days => ${EVENT_RETENTION_DAYS})
          limit ${batchSize}
        )`;
      return result.count;
    });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
