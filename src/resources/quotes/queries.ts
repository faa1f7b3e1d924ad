// SQL of quotes; every function takes the tenant transaction first.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import { quotes } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { type PageRequest, readPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import type { QuoteRow } from './serialize.ts';

export type QuoteStatus = QuoteRow['status'];
export type QuoteFilters = {
  status?: QuoteStatus;
  customerId?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

const SORTS = { created_at: quotes.createdAt, updated_at: quotes.updatedAt };

/** A page of quotes: one statement as the tenant in one round trip. */
export async function listQuotes(tenant: Tenant, page: PageRequest, filters: QuoteFilters) {
  const conditions: (SQL | undefined)[] = [eq(quotes.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(quotes.status, filters.status));
  if (filters.customerId) conditions.push(eq(quotes.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(quotes.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, quotes, filters.metadata));
  return readPage(tenant, quotes, page, { sorts: SORTS, id: quotes.id }, conditions);
}

/** The quote for GET: one statement as the tenant, no transaction (one round trip). */
export const readQuote: (tenant: Tenant, id: string) => Promise<QuoteRow | undefined> = recordReader(
  quotes,
  byRecordKey(quotes),
);

export async function findQuote(tx: Tx, companyId: string, id: string): Promise<QuoteRow | undefined> {
  const [row] = await tx
    .select()
    .from(quotes)
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, id)));
  return row;
}

/** The quote, locked until the transaction ends, so concurrent changes queue. */
export function lockQuote(tx: Tx, companyId: string, id: string): Promise<QuoteRow | undefined> {
  return lockRecord(tx, quotes, companyId, id);
}

export type NewQuote = Omit<typeof quotes.$inferInsert, 'companyId' | 'version'>;
export type QuoteChanges = Omit<PgUpdateSetSource<typeof quotes>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

export async function insertQuote(tx: Tx, companyId: string, fields: NewQuote): Promise<QuoteRow> {
  const [row] = await tx
    .insert(quotes)
    .values({ ...fields, companyId })
    .returning();
  return row;
}

export async function updateQuote(tx: Tx, current: QuoteRow, fields: QuoteChanges): Promise<QuoteRow> {
  const [row] = await tx
    .update(quotes)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${quotes.version} + 1` })
    .where(and(eq(quotes.companyId, current.companyId), eq(quotes.id, current.id)))
    .returning();
  return row;
}

/** Sent or viewed quotes whose last valid day lies before the company's today: expired, with no event. */
export async function expireQuotes(tx: Tx, companyId: string): Promise<number> {
  const rows = await tx.execute(sql`
    update quotes set status = 'expired', updated_at = app_now(), version = version + 1
    where company_id = ${companyId} and status in ('sent', 'viewed')
      and valid_until < (app_now() at time zone (select time_zone from companies where id = ${companyId}))::date
    returning id`);
  return rows.length;
}
