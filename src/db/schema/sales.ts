// Sales documents: quotes, invoices and the payments of invoices, and the per-company, per-year counters their
// numbers come from. A document's lines and its customer copy are JSON on the document row: they are always
// written and read whole with it (a request's `items` replaces every line), never on their own.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
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
import { companyId, createdAt, metadata, prefixedIdColumn, ts, updatedAt, version } from './columns.ts';
import { customers, deals, pipelineStages } from './crm.ts';
import { companies } from './platform.ts';

/** Amounts up to 200 lines of 999 999 × 9 999 999.99 fit. */
const amount = (name: string) => numeric(name, { precision: 18, scale: 2 });
const percentage = (name: string) => numeric(name, { precision: 5, scale: 2 });

/** The customer's details as printed on a document (DocumentCustomer in the contract). */
export type DocumentCustomerCopy = {
  type: 'individual' | 'business';
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  company_name: string | null;
  vat_number: string | null;
  coc_number: string | null;
};

/** One line as the API shows it, without its `object` (quote_item or invoice_item). */
export type DocumentLine = {
  id: string;
  type: 'product' | 'service' | 'labor' | 'material' | 'travel' | 'discount' | 'text';
  name: string;
  description: string | null;
  sku: string | null;
  quantity: string;
  unit: string | null;
  unit_price: string;
  unit_price_incl: string | null;
  discount_percentage: string;
  discount_amount: string;
  discount_description: string | null;
  line_total: string;
  line_total_incl: string | null;
  is_taxable: boolean;
  tax_rate: string;
  /** An exempt line's VATEX code (src/domain/vat-exemption.ts); absent on lines stored before it existed. */
  vat_exemption_reason?: string | null;
  /** The line as the request sent it (not shown): the totals are recalculated from it. */
  input?: unknown;
};

/**
 * The last number given per company, kind of document and year. The creating transaction increments the row
 * (and so holds its lock until it commits): concurrent creations queue on it, and a creation that rolls back
 * gives its number back, so numbers are consecutive without gaps.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    companyId: companyId().references(() => companies.id),
    kind: text('kind').notNull(),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.year] })],
);

const documentColumns = () => ({
  companyId: companyId().references(() => companies.id),
  id: uuid('id').notNull(),
  metadata: metadata(),
  number: text('number').notNull(),
  title: text('title').notNull(),
  description: text('description'),
  customerId: uuid('customer_id').notNull(),
  customer: jsonb('customer').$type<DocumentCustomerCopy>().notNull(),
  dealId: uuid('deal_id'),
  language: text('language', { enum: ['nl', 'en', 'de', 'fr'] }).notNull(),
  currency: text('currency').notNull(),
  outroText: text('outro_text'),
  termsConditions: text('terms_conditions'),
  notes: text('notes'),
  hideLineAmounts: boolean('hide_line_amounts').notNull().default(false),
  discountPercentage: percentage('discount_percentage').notNull().default('0.00'),
  discountAmount: amount('discount_amount').notNull().default('0.00'),
  discountDescription: text('discount_description'),
  subtotal: amount('subtotal').notNull(),
  taxAmount: amount('tax_amount').notNull(),
  total: amount('total').notNull(),
  items: jsonb('items').$type<DocumentLine[]>().notNull(),
  sentAt: ts('sent_at'),
  viewedAt: ts('viewed_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
});

export const quotes = pgTable(
  'quotes',
  {
    ...documentColumns(),
    status: text('status', {
      enum: ['draft', 'pending_review', 'sent', 'viewed', 'accepted', 'rejected', 'expired', 'completed'],
    })
      .notNull()
      .default('draft'),
    pipelineStageId: bigint('pipeline_stage_id', { mode: 'number' }),
    quoteDate: date('quote_date').notNull(),
    validUntil: date('valid_until').notNull(),
    introText: text('intro_text'),
    acceptedAt: ts('accepted_at'),
    rejectedAt: ts('rejected_at'),
    invoiceId: uuid('invoice_id'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('quotes_number').on(t.companyId, t.number),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.dealId], foreignColumns: [deals.companyId, deals.id] }),
    foreignKey({
      columns: [t.companyId, t.pipelineStageId],
      foreignColumns: [pipelineStages.companyId, pipelineStages.id],
    }),
    index('quotes_created').on(t.companyId, t.createdAt, t.id),
    index('quotes_updated').on(t.companyId, t.updatedAt, t.id),
    index('quotes_customer').on(t.companyId, t.customerId),
    index('quotes_deal').on(t.companyId, t.dealId),
    // The daily expiry looks for sent quotes past their date.
    index('quotes_open_valid_until')
      .on(t.companyId, t.validUntil)
      .where(sql`${t.status} in ('sent', 'viewed')`),
    check('quotes_valid_until', sql`${t.validUntil} >= ${t.quoteDate}`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    ...documentColumns(),
    status: text('status', {
      enum: ['draft', 'sent', 'viewed', 'paid', 'partial', 'overdue', 'cancelled', 'refunded'],
    })
      .notNull()
      .default('draft'),
    quoteId: uuid('quote_id'),
    invoiceDate: date('invoice_date').notNull(),
    dueDate: date('due_date').notNull(),
    paymentTermDays: integer('payment_term_days').notNull(),
    isTermInvoice: boolean('is_term_invoice').notNull().default(false),
    termPercentage: percentage('term_percentage'),
    amountPaid: amount('amount_paid').notNull().default('0.00'),
    paidAt: ts('paid_at'),
    cancelledAt: ts('cancelled_at'),
    /** False: the company's reminder schedule skips this invoice (drizzle/0048). */
    remindersEnabled: boolean('reminders_enabled').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('invoices_number').on(t.companyId, t.number),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.dealId], foreignColumns: [deals.companyId, deals.id] }),
    foreignKey({ columns: [t.companyId, t.quoteId], foreignColumns: [quotes.companyId, quotes.id] }),
    index('invoices_created').on(t.companyId, t.createdAt, t.id),
    index('invoices_updated').on(t.companyId, t.updatedAt, t.id),
    index('invoices_customer').on(t.companyId, t.customerId),
    index('invoices_quote').on(t.companyId, t.quoteId),
    // The daily overdue run looks for unpaid invoices past their due date.
    index('invoices_open_due')
      .on(t.companyId, t.dueDate)
      .where(sql`${t.status} in ('sent', 'viewed', 'partial')`),
    index('invoices_overdue_reminders')
      .on(t.companyId, t.dueDate)
      .where(sql`${t.status} = 'overdue' AND ${t.remindersEnabled}`),
    check('invoices_due_date', sql`${t.dueDate} >= ${t.invoiceDate}`),
    check('invoices_term_percentage', sql`${t.isTermInvoice} = (${t.termPercentage} is not null)`),
  ],
);

/**
 * A refund sent to the payment provider: `queued` (recorded, not yet accepted by the provider), `pending` (accepted,
 * not yet paid back), `refunded`, `failed` (refused, failed or canceled at the provider).
 */
export const PROVIDER_REFUND_STATUSES = ['queued', 'pending', 'refunded', 'failed'] as const;
export type ProviderRefundStatus = (typeof PROVIDER_REFUND_STATUSES)[number];

export const invoicePayments = pgTable(
  'invoice_payments',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    amount: amount('amount').notNull(),
    type: text('type', { enum: ['full', 'partial', 'deposit', 'refund'] }).notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'refunded'] })
      .notNull()
      .default('paid'),
    paymentMethod: text('payment_method', {
      enum: [
        'bank_transfer',
        'ideal',
        'credit_card',
        'debit_card',
        'bancontact',
        'direct_debit',
        'paypal',
        'cash',
        'other',
      ],
    }).notNull(),
    description: text('description'),
    paidAt: ts('paid_at'),
    /** The payment provider it came through (`mollie`), and its payment id there; null for a recorded payment. */
    provider: text('provider', { enum: ['mollie'] }),
    providerPaymentId: text('provider_payment_id'),
    /** The payment a refund pays back (drizzle/0049); a provider payment's refund is sent to the provider. */
    refundedPaymentId: uuid('refunded_payment_id'),
    /** The provider's refund (Mollie `re_…`) and where it stands; null for a refund not sent to a provider. */
    providerRefundId: text('provider_refund_id'),
    providerRefundStatus: text('provider_refund_status', { enum: PROVIDER_REFUND_STATUSES }),
    /** Why the provider refused or failed the refund. */
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.invoiceId], foreignColumns: [invoices.companyId, invoices.id] }).onDelete(
      'cascade',
    ),
    index('invoice_payments_invoice').on(t.companyId, t.invoiceId, t.createdAt),
    uniqueIndex('invoice_payments_provider_payment')
      .on(t.companyId, t.provider, t.providerPaymentId)
      .where(sql`${t.providerPaymentId} IS NOT NULL`),
    check('invoice_payments_amount', sql`${t.amount} > 0`),
    foreignKey({
      name: 'invoice_payments_refunded_payment_fk',
      columns: [t.companyId, t.refundedPaymentId],
      foreignColumns: [t.companyId, t.id],
    }),
    uniqueIndex('invoice_payments_provider_refund')
      .on(t.companyId, t.provider, t.providerRefundId)
      .where(sql`${t.providerRefundId} IS NOT NULL`),
    index('invoice_payments_refunded_payment')
      .on(t.companyId, t.refundedPaymentId)
      .where(sql`${t.refundedPaymentId} IS NOT NULL`),
  ],
);

/**
 * The reminders of an invoice (drizzle/0048): one per invoice and step of the company's schedule, made `scheduled`
 * by the daily job, then `sent` (its email in the outbox) or `skipped` (paid, cancelled, refunded or opted out by then).
 */
export const invoiceReminders = pgTable(
  'invoice_reminders',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    daysAfterDue: integer('days_after_due').notNull(),
    kind: text('kind', { enum: ['friendly', 'second', 'final'] }).notNull(),
    status: text('status', { enum: ['scheduled', 'sent', 'skipped'] })
      .notNull()
      .default('scheduled'),
    /** The outbox email it was sent as (outbound_emails.id). */
    emailId: prefixedIdColumn('email_id'),
    skippedReason: text('skipped_reason', { enum: ['paid', 'cancelled', 'refunded', 'opted_out', 'no_email'] }),
    scheduledAt: ts('scheduled_at').notNull().default(sql`app_now()`),
    sentAt: ts('sent_at'),
    skippedAt: ts('skipped_at'),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.invoiceId], foreignColumns: [invoices.companyId, invoices.id] }).onDelete(
      'cascade',
    ),
    uniqueIndex('invoice_reminders_step').on(t.companyId, t.invoiceId, t.daysAfterDue),
    check('invoice_reminders_kind', sql`${t.kind} IN ('friendly', 'second', 'final')`),
    check('invoice_reminders_status', sql`${t.status} IN ('scheduled', 'sent', 'skipped')`),
    check('invoice_reminders_days', sql`${t.daysAfterDue} BETWEEN 1 AND 365`),
  ],
);
