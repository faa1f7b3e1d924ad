// Retention of the event feed: the feed and webhooks show events of the last 30 days (the contract's Limits)
// and hide older rows themselves (see resources/events/queries.ts). The table also serves customer timelines,
// which the contract says are not purged: this purge, run by the worker, removes only the old events that are
// on no customer's timeline.
import type { Sql } from '../db/client.ts';

export const EVENT_RETENTION_DAYS = 30;

/**
 * Deletes the events of every company older than the retention period that no timeline shows (those without a
 * customer: resources/customers/timeline.ts reads a timeline by customer_id) and answers how many went. Runs as
 * app_maintenance: the API role only sees one company's rows, this one may read and delete any company's
 * events (and nothing else). Deletes in batches, each its own transaction, so a large backlog never holds
 * one long transaction and its locks; a batch may take longer than the sessions' statement limit (client.ts).
 */
export async function purgeOldEvents(sql: Sql, opts: { batchSize?: number } = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 5000;
  let total = 0;
  for (;;) {
    const deleted = await sql.begin(async (tx) => {
      await tx`select set_config('role', 'app_maintenance', true), set_config('statement_timeout', '0', true)`;
      const result = await tx`
        delete from events
        where (company_id, id) in (
          select company_id, id from events
          where created_at < app_now() - make_interval(days => ${EVENT_RETENTION_DAYS})
            and customer_id is null
          limit ${batchSize}
        )`;
      return result.count;
    });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
