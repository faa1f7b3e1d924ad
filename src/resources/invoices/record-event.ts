// An invoice's event, with the invoice as it is now: one function for every change of an invoice (the API's
// handlers, the online page, the provider's payments, the daily job).

import type { components } from '../../../generated/api.d.ts';
import type { Tx } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { touchCustomerActivity } from '../customers/queries.ts';
import * as q from './queries.ts';
import { type InvoiceRow, type InvoiceWithPayments, serializeInvoice } from './serialize.ts';

/** The contract's list (InvoiceEvent.type): an event type is added there, once. */
type InvoiceEventType = components['schemas']['InvoiceEvent']['type'];

/**
 * An invoice's event, with the invoice as it is now (seen with invoices.read, on its customer's timeline);
 * `serviceUrl` (PUBLIC_URL) makes its `ubl_url`.
 */
export async function recordInvoiceEvent(
  tx: Tx,
  row: InvoiceRow | InvoiceWithPayments,
  type: InvoiceEventType,
  serviceUrl: string,
) {
  const object = serializeInvoice('payments' in row ? row : await q.withPayments(tx, row), null, serviceUrl);
  await recordEvent(tx, row.companyId, { type, scope: 'invoices.read', customerId: row.customerId, object });
  await touchCustomerActivity(tx, row.companyId, row.customerId);
}
