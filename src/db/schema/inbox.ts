// The inbox: conversations with one customer over one channel (web chat, WhatsApp, email), their messages, and
// each company's channel settings (widget id, inbound email secret, WhatsApp Cloud API account).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyId, createdAt, metadata, ts, updatedAt, version } from './columns.ts';
import { customers } from './crm.ts';
import { companies, users } from './platform.ts';

export const CONVERSATION_STATUSES = ['open', 'waiting_on_customer', 'waiting_on_team', 'snoozed', 'closed'] as const;
export const CHANNELS = ['web', 'whatsapp', 'email'] as const;
export const MESSAGE_SENDERS = ['customer', 'user', 'api', 'system', 'ai_agent'] as const;
export const WHATSAPP_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

export const conversations = pgTable(
  'conversations',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    customerId: uuid('customer_id').notNull(),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    status: text('status', { enum: CONVERSATION_STATUSES }).notNull().default('open'),
    priority: text('priority', { enum: ['low', 'normal', 'high', 'urgent'] })
      .notNull()
      .default('normal'),
    subject: text('subject'),
    summary: text('summary'),
    pageUrl: text('page_url'),
    /** The address a chat visitor typed, unverified: shown, never matched against customers. */
    visitorEmail: text('visitor_email'),
    assignedUserId: bigint('assigned_user_id', { mode: 'number' }),
    // Linked in the web application; their tables belong to other resources, so no foreign key here.
    quoteId: uuid('quote_id'),
    invoiceId: uuid('invoice_id'),
    appointmentId: uuid('appointment_id'),
    /** Whether the company's AI agent answers in this conversation; a message sent through the API stops it. */
    aiAgentActive: boolean('ai_agent_active').notNull().default(true),
    messageCount: integer('message_count').notNull().default(0),
    lastMessageAt: ts('last_message_at'),
    /**
     * The sort key of `last_message_at`: conversations without messages sort as the oldest (last with
     * `-last_message_at`, first with `last_message_at`), and a keyset cursor needs a value that is never null.
     */
    lastMessageSort: ts('last_message_sort')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(last_message_at, '0001-01-01T00:00:00Z'::timestamptz)`),
    /** The customer's latest message: WhatsApp's 24-hour customer-service window opens with it. */
    lastCustomerMessageAt: ts('last_customer_message_at'),
    closedAt: ts('closed_at'),
    /** Where the channel reaches the customer: the WhatsApp id (digits of the number) or the email address. */
    contactAddress: text('contact_address'),
    /** Web chat: SHA-256 (hex) of the visitor token that reads and writes this conversation from the widget. */
    visitorTokenHash: text('visitor_token_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.assignedUserId], foreignColumns: [users.companyId, users.id] }),
    index('conversations_last_message').on(t.companyId, t.lastMessageSort, t.id),
    index('conversations_created').on(t.companyId, t.createdAt, t.id),
    index('conversations_updated').on(t.companyId, t.updatedAt, t.id),
    index('conversations_customer').on(t.companyId, t.customerId, t.createdAt, t.id),
    index('conversations_contact').on(t.companyId, t.channel, t.contactAddress),
    uniqueIndex('conversations_visitor').on(t.companyId, t.visitorTokenHash),
    check('conversations_closed_at', sql`(${t.status} = 'closed') = (${t.closedAt} is not null)`),
  ],
);

export const conversationMessages = pgTable(
  'conversation_messages',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
    sender: text('sender', { enum: MESSAGE_SENDERS }).notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    body: text('body').notNull(),
    emailSubject: text('email_subject'),
    attachmentName: text('attachment_name'),
    attachmentMimeType: text('attachment_mime_type'),
    attachmentSize: integer('attachment_size'),
    whatsappStatus: text('whatsapp_status', { enum: WHATSAPP_STATUSES }),
    /** WhatsApp's id of the message (`wamid.…`), which its delivery statuses name. */
    whatsappMessageId: text('whatsapp_message_id'),
    /** The RFC 5322 Message-ID of an email message (incoming: as received; outgoing: the outbox's). */
    emailMessageId: text('email_message_id'),
    /** The outbox email that carries an outgoing email message. */
    outboundEmailId: text('outbound_email_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({
      columns: [t.companyId, t.conversationId],
      foreignColumns: [conversations.companyId, conversations.id],
    }).onDelete('cascade'),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }),
    index('conversation_messages_conversation').on(t.companyId, t.conversationId, t.createdAt, t.id),
    uniqueIndex('conversation_messages_whatsapp').on(t.companyId, t.whatsappMessageId),
    index('conversation_messages_email').on(t.companyId, t.emailMessageId),
  ],
);

/**
 * Each company's channel settings. Read before a tenant is known (a webhook names a WhatsApp number, a visitor a
 * widget id, an inbound mail relay a secret), so row-level security is enabled but not forced, like companies.
 * Secrets that authenticate requests to us are kept as SHA-256; the WhatsApp access token and app secret are
 * kept as given, because we must present or recompute them.
 */
export const channelSettings = pgTable(
  'channel_settings',
  {
    companyId: companyId()
      .primaryKey()
      .references(() => companies.id),
    /** Public: the chat widget of the company's website names it (`wid_…`). */
    widgetId: text('widget_id').notNull(),
    /** SHA-256 (hex) of the secret an inbound mail relay presents (`ibs_…`). */
    inboundEmailSecretHash: text('inbound_email_secret_hash'),
    /** WhatsApp Business Cloud API: the phone-number id messages are sent from and webhooks name. */
    whatsappPhoneNumberId: text('whatsapp_phone_number_id'),
    /** Base of the Graph API (default https://graph.facebook.com/v21.0); tests point it at a local fake. */
    whatsappApiBaseUrl: text('whatsapp_api_base_url'),
    whatsappAccessToken: text('whatsapp_access_token'),
    /** The Meta app secret: X-Hub-Signature-256 of the webhook is an HMAC with it. */
    whatsappAppSecret: text('whatsapp_app_secret'),
    /** What the webhook's GET handshake must present as hub.verify_token. */
    whatsappVerifyToken: text('whatsapp_verify_token'),
    /**
     * The approved WhatsApp message template of review requests (a business-initiated message needs one outside
     * the 24-hour window): its name, and the language codes it is approved in (empty: the request's language).
     */
    whatsappReviewTemplate: text('whatsapp_review_template'),
    whatsappReviewTemplateLanguages: text('whatsapp_review_template_languages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('channel_settings_widget').on(t.widgetId),
    uniqueIndex('channel_settings_inbound_secret').on(t.inboundEmailSecretHash),
    uniqueIndex('channel_settings_whatsapp').on(t.whatsappPhoneNumberId),
  ],
);
