// SQL of invoices and their payments; every function takes the tenant transaction first.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { takeChangeTimeAfterLock } from '../../db/change-time.ts';
import { invoicePayments, invoices } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { type PageRequest, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import type { InvoiceRow, InvoiceWithPayments, PaymentRow } from './serialize.ts';

export type InvoiceFilters = { status?: InvoiceRow['status']; customerId?: string; updatedSince?: string };

const SORTS = { created_at: invoices.createdAt, updated_at: invoices.updatedAt };

async function paymentsOf(tx: Tx, companyId: string, ids: string[]): Promise<Map<string, PaymentRow[]>> {
  const byInvoice = new Map<string, PaymentRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byInvoice;
  const rows = await tx
    .select()
    .from(invoicePayments)
    .where(and(eq(invoicePayments.companyId, companyId), inArray(invoicePayments.invoiceId, ids)))
    .orderBy(asc(invoicePayments.createdAt), asc(invoicePayments.id));
  for (const row of rows) byInvoice.get(row.invoiceId)?.push(row);
  return byInvoice;
}

/** The invoice with its payments, oldest first. */
export async function withPayments(tx: Tx, row: InvoiceRow): Promise<InvoiceWithPayments> {
  const payments = await paymentsOf(tx, row.companyId, [row.id]);
  return { ...row, payments: payments.get(row.id) ?? [] };
}

export async function listInvoices(tx: Tx, companyId: string, page: PageRequest, filters: InvoiceFilters) {
  const conditions: (SQL | undefined)[] = [eq(invoices.companyId, companyId)];
  if (filters.status) conditions.push(eq(invoices.status, filters.status));
  if (filters.customerId) conditions.push(eq(invoices.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(invoices.updatedAt, filters.updatedSince));
  const result = await selectPage(tx, invoices, page, { sorts: SORTS, id: invoices.id }, conditions);
  const payments = await paymentsOf(
    tx,
    companyId,
    result.data.map((row) => row.id),
  );
  return { data: result.data.map((row) => ({ ...row, payments: payments.get(row.id) ?? [] })), meta: result.meta };
}

export async function findInvoice(tx: Tx, companyId: string, id: string): Promise<InvoiceWithPayments | undefined> {
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, id)));
  return row ? withPayments(tx, row) : undefined;
}

export async function lockInvoice(tx: Tx, companyId: string, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, id)))
    .for('update');
  if (row) await takeChangeTimeAfterLock(tx);
  return row;
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
  fields: Omit<typeof invoicePayments.$inferInsert, 'createdAt' | 'paidAt'> & { paidAt: Date | SQL },
): Promise<PaymentRow> {
  const [row] = await tx.insert(invoicePayments).values(fields).returning();
  return row;
}

/** Invoices with an amount due whose due date lies before the company's today, now overdue. */
export async function markOverdue(tx: Tx, companyId: string): Promise<InvoiceRow[]> {
  return tx
    .update(invoices)
    .set({ status: 'overdue', updatedAt: sql`app_now()`, version: sql`${invoices.version} + 1` })
    .where(
      and(
        eq(invoices.companyId, companyId),
        inArray(invoices.status, ['sent', 'viewed', 'partial']),
        sql`${invoices.total} > ${invoices.amountPaid}`,
        sql`${invoices.dueDate} < (app_now() at time zone (select time_zone from companies where id = ${companyId}))::date`,
      ),
    )
    .returning();
}
