// The customer's side of an invoice: opening the online invoice (src/resources/document-pages).
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/tenant.ts';
import * as q from './queries.ts';
import { recordInvoiceEvent } from './record-event.ts';
import type { InvoiceRow } from './serialize.ts';

/**
 * The customer opened the online invoice (locked in `tx`): the first opening sets `viewed_at` (and `sent` becomes
 * `viewed`) with `invoice.viewed`; later ones change nothing.
 */
export async function markInvoiceViewed(tx: Tx, current: InvoiceRow, serviceUrl: string): Promise<InvoiceRow> {
  if (current.viewedAt !== null) return current;
  const status = current.status === 'sent' ? 'viewed' : current.status;
  const updated = await q.updateInvoice(tx, current, { status, viewedAt: sql`app_now()` });
  await recordInvoiceEvent(tx, updated, 'invoice.viewed', serviceUrl);
  return updated;
}
