// SQL of deals; every function takes the tenant transaction first.

import { and, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord, lockRecords } from '../../db/change-time.ts';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import { companies, deals, quotes, users } from '../../db/schema/index.ts';
import { builder, prepared } from '../../db/statements.ts';
import { type Tenant, type Tx, tableRows } from '../../db/tenant.ts';
import type { QuoteForValue } from '../../domain/deals.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { DealRow } from './serialize.ts';

export type DealFilters = {
  status?: 'open' | 'won' | 'lost';
  stageId?: number;
  customerId?: string;
  assignedUserId?: number;
  externalRef?: string;
  metadata?: Record<string, string>;
  /** The custom fields' filter as a condition (custom-fields/filter.ts), built for the request. */
  customFields?: SQL;
  archived: 'false' | 'true' | 'all';
  updatedSince?: string;
};

const SORTS = { created_at: deals.createdAt, updated_at: deals.updatedAt, stage_changed_at: deals.stageChangedAt };

/** A page of deals: its one statement as the tenant in one round trip (readPage). */
export async function listDeals(tenant: Tenant, page: PageRequest, filters: DealFilters) {
  const conditions: (SQL | undefined)[] = [eq(deals.companyId, tenant.companyId)];
  if (filters.archived !== 'all') conditions.push(eq(deals.isArchived, filters.archived === 'true'));
  if (filters.status) conditions.push(eq(deals.status, filters.status));
  if (filters.stageId !== undefined) conditions.push(eq(deals.stageId, filters.stageId));
  if (filters.customerId) conditions.push(eq(deals.customerId, filters.customerId));
  if (filters.assignedUserId !== undefined) conditions.push(eq(deals.assignedUserId, filters.assignedUserId));
  if (filters.externalRef !== undefined) conditions.push(eq(deals.externalRef, filters.externalRef));
  if (filters.updatedSince) conditions.push(atOrAfter(deals.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, deals, filters.metadata), filters.customFields);
  return readPage(tenant, deals, page, { sorts: SORTS, id: deals.id }, conditions);
}

/** The deal for GET: one statement as the tenant, no transaction (one round trip). */
export const readDeal: (tenant: Tenant, id: string) => Promise<DealRow | undefined> = recordReader(
  deals,
  byRecordKey(deals),
);

const DEAL = prepared<{ companyId: string; id: string }>((p) =>
  builder
    .select()
    .from(deals)
    .where(and(eq(deals.companyId, p.companyId), eq(deals.id, p.id))),
);

/** The deal in the transaction, built once and handed to the connection now (see findCustomer). */
export async function findDeal(tx: Tx, companyId: string, id: string): Promise<DealRow | undefined> {
  const [row] = tableRows(deals, await DEAL.run(tx, { companyId, id }));
  return row;
}

/**
 * The deal, locked until the transaction ends: an update or state action then works on the latest committed
 * version, so concurrent writers queue instead of overwriting each other. The change time is taken after the lock
 * in the same statement (as in lockCustomer), so a write sent right behind it, unawaited, is stamped with it.
 */
export function lockDeal(tx: Tx, companyId: string, id: string): Promise<DealRow | undefined> {
  return lockRecord(tx, deals, companyId, id);
}

/** The customer's open deal, archived or not (at most one: deals_one_open_per_customer). */
export async function findOpenDeal(tx: Tx, companyId: string, customerId: string) {
  const [row] = await tx
    .select({ id: deals.id })
    .from(deals)
    .where(and(eq(deals.companyId, companyId), eq(deals.customerId, customerId), eq(deals.status, 'open')));
  return row;
}

/** Held FOR SHARE until commit, like the deal's stage (see pipeline-stages/queries.ts): the deal is assigned to it. */
export async function isActiveUser(tx: Tx, companyId: string, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, id), eq(users.status, 'active')))
    .for('share');
  return row !== undefined;
}

/** The quotes whose totals make up a deal's calculated value (see valueFromQuotes). */
export async function quotesOfDeal(tx: Tx, companyId: string, dealId: string): Promise<QuoteForValue[]> {
  return tx
    .select({ status: quotes.status, total: quotes.total, currency: quotes.currency })
    .from(quotes)
    .where(and(eq(quotes.companyId, companyId), eq(quotes.dealId, dealId)));
}

export type NewDeal = Omit<typeof deals.$inferInsert, 'companyId' | 'id' | 'currency' | 'version'>;
/** Columns to change; a value may be SQL, such as app_now() for the moment of the change. */
export type DealChanges = Omit<PgUpdateSetSource<typeof deals>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

/** A new deal's columns; its stage may be a look-up inside the insert (defaultStageId). */
export type NewDealColumns = Omit<NewDeal, 'stageId'> & { stageId: number | SQL };

export async function insertDeal(tx: Tx, companyId: string, fields: NewDealColumns) {
  const [row] = await tx
    .insert(deals)
    .values({
      ...fields,
      companyId,
      id: newId(),
      // The company's currency when the deal is created.
      currency: sql`(select ${companies.currency} from ${companies} where ${companies.id} = ${companyId})`,
    })
    .returning();
  return row;
}

/** Updates when the version still matches; undefined when it did not. */
export async function updateDeal(tx: Tx, current: DealRow, fields: DealChanges) {
  const [row] = await tx
    .update(deals)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${deals.version} + 1` })
    .where(and(eq(deals.companyId, current.companyId), eq(deals.id, current.id), eq(deals.version, current.version)))
    .returning();
  return row;
}

/** Columns a PATCH sends, as values (compared with the stored ones by updateDealIfChanged); metadata as its merge. */
export type DealFields = Partial<
  Pick<typeof deals.$inferInsert, 'title' | 'description' | 'externalRef' | 'assignedUserId' | 'value' | 'valueSource'>
> & { metadata?: SQL; customFields?: SQL };

/**
 * A PATCH's write, sent right behind lockDeal (same round trip): the deal, where its version is one of `expected`
 * (undefined: any) and one of `fields` differs from what is stored, gets them with the next version at the change
 * time the lock took. Undefined when nothing was written: not found, another version, or nothing to change — the
 * locked row tells which.
 */
export async function updateDealIfChanged(
  tx: Tx,
  companyId: string,
  id: string,
  fields: DealFields,
  expected: ReadonlySet<number> | undefined,
): Promise<DealRow | undefined> {
  const columns = getTableColumns(deals);
  const differs = Object.entries(fields).map(
    ([key, value]) => sql`${columns[key as keyof DealFields]} is distinct from ${value}`,
  );
  // Nothing sent, or an If-Match that names no version: nothing this statement could update.
  if (differs.length === 0 || expected?.size === 0) return undefined;
  const [row] = await tx
    .update(deals)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${deals.version} + 1` })
    .where(
      and(
        eq(deals.companyId, companyId),
        eq(deals.id, id),
        expected === undefined ? undefined : inArray(deals.version, [...expected]),
        or(...differs),
      ),
    )
    .returning();
  return row;
}

/**
 * The deals a batch names (by id, or by external reference), locked until the transaction ends, in id order so that
 * two batches naming the same deals queue rather than deadlock. The change time is taken after the locks (the
 * volatile condition stays above the locking subquery, as in lockCustomersOfBatch).
 */
export function lockDealsOfBatch(tx: Tx, companyId: string, ids: string[], refs: string[]): Promise<DealRow[]> {
  if (ids.length === 0 && refs.length === 0) return Promise.resolve([]);
  return lockRecords(
    tx,
    deals,
    and(
      eq(deals.companyId, companyId),
      or(ids.length ? inArray(deals.id, ids) : undefined, refs.length ? inArray(deals.externalRef, refs) : undefined),
    ),
  );
}

/** The active users among `ids`, held FOR SHARE like isActiveUser (a batch's owners). */
export async function activeUsersOf(tx: Tx, companyId: string, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, ids), eq(users.status, 'active')))
    .orderBy(users.id)
    .for('share');
  return new Set(rows.map((row) => row.id));
}

/** The open deal of each of these customers that has one (deals_one_open_per_customer: at most one). */
export async function openDealsOf(
  tx: Tx,
  companyId: string,
  customerIds: string[],
): Promise<Map<string, { id: string; externalRef: string | null }>> {
  if (customerIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: deals.id, customerId: deals.customerId, externalRef: deals.externalRef })
    .from(deals)
    .where(and(eq(deals.companyId, companyId), inArray(deals.customerId, customerIds), eq(deals.status, 'open')));
  return new Map(rows.map((row) => [row.customerId, row]));
}

/** The columns a batch writes: on a new deal all of them, on a matched one those an update may change. */
export type BatchColumns = Required<
  Pick<
    NewDeal,
    | 'customerId'
    | 'stageId'
    | 'title'
    | 'description'
    | 'value'
    | 'valueSource'
    | 'assignedUserId'
    | 'externalRef'
    | 'metadata'
    | 'customFields'
  >
>;

/**
 * New deals of a batch in one statement, in the company's currency. A row whose external reference another
 * transaction created meanwhile, or whose customer got an open deal meanwhile, is skipped (the unique indexes answer,
 * after waiting for that transaction): it is not returned, and the batch decides on it again.
 */
export async function insertDealsOfBatch(
  tx: Tx,
  companyId: string,
  rows: (BatchColumns & { id: string })[],
): Promise<DealRow[]> {
  if (rows.length === 0) return [];
  const [company] = await tx
    .select({ currency: companies.currency })
    .from(companies)
    .where(eq(companies.id, companyId))
    .limit(1);
  if (!company) throw new Error('deal batch: the company is gone');
  return tx
    .insert(deals)
    .values(rows.map((row) => ({ ...row, companyId, currency: company.currency, source: 'api' as const })))
    .onConflictDoNothing()
    .returning();
}

/** Changed deals of a batch (locked by lockDealsOfBatch) in one statement, each with the next version. */
export async function updateDealsOfBatch(
  tx: Tx,
  companyId: string,
  rows: (BatchColumns & { id: string })[],
): Promise<DealRow[]> {
  if (rows.length === 0) return [];
  const input = rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    value: row.value,
    value_source: row.valueSource,
    assigned_user_id: row.assignedUserId,
    external_ref: row.externalRef,
    metadata: row.metadata,
    custom_fields: row.customFields,
  }));
  const u = (column: string) => sql.raw(`u.${column}`);
  return tx
    .update(deals)
    .set({
      title: sql`${u('title')}`,
      description: sql`${u('description')}`,
      value: sql`${u('value')}`,
      valueSource: sql`${u('value_source')}`,
      assignedUserId: sql`${u('assigned_user_id')}`,
      externalRef: sql`${u('external_ref')}`,
      metadata: sql`${u('metadata')}`,
      customFields: sql`${u('custom_fields')}`,
      updatedAt: sql`app_now()`,
      version: sql`${deals.version} + 1`,
    })
    .from(
      sql`jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as u(id uuid, title text, description text,
            value numeric, value_source text, assigned_user_id bigint, external_ref text, metadata jsonb, custom_fields jsonb)`,
    )
    .where(and(eq(deals.companyId, companyId), sql`${deals.id} = u.id`))
    .returning();
}
