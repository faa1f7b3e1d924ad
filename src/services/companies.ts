// Creating and changing companies (tenants) from the operator CLI.
import { eq, sql } from 'drizzle-orm';
import { forgetCompany } from '../auth/key-store.ts';
import type { Db } from '../db/client.ts';
import { companies } from '../db/schema/index.ts';
import { actAsTenant, type Tx } from '../db/tenant.ts';
import type { ConcurrencyKind } from '../domain/concurrency-kinds.ts';
import { newId } from '../ids.ts';
import { DEFAULT_PIPELINE, insertStages } from './pipelines.ts';

export const FEATURES = [
  'pipeline',
  'chat_widget',
  'email',
  'whatsapp',
  'tasks',
  'invoices',
  'quotes',
  'work_orders',
  'appointments',
  'webshop',
  'reviews',
] as const;

export function featuresFrom(list: string): string[] {
  if (list === 'all') return [...FEATURES];
  if (list === '' || list === 'none') return [];
  const features = list
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = features.filter((f) => !(FEATURES as readonly string[]).includes(f));
  if (unknown.length) throw new Error(`unknown feature(s): ${unknown.join(', ')} (known: ${FEATURES.join(', ')})`);
  return features;
}

export type NewCompany = { name: string; features?: string[]; language?: 'nl' | 'en' | 'de' | 'fr' } & Partial<
  typeof companies.$inferInsert
>;

/** A company with the default pipeline, so that deals can be created at once; one transaction. */
export function createCompany(db: Db, input: NewCompany) {
  return db.transaction((tx) => insertCompany(tx, input));
}

/**
 * Creates the company and its default pipeline in the caller's transaction, which then acts as that company
 * (companies are written as the owner, their stages through row-level security like any tenant row).
 */
export async function insertCompany(tx: Tx, input: NewCompany) {
  const [row] = await tx
    .insert(companies)
    .values({ ...input, id: newId(), features: input.features ?? [...FEATURES], language: input.language ?? 'nl' })
    .returning();
  await actAsTenant(tx, row.id);
  await insertStages(tx, row.id, DEFAULT_PIPELINE);
  return row;
}

async function change(db: Db, id: string, values: Partial<typeof companies.$inferInsert>) {
  const rows = await db
    .update(companies)
    .set({ ...values, updatedAt: sql`app_now()` })
    .where(eq(companies.id, id))
    .returning();
  if (rows.length === 0) throw new Error(`no company ${id}`);
  forgetCompany(id);
  return rows[0];
}

export const suspendCompany = (db: Db, id: string, suspended = true) =>
  change(db, id, { suspendedAt: suspended ? new Date() : null });
export const setSubscription = (db: Db, id: string, active: boolean) => change(db, id, { subscriptionActive: active });
export const setFeatures = (db: Db, id: string, features: string[]) => change(db, id, { features });

/** Per-key limits per minute and per hour; null puts the service's default back, undefined leaves it. */
export type RateLimitChange = { perMinute?: number | null; perHour?: number | null };

/** New limits count from the next request everywhere: the update's NOTIFY empties every key cache. */
export const setRateLimits = (db: Db, id: string, limits: RateLimitChange) =>
  change(db, id, { rateLimitPerMinute: limits.perMinute, rateLimitPerHour: limits.perHour });

/** Per-company concurrency limits by kind (src/http/concurrency.ts); null puts the default back, undefined leaves it. */
export type ConcurrencyLimitChange = Partial<Record<ConcurrencyKind, number | null>>;

/** Counted from the next request that takes a slot: the limit is read where the slot is taken (drizzle/0042). */
export async function setConcurrencyLimits(db: Db, id: string, limits: ConcurrencyLimitChange) {
  const [row] = await db.select({ current: companies.concurrencyLimits }).from(companies).where(eq(companies.id, id));
  if (!row) throw new Error(`no company ${id}`);
  const next = { ...row.current };
  for (const [kind, value] of Object.entries(limits)) {
    if (value === null) delete next[kind];
    else if (value !== undefined) next[kind] = value;
  }
  return change(db, id, { concurrencyLimits: next });
}

/**
 * The company's details that documents and e-invoices print (CLI `company details`); null clears one, undefined
 * leaves it. The API shows them read-only (GET /company).
 */
export type CompanyDetailsChange = Partial<
  Pick<
    typeof companies.$inferInsert,
    | 'legalName'
    | 'address'
    | 'postalCode'
    | 'city'
    | 'country'
    | 'vatNumber'
    | 'cocNumber'
    | 'iban'
    | 'bic'
    | 'peppolId'
    | 'vatExemptionReason'
    | 'einvoiceAttachment'
  >
>;

export const setCompanyDetails = (db: Db, id: string, details: CompanyDetailsChange) => change(db, id, details);
