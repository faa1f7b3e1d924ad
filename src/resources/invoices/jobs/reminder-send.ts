// The invoice_reminder_send task, queued by the daily run with each reminder it schedules (reminders.ts): sends the
// reminder, or records why not, in one tenant transaction. A failure (the outgoing-message limit, a render that
// failed) rolls it back and Graphile Worker tries again with its growing delays; a reminder already sent or skipped
// is left as it is, so a retry never sends twice.
import type { Task } from 'graphile-worker';
import type { Db } from '../../../db/client.ts';
import { withTenant } from '../../../db/tenant.ts';
import { type ReminderSending, sendReminder } from '../reminders.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      invoice_reminder_send: { companyId: string; reminderId: string };
    }
  }
}

export function invoiceReminderSendTask(db: Db, deps: ReminderSending): Task<'invoice_reminder_send'> {
  return async ({ companyId, reminderId }) => {
    await withTenant(db, companyId, (tx) => sendReminder(tx, companyId, reminderId, deps));
  };
}
