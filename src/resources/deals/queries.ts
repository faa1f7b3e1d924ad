// SQL of deals; every function takes the tenant transaction first.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { takeChangeTimeAfterLock } from '../../db/change-time.ts';
import { companies, deals, quotes, users } from '../../db/schema/index.ts';
import { readById, type Tenant, type Tx } from '../../db/tenant.ts';
import type { QuoteForValue } from '../../domain/deals.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { DealRow } from './serialize.ts';

export type DealFilters = {
  status?: 'open' | 'won' | 'lost';
  stageId?: number;
  customerId?: string;
  assignedUserId?: number;
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
  if (filters.updatedSince) conditions.push(atOrAfter(deals.updatedAt, filters.updatedSince));
  return readPage(tenant, deals, page, { sorts: SORTS, id: deals.id }, conditions);
}

/** The deal for GET: one statement as the tenant, no transaction (one round trip). */
export const readDeal = (tenant: Tenant, id: string): Promise<DealRow | undefined> => readById(tenant, deals, id);

export async function findDeal(tx: Tx, companyId: string, id: string): Promise<DealRow | undefined> {
  const [row] = await tx
    .select()
    .from(deals)
    .where(and(eq(deals.companyId, companyId), eq(deals.id, id)));
  return row;
}

/**
 * The deal, locked until the transaction ends: an update or state action then works on the latest committed
 * version, so concurrent writers queue instead of overwriting each other.
 */
export async function lockDeal(tx: Tx, companyId: string, id: string): Promise<DealRow | undefined> {
  const [row] = await tx
    .select()
    .from(deals)
    .where(and(eq(deals.companyId, companyId), eq(deals.id, id)))
    .for('update');
  if (row) await takeChangeTimeAfterLock(tx);
  return row;
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

export async function insertDeal(tx: Tx, companyId: string, fields: NewDeal) {
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
