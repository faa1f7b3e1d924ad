// Getting paid online (drizzle/0046_payments.sql): a company's payment provider, its API key sealed with a key of
// the installation (src/payments/secret-box.ts), and the payments created at the provider for invoices.
import { sql } from 'drizzle-orm';
import { check, foreignKey, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companyId, createdAt, ts, updatedAt } from './columns.ts';
import { companies } from './platform.ts';
import { invoices } from './sales.ts';

export const PAYMENT_PROVIDERS = ['mollie'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const PROVIDER_PAYMENT_STATUSES = [
  /** Claimed by a "pay now" that is asking the provider for it (drizzle/0049): no provider id yet. */
  'creating',
  'open',
  'pending',
  'authorized',
  'paid',
  'failed',
  'expired',
  'canceled',
] as const;
export type ProviderPaymentStatus = (typeof PROVIDER_PAYMENT_STATUSES)[number];

export const paymentProviders = pgTable('payment_providers', {
  companyId: companyId()
    .primaryKey()
    .references(() => companies.id),
  provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
  /** `v1.<key id>.<iv>.<tag>.<ciphertext>` (secret-box.ts); never the key itself. */
  apiKeySealed: text('api_key_sealed').notNull(),
  /** Mollie's `test_` or `live_` key: shown to the operator instead of the key. */
  apiKeyMode: text('api_key_mode', { enum: ['test', 'live'] }).notNull(),
  /** The provider's API root; null: the provider's own (tests and local development point it at a fake). */
  apiBaseUrl: text('api_base_url'),
  /** The path segment of the company's webhook address (src/payments/webhook-token.ts). */
  webhookToken: text('webhook_token').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const providerPayments = pgTable(
  'provider_payments',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The provider's id (Mollie `tr_…`); null while `creating`. */
    providerPaymentId: text('provider_payment_id'),
    amount: numeric('amount', { precision: 18, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PROVIDER_PAYMENT_STATUSES }).notNull(),
    checkoutUrl: text('checkout_url'),
    /** The provider's expiry of an open payment; for a `creating` row, the end of its claim. */
    expiresAt: ts('expires_at'),
    method: text('method'),
    paidAt: ts('paid_at'),
    /** The invoice's payment this paid payment became (null until then, or when it could not be applied). */
    invoicePaymentId: uuid('invoice_payment_id'),
    /** Why a paid payment was not recorded on the invoice (the invoice was settled or cancelled meanwhile). */
    notAppliedReason: text('not_applied_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({
      name: 'provider_payments_invoice_fk',
      columns: [t.companyId, t.invoiceId],
      foreignColumns: [invoices.companyId, invoices.id],
    }).onDelete('cascade'),
    uniqueIndex('provider_payments_provider_id').on(t.companyId, t.provider, t.providerPaymentId),
    uniqueIndex('provider_payments_open')
      .on(t.companyId, t.invoiceId, t.amount)
      .where(sql`${t.status} IN ('creating', 'open')`),
    check('provider_payments_amount', sql`${t.amount} > 0`),
    check('provider_payments_created', sql`(${t.status} = 'creating') = (${t.providerPaymentId} IS NULL)`),
  ],
);
