// SQL of work orders and their photos; every function takes the tenant transaction first.
import { and, asc, count, eq, getTableColumns, max, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, jsonRow, recordReader, selectRecord } from '../../db/record-reads.ts';
import { appointments, files, invoices, workOrderPhotos, workOrders } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { keyset, type PageRequest, pageOf, readPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';

export type WorkOrderRow = typeof workOrders.$inferSelect;
export type PhotoRow = typeof workOrderPhotos.$inferSelect & { file: typeof files.$inferSelect };
export type WorkOrderWithPhotos = WorkOrderRow & { photos: PhotoRow[] };

export type WorkOrderFilters = {
  status?: WorkOrderRow['status'];
  customerId?: string;
  assignedUserId?: number;
  appointmentId?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

const SORTS = { created_at: workOrders.createdAt, updated_at: workOrders.updatedAt };

const photosJoined = (tx: Tx) =>
  tx
    .select({ ...getTableColumns(workOrderPhotos), file: files })
    .from(workOrderPhotos)
    .innerJoin(files, and(eq(files.companyId, workOrderPhotos.companyId), eq(files.id, workOrderPhotos.fileId)));

/** A photo with its file, as one JSON value. */
const photoRow = jsonRow({ ...getTableColumns(workOrderPhotos), file: getTableColumns(files) });

/**
 * A work order's photos with their files, in display order: read with each work order, in its statement. Written
 * out whole, its names as SQL text: the distributable-queries check reads the join's company condition where it
 * stands, and drizzle writes a column of a one-table select's own list without its table (ambiguous here).
 */
const PHOTOS = {
  photos: {
    sql: sql`(select coalesce(json_agg(${photoRow.sql} order by work_order_photos.position), '[]'::json)
      from work_order_photos
      inner join files on files.company_id = work_order_photos.company_id and files.id = work_order_photos.file_id
      where work_order_photos.company_id = work_orders.company_id and work_order_photos.work_order_id = work_orders.id)`,
    decode: (value: unknown) => (value as unknown[]).map(photoRow.decode),
  },
};

/** One work order's photos in display order, handed to the connection now (before the caller's next statement). */
export function photosOfOne(tx: Tx, companyId: string, id: string): Promise<PhotoRow[]> {
  return photosJoined(tx)
    .where(and(eq(workOrderPhotos.companyId, companyId), eq(workOrderPhotos.workOrderId, id)))
    .orderBy(asc(workOrderPhotos.position))
    .then((rows) => rows);
}

const byId = (companyId: string, id: string) => [eq(workOrders.companyId, companyId), eq(workOrders.id, id)];

/** The work order in hand with its photos (PHOTOS), in one statement. */
export async function withPhotos(tx: Tx, row: WorkOrderRow): Promise<WorkOrderWithPhotos> {
  const found = await selectRecord(tx, workOrders, byId(row.companyId, row.id), PHOTOS);
  return { ...row, photos: found?.photos ?? [] };
}

/** A page of work orders with their photos: one statement as the tenant in one round trip. */
export async function listWorkOrders(tenant: Tenant, page: PageRequest, filters: WorkOrderFilters) {
  const conditions: (SQL | undefined)[] = [eq(workOrders.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(workOrders.status, filters.status));
  if (filters.customerId) conditions.push(eq(workOrders.customerId, filters.customerId));
  if (filters.assignedUserId !== undefined) conditions.push(eq(workOrders.assignedUserId, filters.assignedUserId));
  if (filters.appointmentId) conditions.push(eq(workOrders.appointmentId, filters.appointmentId));
  if (filters.updatedSince) conditions.push(atOrAfter(workOrders.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, workOrders, filters.metadata));
  return readPage(tenant, workOrders, page, { sorts: SORTS, id: workOrders.id }, conditions, PHOTOS);
}

/** The work order with its photos: one statement as the tenant in one round trip. */
export const readWorkOrder: (tenant: Tenant, id: string) => Promise<WorkOrderWithPhotos | undefined> = recordReader(
  workOrders,
  byRecordKey(workOrders),
  PHOTOS,
);

/** The same in the caller's transaction. */
export const findWorkOrder = (tx: Tx, companyId: string, id: string): Promise<WorkOrderWithPhotos | undefined> =>
  selectRecord(tx, workOrders, byId(companyId, id), PHOTOS);

/** The work order locked until the transaction ends (changes, and the photo count limit). */
export function lockWorkOrder(tx: Tx, companyId: string, id: string): Promise<WorkOrderRow | undefined> {
  return lockRecord(tx, workOrders, companyId, id);
}

export type NewWorkOrder = Omit<typeof workOrders.$inferInsert, 'companyId' | 'version'>;
export type WorkOrderChanges = Omit<PgUpdateSetSource<typeof workOrders>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

export async function insertWorkOrder(tx: Tx, companyId: string, fields: NewWorkOrder): Promise<WorkOrderRow> {
  const [row] = await tx
    .insert(workOrders)
    .values({ ...fields, companyId })
    .returning();
  return row;
}

export async function updateWorkOrder(tx: Tx, current: WorkOrderRow, fields: WorkOrderChanges): Promise<WorkOrderRow> {
  const [row] = await tx
    .update(workOrders)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${workOrders.version} + 1` })
    .where(and(eq(workOrders.companyId, current.companyId), eq(workOrders.id, current.id)))
    .returning();
  return row;
}

/** Deletes the work order (its photo rows go with it); returns the ids of the photos' files, to delete them too. */
export async function deleteWorkOrder(tx: Tx, current: WorkOrderRow): Promise<string[]> {
  const photos = await tx
    .select({ fileId: workOrderPhotos.fileId })
    .from(workOrderPhotos)
    .where(and(eq(workOrderPhotos.companyId, current.companyId), eq(workOrderPhotos.workOrderId, current.id)));
  await tx.delete(workOrders).where(and(eq(workOrders.companyId, current.companyId), eq(workOrders.id, current.id)));
  return photos.map((p) => p.fileId);
}

/** The appointment's customer and start, when the appointment exists. */
export function appointmentOf(tx: Tx, companyId: string, id: string) {
  // Handed to the connection now: reads started after it go in its round trip.
  return tx
    .select({ customerId: appointments.customerId, startsAt: appointments.startsAt })
    .from(appointments)
    .where(and(eq(appointments.companyId, companyId), eq(appointments.id, id)))
    .then(([row]) => row);
}

export async function invoiceCustomerOf(tx: Tx, companyId: string, id: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ customerId: invoices.customerId })
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, id)));
  return row?.customerId;
}

export async function countPhotos(tx: Tx, companyId: string, workOrderId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(workOrderPhotos)
    .where(and(eq(workOrderPhotos.companyId, companyId), eq(workOrderPhotos.workOrderId, workOrderId)));
  return row.n;
}

export type PhotoFilters = { kind?: PhotoRow['kind'] };

export async function listPhotos(tx: Tx, companyId: string, workOrderId: string, page: PageRequest, f: PhotoFilters) {
  // Photos are added in display order, so their creation time (then id) is that order.
  const plan = keyset(page, { created_at: workOrderPhotos.createdAt }, workOrderPhotos.id);
  const rows = await photosJoined(tx)
    .where(
      and(
        eq(workOrderPhotos.companyId, companyId),
        eq(workOrderPhotos.workOrderId, workOrderId),
        f.kind ? eq(workOrderPhotos.kind, f.kind) : undefined,
        plan.where,
      ),
    )
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return pageOf(rows, page, plan);
}

export async function findPhoto(
  tx: Tx,
  companyId: string,
  workOrderId: string,
  id: string,
): Promise<PhotoRow | undefined> {
  const [row] = await photosJoined(tx).where(
    and(
      eq(workOrderPhotos.companyId, companyId),
      eq(workOrderPhotos.workOrderId, workOrderId),
      eq(workOrderPhotos.id, id),
    ),
  );
  return row;
}

export async function insertPhoto(
  tx: Tx,
  values: {
    companyId: string;
    workOrderId: string;
    file: typeof files.$inferSelect;
    kind: PhotoRow['kind'];
    caption: string | null;
  },
): Promise<PhotoRow> {
  const { file, ...rest } = values;
  const [last] = await tx
    .select({ position: max(workOrderPhotos.position) })
    .from(workOrderPhotos)
    .where(and(eq(workOrderPhotos.companyId, rest.companyId), eq(workOrderPhotos.workOrderId, rest.workOrderId)));
  const [row] = await tx
    .insert(workOrderPhotos)
    .values({ ...rest, id: newId(), fileId: file.id, position: (last?.position ?? 0) + 1 })
    .returning();
  return { ...row, file };
}

export async function deletePhotoRow(tx: Tx, companyId: string, id: string): Promise<void> {
  await tx.delete(workOrderPhotos).where(and(eq(workOrderPhotos.companyId, companyId), eq(workOrderPhotos.id, id)));
}
