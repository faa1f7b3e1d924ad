// The sweep_photo_prints task (cron, hourly: see CRONTAB in src/jobs/worker.ts): queues the print job of every
// work-order photo still without a print version some minutes after its upload — a job lost with a database
// restored from a backup, or photos of before print versions (drizzle/0042 queues those too). Idempotent: a
// photo's job has one job key, and a job finding its photo made already does nothing.
import type { Task } from 'graphile-worker';
import type { Db } from '../../../db/client.ts';
import type { CronPayload } from '../../../db/maintenance.ts';
import { companies } from '../../../db/schema/index.ts';
import { withTenant } from '../../../db/tenant.ts';
import { queuePendingPrints } from '../photo-prints.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      sweep_photo_prints: CronPayload;
    }
  }
}

export function sweepPhotoPrintsTask(db: Db): Task<'sweep_photo_prints'> {
  return async () => {
    const rows = await db.select({ id: companies.id }).from(companies);
    for (const { id } of rows) await withTenant(db, id, (tx) => queuePendingPrints(tx, id));
  };
}
