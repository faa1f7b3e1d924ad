// The sales_documents_daily task (cron, hourly: see CRONTAB in src/jobs/worker.ts): sent quotes whose last valid
// day has passed become `expired`, invoices with an amount due past their due date become `overdue`
// (invoice.overdue), and overdue invoices get the reminder of the company's schedule they have reached (queued:
// reminders.ts). "Passed" is judged by the date in each company's time zone at the clock's moment, so the first run
// after local midnight does it; running every hour makes a missed run harmless and the work is idempotent.
import type { Task } from 'graphile-worker';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/client.ts';
import { companies } from '../../../db/schema/index.ts';
import { withTenant } from '../../../db/tenant.ts';
import { expireQuotes } from '../../quotes/queries.ts';
import { markOverdue } from '../queries.ts';
import { recordInvoiceEvent } from '../record-event.ts';
import { scheduleReminders } from '../reminders.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      sales_documents_daily: { _cron?: { ts: string; backfilled?: boolean } };
    }
  }
}

/**
 * One company's run at `now`, in one tenant transaction: what it changed. `serviceUrl`: PUBLIC_URL, for the events.
 */
export async function runDocumentsDaily(db: Db, companyId: string, serviceUrl: string, now: Date) {
  return withTenant(db, companyId, async (tx) => {
    const expired = await expireQuotes(tx, companyId);
    const overdue = await markOverdue(tx, companyId, now);
    for (const invoice of overdue) await recordInvoiceEvent(tx, invoice, 'invoice.overdue', serviceUrl);
    const reminders = await scheduleReminders(tx, companyId, now);
    return { expired, overdue: overdue.length, reminders: reminders.length };
  });
}

export function salesDocumentsDailyTask(db: Db, serviceUrl: string, clock: Clock): Task<'sales_documents_daily'> {
  return async () => {
    const now = clock();
    const rows = await db.select({ id: companies.id }).from(companies);
    for (const { id } of rows) await runDocumentsDaily(db, id, serviceUrl, now);
  };
}
