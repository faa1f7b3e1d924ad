// SQL of orders, their lines and notes; every function takes the tenant transaction first.

import { and, asc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, recordReader, relatedRows, selectRecord, type WithRelated } from '../../db/record-reads.ts';
import { orderItems, orderNotes, orders } from '../../db/schema/index.ts';
import { sendUntilCommit, type Tenant, type Tx } from '../../db/tenant.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { type PageRequest, readPage, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { OrderItemRow, OrderNoteRow, OrderRow, OrderWithParts } from './serialize.ts';

export type OrderFilters = {
  status?: OrderRow['status'];
  customerId?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

const SORTS = { created_at: orders.createdAt, updated_at: orders.updatedAt };

/** An order's lines in their order and its notes, oldest first: read with each order, in its statement. */
const PARTS = {
  items: relatedRows(
    getTableColumns(orderItems),
    orderItems,
    and(eq(orderItems.companyId, orders.companyId), eq(orderItems.orderId, orders.id)),
    [asc(orderItems.position)],
  ),
  notes: relatedRows(
    getTableColumns(orderNotes),
    orderNotes,
    and(eq(orderNotes.companyId, orders.companyId), eq(orderNotes.orderId, orders.id)),
    [asc(orderNotes.createdAt), asc(orderNotes.id)],
  ),
};

const withParts = ({ items, notes, ...order }: WithRelated<OrderRow, typeof PARTS>): OrderWithParts => ({
  order,
  items,
  notes,
});

const byId = (companyId: string, id: string) => [eq(orders.companyId, companyId), eq(orders.id, id)];

/** A page of orders with their lines and notes: one statement as the tenant in one round trip. */
export async function listOrders(tenant: Tenant, page: PageRequest, filters: OrderFilters) {
  const conditions: (SQL | undefined)[] = [eq(orders.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.customerId) conditions.push(eq(orders.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(orders.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, orders, filters.metadata));
  const { data, meta } = await readPage(tenant, orders, page, { sorts: SORTS, id: orders.id }, conditions, PARTS);
  return { data: data.map(withParts), meta };
}

const readOrderWithParts = recordReader(orders, byRecordKey(orders), PARTS);

/** The order with its lines and notes: one statement as the tenant in one round trip. */
export async function readOrder(tenant: Tenant, id: string): Promise<OrderWithParts | undefined> {
  const row = await readOrderWithParts(tenant, id);
  return row && withParts(row);
}

/** The same in the caller's transaction (an order just changed). */
export async function findOrder(tx: Tx, companyId: string, id: string): Promise<OrderWithParts | undefined> {
  const row = await selectRecord(tx, orders, byId(companyId, id), PARTS);
  return row && withParts(row);
}

/** The order locked until the transaction ends, so concurrent status changes queue instead of racing. */
export function lockOrder(tx: Tx, companyId: string, id: string): Promise<OrderRow | undefined> {
  return lockRecord(tx, orders, companyId, id);
}

export type OrderChanges = Omit<PgUpdateSetSource<typeof orders>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

/** The next version of the order (also after only a new note: a note changes `updated_at`). */
export async function updateOrder(tx: Tx, current: OrderRow, changes: OrderChanges): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({ ...changes, updatedAt: sql`app_now()`, version: sql`${orders.version} + 1` })
    .where(and(eq(orders.companyId, current.companyId), eq(orders.id, current.id)))
    .returning();
  if (!row) throw new Error(`order ${current.id} vanished while locked`);
  return row;
}

/**
 * The next version of the locked order after a new note (a note changes `updated_at`), its answer not needed: sent
 * with the transaction's COMMIT.
 */
export function touchLockedOrder(tx: Tx, companyId: string, id: string): Promise<void> {
  return sendUntilCommit(
    tx,
    tx
      .update(orders)
      .set({ updatedAt: sql`app_now()`, version: sql`${orders.version} + 1` })
      .where(and(eq(orders.companyId, companyId), eq(orders.id, id))),
  );
}

export async function insertNote(
  tx: Tx,
  companyId: string,
  orderId: string,
  note: { type: string; content: string; isInternal: boolean },
): Promise<OrderNoteRow> {
  const [row] = await tx
    .insert(orderNotes)
    .values({ companyId, id: newId(), orderId, ...note })
    .returning();
  if (!row) throw new Error('note not inserted');
  return row;
}

export async function listNotes(tx: Tx, companyId: string, orderId: string, page: PageRequest) {
  return selectPage(tx, orderNotes, page, { sorts: { created_at: orderNotes.createdAt }, id: orderNotes.id }, [
    eq(orderNotes.companyId, companyId),
    eq(orderNotes.orderId, orderId),
  ]);
}

export async function orderExists(tx: Tx, companyId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.companyId, companyId), eq(orders.id, id)));
  return row !== undefined;
}

export async function findOrderByNumber(tx: Tx, companyId: string, number: string) {
  const [row] = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.companyId, companyId), eq(orders.number, number)));
  return row;
}

export type NewOrder = Omit<typeof orders.$inferInsert, 'companyId' | 'id' | 'version'>;
export type NewItem = Omit<OrderItemRow, 'companyId' | 'orderId' | 'position'>;

export async function insertOrder(tx: Tx, companyId: string, order: NewOrder, items: NewItem[]): Promise<string> {
  const id = newId();
  await tx.insert(orders).values({ ...order, companyId, id });
  if (items.length > 0)
    await tx.insert(orderItems).values(items.map((item, position) => ({ ...item, companyId, orderId: id, position })));
  return id;
}
