// SQL of reviews, review requests and opt-outs; every function takes the tenant transaction first.
import { and, eq, inArray, max, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import {
  channelSettings,
  companies,
  conversations,
  customers,
  reviewOptOuts,
  reviewRequests,
  reviews,
} from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { type PageRequest, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { ReviewRequestRow, ReviewRow } from './serialize.ts';

export type ReviewFilters = {
  status?: ReviewRow['status'];
  source?: ReviewRow['source'];
  rating?: number;
  customerId?: string;
  updatedSince?: string;
};

const REVIEW_SORTS = { reviewed_at: reviews.reviewedAt, created_at: reviews.createdAt, updated_at: reviews.updatedAt };

export async function listReviews(tx: Tx, companyId: string, page: PageRequest, filters: ReviewFilters) {
  const conditions: (SQL | undefined)[] = [eq(reviews.companyId, companyId)];
  if (filters.status) conditions.push(eq(reviews.status, filters.status));
  if (filters.source) conditions.push(eq(reviews.source, filters.source));
  if (filters.rating !== undefined) conditions.push(eq(reviews.rating, filters.rating));
  if (filters.customerId) conditions.push(eq(reviews.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(reviews.updatedAt, filters.updatedSince));
  return selectPage(tx, reviews, page, { sorts: REVIEW_SORTS, id: reviews.id }, conditions);
}

export async function findReview(tx: Tx, companyId: string, id: string): Promise<ReviewRow | undefined> {
  const [row] = await tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.companyId, companyId), eq(reviews.id, id)));
  return row;
}

export type NewReview = Omit<typeof reviews.$inferInsert, 'companyId' | 'id' | 'version'>;

export async function insertReview(tx: Tx, companyId: string, review: NewReview): Promise<ReviewRow> {
  const [row] = await tx
    .insert(reviews)
    .values({ ...review, companyId, id: newId() })
    .returning();
  if (!row) throw new Error('review not inserted');
  return row;
}

export type RequestFilters = { status?: ReviewRequestRow['status']; customerId?: string; updatedSince?: string };

const REQUEST_SORTS = { created_at: reviewRequests.createdAt, updated_at: reviewRequests.updatedAt };

export async function listRequests(tx: Tx, companyId: string, page: PageRequest, filters: RequestFilters) {
  const conditions: (SQL | undefined)[] = [eq(reviewRequests.companyId, companyId)];
  if (filters.status) conditions.push(eq(reviewRequests.status, filters.status));
  if (filters.customerId) conditions.push(eq(reviewRequests.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(reviewRequests.updatedAt, filters.updatedSince));
  return selectPage(tx, reviewRequests, page, { sorts: REQUEST_SORTS, id: reviewRequests.id }, conditions);
}

export async function findRequest(tx: Tx, companyId: string, id: string): Promise<ReviewRequestRow | undefined> {
  const [row] = await tx
    .select()
    .from(reviewRequests)
    .where(and(eq(reviewRequests.companyId, companyId), eq(reviewRequests.id, id)));
  return row;
}

/** The request of a review page, locked: opening and answering it queue behind each other. */
export async function lockRequestByToken(tx: Tx, companyId: string, token: string) {
  const [row] = await tx
    .select()
    .from(reviewRequests)
    .where(and(eq(reviewRequests.companyId, companyId), eq(reviewRequests.token, token)))
    .for('update');
  return row;
}

export type NewRequest = Omit<typeof reviewRequests.$inferInsert, 'companyId' | 'id' | 'version'>;

export async function insertRequest(tx: Tx, companyId: string, request: NewRequest): Promise<ReviewRequestRow> {
  const [row] = await tx
    .insert(reviewRequests)
    .values({ ...request, companyId, id: newId() })
    .returning();
  if (!row) throw new Error('review request not inserted');
  return row;
}

export type RequestChanges = Omit<
  PgUpdateSetSource<typeof reviewRequests>,
  'companyId' | 'id' | 'version' | 'updatedAt'
>;

export async function updateRequest(tx: Tx, current: ReviewRequestRow, changes: RequestChanges) {
  const [row] = await tx
    .update(reviewRequests)
    .set({ ...changes, updatedAt: sql`app_now()`, version: sql`${reviewRequests.version} + 1` })
    .where(and(eq(reviewRequests.companyId, current.companyId), eq(reviewRequests.id, current.id)))
    .returning();
  if (!row) throw new Error(`review request ${current.id} vanished while locked`);
  return row;
}

export type Recipient = { customerId: string | null; email: string | null; phone: string | null };

/** Requests to the same person: the same customer, or without one the same email address or phone number. */
function samePerson(recipient: Recipient): SQL | undefined {
  if (recipient.customerId) return eq(reviewRequests.customerId, recipient.customerId);
  const matches: SQL[] = [];
  if (recipient.email) matches.push(sql`lower(${reviewRequests.recipientEmail}) = ${recipient.email.toLowerCase()}`);
  if (recipient.phone) matches.push(eq(reviewRequests.recipientPhone, recipient.phone));
  return matches.length ? or(...matches) : sql`false`;
}

export async function openRequestOf(tx: Tx, companyId: string, recipient: Recipient) {
  const [row] = await tx
    .select({ id: reviewRequests.id })
    .from(reviewRequests)
    .where(
      and(
        eq(reviewRequests.companyId, companyId),
        inArray(reviewRequests.status, ['scheduled', 'sent', 'opened']),
        samePerson(recipient),
      ),
    )
    .limit(1);
  return row;
}

/** The latest request that counts for the cooldown (failed and cancelled ones do not), asked after `since`. */
export async function askedSince(tx: Tx, companyId: string, recipient: Recipient, since: Date) {
  const [row] = await tx
    .select({ askedAt: reviewRequests.createdAt })
    .from(reviewRequests)
    .where(
      and(
        eq(reviewRequests.companyId, companyId),
        sql`${reviewRequests.status} not in ('failed', 'cancelled')`,
        sql`${reviewRequests.createdAt} > ${since.toISOString()}`,
        samePerson(recipient),
      ),
    )
    .orderBy(sql`${reviewRequests.createdAt} desc`)
    .limit(1);
  return row;
}

/** The address or number as kept in review_opt_outs. */
export const optOutKey = (value: string) => value.trim().toLowerCase();

export async function hasOptedOut(tx: Tx, companyId: string, addresses: string[]): Promise<boolean> {
  if (addresses.length === 0) return false;
  const [row] = await tx
    .select({ address: reviewOptOuts.address })
    .from(reviewOptOuts)
    .where(and(eq(reviewOptOuts.companyId, companyId), inArray(reviewOptOuts.address, addresses.map(optOutKey))))
    .limit(1);
  return row !== undefined;
}

export async function optOut(tx: Tx, companyId: string, address: string): Promise<void> {
  await tx
    .insert(reviewOptOuts)
    .values({ companyId, address: optOutKey(address) })
    .onConflictDoNothing();
}

export async function findCustomerById(tx: Tx, companyId: string, id: string) {
  const [row] = await tx
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, id)));
  return row;
}

export async function findCustomerByEmail(tx: Tx, companyId: string, email: string) {
  const [row] = await tx
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.emailLower, email.toLowerCase())));
  return row;
}

/** Open requests sent more than `days` days ago become expired; returns how many. */
export async function expireRequests(tx: Tx, companyId: string, days: number): Promise<number> {
  const rows = await tx
    .update(reviewRequests)
    .set({ status: 'expired', updatedAt: sql`app_now()`, version: sql`${reviewRequests.version} + 1` })
    .where(
      and(
        eq(reviewRequests.companyId, companyId),
        inArray(reviewRequests.status, ['sent', 'opened']),
        sql`${reviewRequests.sentAt} < app_now() - make_interval(days => ${days})`,
      ),
    )
    .returning({ id: reviewRequests.id });
  return rows.length;
}

/** The company's name, shown on its review page. */
export async function companyName(tx: Tx, companyId: string): Promise<string> {
  const [row] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
  return row?.name ?? '';
}

/** The review, locked until the change commits (If-Match is checked against the locked version). */
export async function lockReview(tx: Tx, companyId: string, id: string): Promise<ReviewRow | undefined> {
  const [row] = await tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.companyId, companyId), eq(reviews.id, id)))
    .for('update');
  return row;
}

export type ReviewChanges = Omit<PgUpdateSetSource<typeof reviews>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

export async function updateReview(tx: Tx, current: ReviewRow, changes: ReviewChanges): Promise<ReviewRow> {
  const [row] = await tx
    .update(reviews)
    .set({ ...changes, updatedAt: sql`app_now()`, version: sql`${reviews.version} + 1` })
    .where(and(eq(reviews.companyId, current.companyId), eq(reviews.id, current.id)))
    .returning();
  if (!row) throw new Error(`review ${current.id} vanished while locked`);
  return row;
}

/** The company a public widget id names (channel_settings is read before a tenant is known, like companies). */
export async function companyOfWidget(db: Db, widgetId: string) {
  const [row] = await db
    .select({ id: companies.id, name: companies.name, language: companies.language, timeZone: companies.timeZone })
    .from(channelSettings)
    .innerJoin(companies, eq(companies.id, channelSettings.companyId))
    .where(eq(channelSettings.widgetId, widgetId));
  return row;
}

/** Published reviews whose author consented: the latest `limit`, and the average and number of all of them. */
export async function publishedReviews(tx: Tx, companyId: string, limit: number) {
  const shown = and(
    eq(reviews.companyId, companyId),
    eq(reviews.status, 'published'),
    eq(reviews.consentPublish, true),
  );
  const [aggregate] = await tx
    .select({ average: sql<string | null>`round(avg(${reviews.rating}), 2)::text`, count: sql<number>`count(*)::int` })
    .from(reviews)
    .where(shown);
  const rows = await tx
    .select()
    .from(reviews)
    .where(shown)
    .orderBy(sql`${reviews.reviewedAt} desc, ${reviews.id} desc`)
    .limit(limit);
  return { average: aggregate?.average ?? null, count: aggregate?.count ?? 0, rows };
}

/** The company's WhatsApp template of review requests (null: none set). */
export async function whatsappReviewTemplateOf(tx: Tx, companyId: string) {
  const [row] = await tx
    .select({
      name: channelSettings.whatsappReviewTemplate,
      languages: channelSettings.whatsappReviewTemplateLanguages,
    })
    .from(channelSettings)
    .where(eq(channelSettings.companyId, companyId));
  return row?.name ? { name: row.name, languages: row.languages } : null;
}

/** The latest WhatsApp message this number sent the company (its WhatsApp conversations), or null. */
export async function lastWhatsAppMessageFrom(tx: Tx, companyId: string, waId: string): Promise<Date | null> {
  const [row] = await tx
    .select({ last: max(conversations.lastCustomerMessageAt) })
    .from(conversations)
    .where(
      and(
        eq(conversations.companyId, companyId),
        eq(conversations.channel, 'whatsapp'),
        eq(conversations.contactAddress, waId),
      ),
    );
  return row?.last ?? null;
}
