// SQL of orders, their lines and notes; every function takes the tenant transaction first.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { orderItems, orderNotes, orders } from '../../db/schema/index.ts';
import { sendUntilCommit, type Tx } from '../../db/tenant.ts';
import { type PageRequest, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { OrderItemRow, OrderNoteRow, OrderRow, OrderWithParts } from './serialize.ts';

export type OrderFilters = { status?: OrderRow['status']; customerId?: string; updatedSince?: string };

const SORTS = { created_at: orders.createdAt, updated_at: orders.updatedAt };

/** The lines and notes of `rows`, two statements for a whole page. */
async function withParts(tx: Tx, companyId: string, rows: OrderRow[]): Promise<OrderWithParts[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const items = await tx
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.companyId, companyId), inArray(orderItems.orderId, ids)))
    .orderBy(asc(orderItems.position));
  const notes = await tx
    .select()
    .from(orderNotes)
    .where(and(eq(orderNotes.companyId, companyId), inArray(orderNotes.orderId, ids)))
    .orderBy(asc(orderNotes.createdAt), asc(orderNotes.id));
  const group = <R extends { orderId: string }>(list: R[], id: string) => list.filter((r) => r.orderId === id);
  return rows.map((order) => ({ order, items: group(items, order.id), notes: group(notes, order.id) }));
}

export async function listOrders(tx: Tx, companyId: string, page: PageRequest, filters: OrderFilters) {
  const conditions: (SQL | undefined)[] = [eq(orders.companyId, companyId)];
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.customerId) conditions.push(eq(orders.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(orders.updatedAt, filters.updatedSince));
  const { data, meta } = await selectPage(tx, orders, page, { sorts: SORTS, id: orders.id }, conditions);
  return { data: await withParts(tx, companyId, data), meta };
}

export async function findOrder(tx: Tx, companyId: string, id: string): Promise<OrderWithParts | undefined> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.companyId, companyId), eq(orders.id, id)));
  if (!row) return undefined;
  const [found] = await withParts(tx, companyId, [row]);
  return found;
}

/** The order locked until the transaction ends, so concurrent status changes queue instead of racing. */
export async function lockOrder(tx: Tx, companyId: string, id: string): Promise<OrderRow | undefined> {
  // The change time is taken after the lock in the same statement (as in lockCustomer): a write sent right behind
  // it, unawaited, is stamped with it.
  const locked = tx
    .select()
    .from(orders)
    .where(and(eq(orders.companyId, companyId), eq(orders.id, id)))
    .limit(1)
    .for('update')
    .as('locked');
  const [row] = await tx.select().from(locked).where(sql`app_now_after_lock() is not null`);
  return row;
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
