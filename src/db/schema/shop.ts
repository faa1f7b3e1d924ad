// Webshop orders (with their lines and notes), reviews and review requests.
import { sql } from 'drizzle-orm';
import {
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
import { companyId, createdAt, metadata, ts, updatedAt, version } from './columns.ts';
import { customers } from './crm.ts';
import { companies } from './platform.ts';
import { invoices, quotes } from './sales.ts';

export type OrderAddressValue = {
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
};

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
  'refunded',
] as const;

const money = (name: string) => numeric(name, { precision: 12, scale: 2 });

export const orders = pgTable(
  'orders',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    number: text('number').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    customerId: uuid('customer_id').notNull(),
    // The buyer as entered with the order: a copy, later changes of the customer do not change it.
    buyerName: text('buyer_name'),
    buyerEmail: text('buyer_email').notNull(),
    buyerPhone: text('buyer_phone'),
    buyerCompanyName: text('buyer_company_name'),
    buyerVatNumber: text('buyer_vat_number'),
    billingAddress: jsonb('billing_address').$type<OrderAddressValue>().notNull(),
    shippingAddress: jsonb('shipping_address').$type<OrderAddressValue>().notNull(),
    formTitle: text('form_title'),
    language: text('language', { enum: ['nl', 'en', 'de', 'fr'] }).notNull(),
    currency: text('currency').notNull(),
    subtotal: money('subtotal').notNull(),
    discountAmount: money('discount_amount').notNull(),
    shippingCost: money('shipping_cost').notNull(),
    taxAmount: money('tax_amount').notNull(),
    total: money('total').notNull(),
    paymentMethod: text('payment_method'),
    trackingCode: text('tracking_code'),
    trackingUrl: text('tracking_url'),
    invoiceId: uuid('invoice_id'),
    quoteId: uuid('quote_id'),
    paidAt: ts('paid_at'),
    shippedAt: ts('shipped_at'),
    deliveredAt: ts('delivered_at'),
    cancelledAt: ts('cancelled_at'),
    refundedAt: ts('refunded_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    // Another company's invoice or quote cannot be referred to (migration 0035; `ON DELETE SET NULL (<column>)` is
    // written by hand there, as for work orders).
    foreignKey({ columns: [t.companyId, t.invoiceId], foreignColumns: [invoices.companyId, invoices.id] }),
    foreignKey({ columns: [t.companyId, t.quoteId], foreignColumns: [quotes.companyId, quotes.id] }),
    index('orders_invoice').on(t.companyId, t.invoiceId).where(sql`${t.invoiceId} is not null`),
    index('orders_quote').on(t.companyId, t.quoteId).where(sql`${t.quoteId} is not null`),
    // The import is idempotent per order number (cli orders import).
    uniqueIndex('orders_number').on(t.companyId, t.number),
    index('orders_created').on(t.companyId, t.createdAt, t.id),
    index('orders_updated').on(t.companyId, t.updatedAt, t.id),
    index('orders_customer').on(t.companyId, t.customerId),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    companyId: companyId().references(() => companies.id),
    orderId: uuid('order_id').notNull(),
    position: integer('position').notNull(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    quantity: money('quantity').notNull(),
    unit: text('unit'),
    unitPrice: money('unit_price').notNull(),
    discountPercentage: numeric('discount_percentage', { precision: 5, scale: 2 }).notNull(),
    discountAmount: money('discount_amount').notNull(),
    lineTotal: money('line_total').notNull(),
    isTaxable: boolean('is_taxable').notNull(),
    taxRate: numeric('tax_rate', { precision: 5, scale: 2 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.orderId, t.position] }),
    foreignKey({ columns: [t.companyId, t.orderId], foreignColumns: [orders.companyId, orders.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const orderNotes = pgTable(
  'order_notes',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    orderId: uuid('order_id').notNull(),
    type: text('type').notNull(),
    content: text('content').notNull(),
    isInternal: boolean('is_internal').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.orderId], foreignColumns: [orders.companyId, orders.id] }).onDelete(
      'cascade',
    ),
    index('order_notes_order').on(t.companyId, t.orderId, t.createdAt, t.id),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    status: text('status', { enum: ['published', 'hidden'] })
      .notNull()
      .default('published'),
    hiddenReason: text('hidden_reason'),
    source: text('source', { enum: ['request', 'manual', 'configurator', 'google'] }).notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    authorName: text('author_name').notNull(),
    authorCity: text('author_city'),
    customerId: uuid('customer_id'),
    language: text('language'),
    isVerified: boolean('is_verified').notNull().default(false),
    consentPublish: boolean('consent_publish').notNull().default(false),
    reply: text('reply'),
    repliedAt: ts('replied_at'),
    reviewedAt: ts('reviewed_at').notNull().default(sql`app_now()`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    index('reviews_reviewed').on(t.companyId, t.reviewedAt, t.id),
    index('reviews_created').on(t.companyId, t.createdAt, t.id),
    index('reviews_updated').on(t.companyId, t.updatedAt, t.id),
    check('reviews_rating', sql`${t.rating} between 1 and 5`),
    check('reviews_hidden_reason', sql`(${t.status} = 'hidden') = (${t.hiddenReason} is not null)`),
  ],
);

export const REVIEW_REQUEST_STATUSES = [
  'scheduled',
  'sent',
  'opened',
  'completed',
  'failed',
  'cancelled',
  'expired',
] as const;

export const reviewRequests = pgTable(
  'review_requests',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    status: text('status', { enum: REVIEW_REQUEST_STATUSES }).notNull(),
    channel: text('channel', { enum: ['email', 'whatsapp', 'link'] }).notNull(),
    trigger: text('trigger').notNull(),
    customerId: uuid('customer_id'),
    recipientName: text('recipient_name'),
    recipientEmail: text('recipient_email'),
    recipientPhone: text('recipient_phone'),
    language: text('language', { enum: ['nl', 'en', 'de', 'fr'] }).notNull(),
    /** The secret part of the review page's address (the page needs no key: whoever has the link may answer). */
    token: text('token').notNull(),
    /** WhatsApp's id (`wamid.…`) of the message that carried a `whatsapp` request, which its delivery statuses name. */
    whatsappMessageId: text('whatsapp_message_id'),
    reviewId: uuid('review_id'),
    scheduledAt: ts('scheduled_at'),
    sentAt: ts('sent_at'),
    openedAt: ts('opened_at'),
    completedAt: ts('completed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.reviewId], foreignColumns: [reviews.companyId, reviews.id] }),
    uniqueIndex('review_requests_token').on(t.companyId, t.token),
    index('review_requests_created').on(t.companyId, t.createdAt, t.id),
    index('review_requests_updated').on(t.companyId, t.updatedAt, t.id),
    index('review_requests_customer').on(t.companyId, t.customerId),
    index('review_requests_email').on(t.companyId, t.recipientEmail),
  ],
);

/** Addresses and numbers that opted out of review requests (the unsubscribe link), lowercased. */
export const reviewOptOuts = pgTable(
  'review_opt_outs',
  {
    companyId: companyId().references(() => companies.id),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.address] })],
);
