// Companies, their users and API keys.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea, companyId, createdAt, prefixedIdColumn, ts, updatedAt } from './columns.ts';

/** One step of a company's invoice reminder schedule, as stored. */
export type ReminderStep = { days_after_due: number; kind: 'friendly' | 'second' | 'final' };

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    legalName: text('legal_name'),
    email: text('email'),
    phone: text('phone'),
    website: text('website'),
    address: text('address'),
    postalCode: text('postal_code'),
    city: text('city'),
    country: text('country').notNull().default('NL'),
    language: text('language', { enum: ['nl', 'en', 'de', 'fr'] })
      .notNull()
      .default('nl'),
    timeZone: text('time_zone').notNull().default('Europe/Amsterdam'),
    currency: text('currency').notNull().default('EUR'),
    vatNumber: text('vat_number'),
    cocNumber: text('coc_number'),
    iban: text('iban'),
    bic: text('bic'),
    /** Its address on the Peppol network, `scheme:identifier` (drizzle/0035); e-invoices derive one without it. */
    peppolId: text('peppol_id'),
    /** The VATEX code of the company's exempt lines that name none (src/domain/vat-exemption.ts). */
    vatExemptionReason: text('vat_exemption_reason'),
    /** Whether invoice email carries the UBL next to the PDF (drizzle/0040): `auto` for customers with a VAT number. */
    einvoiceAttachment: text('einvoice_attachment', { enum: ['auto', 'always', 'never'] })
      .notNull()
      .default('auto'),
    pricesIncludeTax: boolean('prices_include_tax').notNull().default(false),
    defaultTaxRate: numeric('default_tax_rate', { precision: 5, scale: 2 }).notNull().default('21.00'),
    defaultPaymentTermDays: integer('default_payment_term_days').notNull().default(14),
    defaultQuoteValidityDays: integer('default_quote_validity_days').notNull().default(30),
    features: text('features').array().notNull().default(sql`'{}'::text[]`),
    suspendedAt: ts('suspended_at'),
    subscriptionActive: boolean('subscription_active').notNull().default(true),
    /** Per-key request limits the operator set (CLI `company limits`); null: the service's default. */
    rateLimitPerMinute: integer('rate_limit_per_minute'),
    rateLimitPerHour: integer('rate_limit_per_hour'),
    /**
     * Per-company concurrency limits the operator set (CLI `company limits`, drizzle/0042), by kind (`uploads`,
     * `pdf_renders`, `batches`); a kind left out has the service's default (src/http/concurrency.ts).
     */
    concurrencyLimits: jsonb('concurrency_limits').$type<Partial<Record<string, number>>>().notNull().default({}),
    /**
     * The company's invoice reminder schedule (drizzle/0048): steps in increasing `daysAfterDue`; empty, the default,
     * sends none (src/domain/reminder-schedule.ts checks it).
     */
    invoiceReminderSteps: jsonb('invoice_reminder_steps').$type<ReminderStep[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('companies_invoice_reminder_steps', sql`jsonb_typeof(${t.invoiceReminderSteps}) = 'array'`),
    check('companies_rate_limit_per_minute', sql`${t.rateLimitPerMinute} > 0`),
    check('companies_rate_limit_per_hour', sql`${t.rateLimitPerHour} > 0`),
    check('companies_concurrency_limits', sql`jsonb_typeof(${t.concurrencyLimits}) = 'object'`),
    check('companies_peppol_id', sql`${t.peppolId} ~ '^[0-9]{4}:[^[:space:]:]{1,125}$'`),
    check('companies_einvoice_attachment', sql`${t.einvoiceAttachment} in ('auto', 'always', 'never')`),
    check('companies_vat_exemption_reason', sql`${t.vatExemptionReason} ~ '^VATEX-[A-Z0-9-]+$'`),
  ],
);

export const users = pgTable(
  'users',
  {
    companyId: companyId().references(() => companies.id),
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    role: text('role'),
    isOwner: boolean('is_owner').notNull().default(false),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('users_email').on(t.companyId, sql`lower(${t.email})`),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    companyId: companyId().references(() => companies.id),
    id: prefixedIdColumn('id').notNull(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: bytea('key_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    expiresAt: ts('expires_at'),
    /** The moment the key stops working: now for a revocation, the end of the overlap for a renewal. */
    revokedAt: ts('revoked_at'),
    renewedFromId: prefixedIdColumn('renewed_from_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('api_keys_hash').on(t.keyHash),
    index('api_keys_company').on(t.companyId, t.createdAt),
    foreignKey({ columns: [t.companyId, t.renewedFromId], foreignColumns: [t.companyId, t.id] }),
  ],
);
