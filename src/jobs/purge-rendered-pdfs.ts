// The purge_rendered_pdfs task (hourly, see CRONTAB in worker.ts): kept PDFs go a week after their render
// (src/pdf/rendered-pdfs.ts), so a deleted document's PDF does not stay and one still downloaded renders once more.
import type { Task } from 'graphile-worker';
import type { Sql } from '../db/client.ts';
import { asMaintenance, type CronPayload } from '../db/maintenance.ts';
import { RENDERED_PDF_DAYS } from '../pdf/rendered-pdfs.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      purge_rendered_pdfs: CronPayload;
    }
  }
}

export function purgeRenderedPdfsTask(sql: Sql): Task<'purge_rendered_pdfs'> {
  return async () => {
    await asMaintenance(
      sql,
      (tx) => tx`delete from rendered_pdfs where rendered_at < now() - make_interval(days => ${RENDERED_PDF_DAYS})`,
    );
  };
}
