// SQL of custom fields' definitions, and of the values they hold on customers and deals; every function takes the
// tenant transaction (or the tenant) first.
import { and, asc, count, eq, max, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import { customers, customFields, deals } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { newId } from '../../ids.ts';
import type { CustomFieldRow } from './serialize.ts';

export type FieldResource = CustomFieldRow['resource'];

/** The records' table of a resource. */
export const RECORD_TABLES = { customers, deals } as const;

/** The channel whose NOTIFY (payload: the company's id) empties every process's cache of the company's fields. */
export const CHANGED_CHANNEL = 'custom_fields_changed';

/** A page of the company's fields in their order (position, then id: creation). */
export function listFields(tenant: Tenant, page: PageRequest, resource: FieldResource | undefined) {
  return readPage(tenant, customFields, page, { sorts: { position: customFields.position }, id: customFields.id }, [
    eq(customFields.companyId, tenant.companyId),
    resource === undefined ? undefined : eq(customFields.resource, resource),
  ]);
}

/** The field: one statement as the tenant in one round trip. */
export const readField: (tenant: Tenant, id: string) => Promise<CustomFieldRow | undefined> = recordReader(
  customFields,
  byRecordKey(customFields),
);

/** Every field of the company, both resources, in their order: what the value checks are built from. */
export function readAllFields(tenant: Tenant): Promise<CustomFieldRow[]> {
  const statement = new QueryBuilder()
    .select()
    .from(customFields)
    .where(eq(customFields.companyId, tenant.companyId))
    .orderBy(asc(customFields.resource), asc(customFields.position), asc(customFields.id));
  return tenant.read(customFields, statement.toSQL());
}

/** The field, locked until the transaction ends (with the change time taken after the lock). */
export function lockField(tx: Tx, companyId: string, id: string): Promise<CustomFieldRow | undefined> {
  return lockRecord(tx, customFields, companyId, id);
}

export type NewField = Omit<typeof customFields.$inferInsert, 'companyId' | 'id' | 'position'> & { position?: number };

/**
 * A new field, with the number of the resource's fields before it, counted under a per-company-and-resource lock
 * held until commit (two creations cannot both see 99 and make 101). Without a position, it goes after the last
 * field (its position + 10). The caller refuses a creation past the limit, which undoes the insert.
 */
export async function insertFieldCounted(
  tx: Tx,
  companyId: string,
  fields: NewField,
): Promise<{ before: number; row: CustomFieldRow }> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`custom_fields:${companyId}:${fields.resource}`}, 0))`,
  );
  const [stats] = await tx
    .select({ n: count(), last: max(customFields.position) })
    .from(customFields)
    .where(and(eq(customFields.companyId, companyId), eq(customFields.resource, fields.resource)));
  const position = fields.position ?? (stats?.last ?? 0) + 10;
  const [row] = await tx
    .insert(customFields)
    .values({ ...fields, position, companyId, id: newId() })
    .returning();
  if (!row) throw new Error('custom field: the insert returned no row');
  await notifyChange(tx, companyId);
  return { before: stats?.n ?? 0, row };
}

export type FieldChanges = Partial<
  Pick<typeof customFields.$inferInsert, 'type' | 'labels' | 'decimals' | 'options' | 'required' | 'position'>
>;

/** Applies the changes with the next version; undefined when the row is gone. */
export async function updateField(
  tx: Tx,
  companyId: string,
  id: string,
  changes: FieldChanges,
): Promise<CustomFieldRow | undefined> {
  const [row] = await tx
    .update(customFields)
    .set({ ...changes, updatedAt: sql`app_now()`, version: sql`${customFields.version} + 1` })
    .where(and(eq(customFields.companyId, companyId), eq(customFields.id, id)))
    .returning();
  await notifyChange(tx, companyId);
  return row;
}

/** Deletes the field and its values on every record of its resource, in the caller's transaction. */
export async function deleteField(tx: Tx, companyId: string, field: CustomFieldRow): Promise<void> {
  const table = RECORD_TABLES[field.resource];
  await tx
    .update(table)
    .set({ customFields: sql`${table.customFields} - ${field.key}::text` })
    .where(and(eq(table.companyId, companyId), sql`${table.customFields} ? ${field.key}::text`));
  await tx.delete(customFields).where(and(eq(customFields.companyId, companyId), eq(customFields.id, field.id)));
  await notifyChange(tx, companyId);
}

/**
 * The stored values of the field (record id → value), the records locked until commit, so that a conversion writes
 * over exactly what it read. Reads every record of the company's resource that has the key (`?` is not served by
 * the jsonb_path_ops index): a change of a field's type is rare and an operator's act.
 */
export async function lockValuesOf(tx: Tx, companyId: string, field: CustomFieldRow): Promise<Map<string, unknown>> {
  const table = RECORD_TABLES[field.resource];
  const rows = await tx
    .select({ id: table.id, value: sql<unknown>`${table.customFields} -> ${field.key}::text` })
    .from(table)
    .where(and(eq(table.companyId, companyId), sql`${table.customFields} ? ${field.key}::text`))
    .orderBy(table.id)
    .for('update');
  return new Map(rows.map((row) => [row.id, row.value]));
}

/** Writes converted values (record id → new value) of the field, in one statement. */
export async function writeValuesOf(
  tx: Tx,
  companyId: string,
  field: CustomFieldRow,
  values: ReadonlyMap<string, unknown>,
): Promise<void> {
  if (values.size === 0) return;
  const table = RECORD_TABLES[field.resource];
  const byId = JSON.stringify(Object.fromEntries(values));
  const converted: SQL = sql`(${byId}::text::jsonb -> (${table.id})::text)`;
  await tx
    .update(table)
    .set({ customFields: sql`jsonb_set(${table.customFields}, array[${field.key}::text], ${converted})` })
    .where(
      and(eq(table.companyId, companyId), sql`(${table.id})::text in (select jsonb_object_keys(${byId}::text::jsonb))`),
    );
}

/** Tells every process (this one's cache is emptied by the caller after commit) that the company's fields changed. */
function notifyChange(tx: Tx, companyId: string) {
  return tx.execute(sql`select pg_notify(${CHANGED_CHANNEL}, ${companyId})`);
}
