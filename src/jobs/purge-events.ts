// The purge_events task (hourly, see CRONTAB in worker.ts): the delivery log is kept 30 days, and events as long
// as a timeline shows them (see events/retention.ts). A delivery's event may outlive it: nothing reads an event's
// deliveries past 30 days.
import type { Task } from 'graphile-worker';
import type { Sql } from '../db/client.ts';
import { asMaintenance, type CronPayload } from '../db/maintenance.ts';
import { purgeOldEvents } from '../events/retention.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      purge_events: CronPayload;
    }
  }
}

export function purgeEventsTask(sql: Sql): Task<'purge_events'> {
  return async () => {
    await purgeOldEvents(sql);
    await asMaintenance(sql, async (tx) => {
      await tx`delete from webhook_attempts where created_at < now() - interval '30 days'`;
      await tx`delete from webhook_deliveries where created_at < now() - interval '30 days'`;
    });
  };
}
