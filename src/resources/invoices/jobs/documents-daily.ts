// The sales_documents_daily task (cron, hourly: see CRONTAB in src/jobs/worker.ts): sent quotes whose last valid
// day has passed become `expired`, and invoices with an amount due past their due date become `overdue`
// (invoice.overdue). "Passed" is judged by the date in each company's time zone, so the first run after local
// midnight does it; running every hour makes a missed run harmless and the work is idempotent.
import type { Task } from 'graphile-worker';
import type { Db } from '../../../db/client.ts';
import { companies } from '../../../db/schema/index.ts';
import { withTenant } from '../../../db/tenant.ts';
import { expireQuotes } from '../../quotes/queries.ts';
import { markOverdue } from '../queries.ts';
import { recordInvoiceEvent } from '../record-event.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      sales_documents_daily: { _cron?: { ts: string; backfilled?: boolean } };
    }
  }
}

/** One company's run, in one tenant transaction: what it changed. `serviceUrl`: PUBLIC_URL, for the events. */
export async function runDocumentsDaily(db: Db, companyId: string, serviceUrl: string) {
  return withTenant(db, companyId, async (tx) => {
    const expired = await expireQuotes(tx, companyId);
    const overdue = await markOverdue(tx, companyId);
    for (const invoice of overdue) await recordInvoiceEvent(tx, invoice, 'invoice.overdue', serviceUrl);
    return { expired, overdue: overdue.length };
  });
}

export function salesDocumentsDailyTask(db: Db, serviceUrl: string): Task<'sales_documents_daily'> {
  return async () => {
    const rows = await db.select({ id: companies.id }).from(companies);
    for (const { id } of rows) await runDocumentsDaily(db, id, serviceUrl);
  };
}
