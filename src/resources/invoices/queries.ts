// SQL of invoices and their payments; every function takes the tenant transaction first.
import { and, asc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, recordReader, relatedRows, selectRecord, selectRelated } from '../../db/record-reads.ts';
import { invoicePayments, invoiceReminders, invoices } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import type { InvoiceRow, InvoiceWithPayments, PaymentRow, ReminderRow } from './serialize.ts';

export type InvoiceFilters = {
  status?: InvoiceRow['status'];
  customerId?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

const SORTS = { created_at: invoices.createdAt, updated_at: invoices.updatedAt };

/** An invoice's payments, oldest first: read with each invoice of a list, in the list's statement. */
const RELATED = {
  payments: relatedRows(
    getTableColumns(invoicePayments),
    invoicePayments,
    and(eq(invoicePayments.companyId, invoices.companyId), eq(invoicePayments.invoiceId, invoices.id)),
    [asc(invoicePayments.createdAt), asc(invoicePayments.id)],
  ),
  reminders: relatedRows(
    getTableColumns(invoiceReminders),
    invoiceReminders,
    and(eq(invoiceReminders.companyId, invoices.companyId), eq(invoiceReminders.invoiceId, invoices.id)),
    [asc(invoiceReminders.daysAfterDue)],
  ),
};

/** The invoice with its payments, oldest first, and its reminders. */
export async function withPayments(tx: Tx, row: InvoiceRow): Promise<InvoiceWithPayments> {
  const related = await selectRelated(
    tx,
    invoices,
    invoices.id,
    [eq(invoices.companyId, row.companyId), eq(invoices.id, row.id)],
    RELATED,
  );
  const found = related.get(row.id);
  return { ...row, payments: found?.payments ?? [], reminders: found?.reminders ?? [] };
}

/** A page of invoices with their payments: one statement as the tenant in one round trip. */
export async function listInvoices(tenant: Tenant, page: PageRequest, filters: InvoiceFilters) {
  const conditions: (SQL | undefined)[] = [eq(invoices.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(invoices.status, filters.status));
  if (filters.customerId) conditions.push(eq(invoices.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(invoices.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, invoices, filters.metadata));
  return readPage(tenant, invoices, page, { sorts: SORTS, id: invoices.id }, conditions, RELATED);
}

/** The invoice with its payments: one statement as the tenant in one round trip. */
export const readInvoice: (tenant: Tenant, id: string) => Promise<InvoiceWithPayments | undefined> = recordReader(
  invoices,
  byRecordKey(invoices),
  RELATED,
);

/** The same in the caller's transaction. */
export const findInvoice = (tx: Tx, companyId: string, id: string): Promise<InvoiceWithPayments | undefined> =>
  selectRecord(tx, invoices, [eq(invoices.companyId, companyId), eq(invoices.id, id)], RELATED);

/** The invoice locked until the transaction ends, its change time taken (handed to the connection now). */
export function lockInvoice(tx: Tx, companyId: string, id: string): Promise<InvoiceRow | undefined> {
  return lockRecord(tx, invoices, companyId, id);
}

/**
 * The invoice's payments, oldest first, as withPayments reads them (handed to the connection now): read with the
 * invoice's lock, whose holder alone adds payments.
 */
export function paymentsOf(tx: Tx, companyId: string, invoiceId: string): Promise<PaymentRow[]> {
  return tx
    .select()
    .from(invoicePayments)
    .where(and(eq(invoicePayments.companyId, companyId), eq(invoicePayments.invoiceId, invoiceId)))
    .orderBy(asc(invoicePayments.createdAt), asc(invoicePayments.id))
    .then((rows) => rows);
}

/** The invoice's reminders, as withPayments reads them (handed to the connection now). */
export function remindersOf(tx: Tx, companyId: string, invoiceId: string): Promise<ReminderRow[]> {
  return tx
    .select()
    .from(invoiceReminders)
    .where(and(eq(invoiceReminders.companyId, companyId), eq(invoiceReminders.invoiceId, invoiceId)))
    .orderBy(asc(invoiceReminders.daysAfterDue))
    .then((rows) => rows);
}

export type NewInvoice = Omit<typeof invoices.$inferInsert, 'companyId' | 'version'>;
export type InvoiceChanges = Omit<PgUpdateSetSource<typeof invoices>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

export async function insertInvoice(tx: Tx, companyId: string, fields: NewInvoice): Promise<InvoiceRow> {
  const [row] = await tx
    .insert(invoices)
    .values({ ...fields, companyId })
    .returning();
  return row;
}

export async function updateInvoice(tx: Tx, current: InvoiceRow, fields: InvoiceChanges): Promise<InvoiceRow> {
  const [row] = await tx
    .update(invoices)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${invoices.version} + 1` })
    .where(and(eq(invoices.companyId, current.companyId), eq(invoices.id, current.id)))
    .returning();
  return row;
}

export async function deleteInvoice(tx: Tx, current: InvoiceRow): Promise<void> {
  await tx.delete(invoices).where(and(eq(invoices.companyId, current.companyId), eq(invoices.id, current.id)));
}

export async function insertPayment(
  tx: Tx,
  fields: Omit<typeof invoicePayments.$inferInsert, 'createdAt' | 'paidAt'> & { paidAt: Date | SQL | null },
): Promise<PaymentRow> {
  const [row] = await tx.insert(invoicePayments).values(fields).returning();
  return row;
}

/** Invoices with an amount due whose due date lies before the company's date at `now`, now overdue. */
export async function markOverdue(tx: Tx, companyId: string, now: Date): Promise<InvoiceRow[]> {
  return tx
    .update(invoices)
    .set({ status: 'overdue', updatedAt: sql`app_now()`, version: sql`${invoices.version} + 1` })
    .where(
      and(
        eq(invoices.companyId, companyId),
        inArray(invoices.status, ['sent', 'viewed', 'partial']),
        sql`${invoices.total} > ${invoices.amountPaid}`,
        sql`${invoices.dueDate} < (${now.toISOString()}::timestamptz at time zone (select time_zone from companies where id = ${companyId}))::date`,
      ),
    )
    .returning();
}
