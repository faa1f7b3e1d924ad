// Webhook endpoints, one delivery per (event, endpoint), every attempt of a delivery, and the email outbox
// (src/mail/): emails with their attachments, and the outgoing-message counts of the anti-abuse limits.
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bytea, companyId, createdAt, metadata, prefixedIdColumn, ts, updatedAt, version } from './columns.ts';
import { companies } from './platform.ts';

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    companyId: companyId().references(() => companies.id),
    id: prefixedIdColumn('id').notNull(),
    metadata: metadata(),
    url: text('url').notNull(),
    description: text('description'),
    /** Event types, or ['*'] for every type the creator may read, including future ones. */
    events: text('events').array().notNull(),
    /** The read scopes of the key that created the endpoint: it never receives more than its creator may see. */
    scopes: text('scopes').array().notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    disabledReason: text('disabled_reason'),
    disabledAt: ts('disabled_at'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    /** Start of the current run of failures; reset by a success or by re-enabling. */
    failingSince: ts('failing_since'),
    lastSuccessAt: ts('last_success_at'),
    lastFailureAt: ts('last_failure_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('webhook_endpoints_created').on(t.companyId, t.createdAt, t.id),
  ],
);

// The delivery log (deliveries and their attempts) is written by the worker for every message sent: its rows
// carry no foreign key to companies (a key-share lock on the company row per inserted row, ~30% of the
// fan-out's write in the webhooks bench); the tenancy policy's check already ties each row to the company of
// the transaction, whose event has that key. The 30-day purge reads them by a BRIN index on created_at
// (rows arrive in time order), which costs next to nothing per insert, unlike a B-tree.
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    companyId: companyId(),
    id: prefixedIdColumn('id').notNull(),
    endpointId: prefixedIdColumn('endpoint_id').notNull(),
    eventId: prefixedIdColumn('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastAttemptAt: ts('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('webhook_deliveries_event_endpoint').on(t.companyId, t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint').on(t.companyId, t.endpointId, t.createdAt, t.id),
    index('webhook_deliveries_retention').using('brin', t.createdAt),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    companyId: companyId(),
    id: prefixedIdColumn('id').notNull(),
    deliveryId: prefixedIdColumn('delivery_id').notNull(),
    endpointId: prefixedIdColumn('endpoint_id').notNull(),
    eventId: prefixedIdColumn('event_id').notNull(),
    attemptNumber: integer('attempt_number').notNull(),
    trigger: text('trigger', { enum: ['scheduled', 'manual_resend', 'recovery'] }).notNull(),
    url: text('url').notNull(),
    status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('webhook_attempts_delivery').on(t.companyId, t.deliveryId, t.createdAt, t.id),
    index('webhook_attempts_retention').using('brin', t.createdAt),
  ],
);

export const outboundEmails = pgTable(
  'outbound_emails',
  {
    companyId: companyId().references(() => companies.id),
    id: prefixedIdColumn('id').notNull(),
    to: text('to').array().notNull(),
    subject: text('subject').notNull(),
    /** The plain-text body (every email has one); `html` is the optional alternative. */
    body: text('body').notNull(),
    html: text('html'),
    /** Reply-To; null: the company's own address. */
    replyTo: text('reply_to'),
    /** Extra headers, e.g. In-Reply-To and References that keep a customer's thread. */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** What caused it (e.g. webhook_endpoint_disabled), for operators and tests. */
    kind: text('kind').notNull(),
    /**
     * queued: waiting for the email_send job; sent: the SMTP server accepted it; recorded: no SMTP_URL, so it was
     * kept here instead of sent; failed: the SMTP server refused it for good (`error` says why).
     */
    status: text('status', { enum: ['queued', 'sent', 'recorded', 'failed', 'withheld'] })
      .notNull()
      .default('queued'),
    /** The RFC 5322 Message-ID it was sent with: `<{id}@{domain of MAIL_FROM}>`. */
    messageId: text('message_id'),
    sentAt: ts('sent_at'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
);

/** Files sent with an email (a quote's PDF, say), kept with it until it is sent. */
export const outboundEmailAttachments = pgTable(
  'outbound_email_attachments',
  {
    companyId: companyId().references(() => companies.id),
    emailId: prefixedIdColumn('email_id').notNull(),
    position: integer('position').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.emailId, t.position] }),
    foreignKey({
      columns: [t.companyId, t.emailId],
      foreignColumns: [outboundEmails.companyId, outboundEmails.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Outgoing messages counted per company and scope in fixed clock hours (the anti-abuse limits: 250 per company,
 * 20 per conversation), in PostgreSQL so that every API node agrees.
 */
export const outgoingMessageCounts = pgTable(
  'outgoing_message_counts',
  {
    companyId: companyId().references(() => companies.id),
    /** `company`, or what else is limited, e.g. `conversation:{id}`. */
    scope: text('scope').notNull(),
    hourStart: ts('hour_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.scope, t.hourStart] })],
);
