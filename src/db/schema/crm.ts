// Customers, notes, pipeline stages, deals and task boards.
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
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyId, createdAt, customFieldValues, metadata, ts, updatedAt, version } from './columns.ts';
import { companies, users } from './platform.ts';

export const customers = pgTable(
  'customers',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    customFields: customFieldValues(),
    type: text('type', { enum: ['individual', 'business'] })
      .notNull()
      .default('individual'),
    status: text('status', { enum: ['lead', 'customer'] })
      .notNull()
      .default('lead'),
    name: text('name'),
    email: text('email').notNull(),
    // Compared case-insensitively. A stored column, because row-level security keeps a non-leakproof
    // function such as lower() on a column out of index conditions: `lower(email) = $1` would scan the table.
    emailLower: text('email_lower').notNull().generatedAlwaysAs(sql`lower(email)`),
    phone: text('phone'),
    companyName: text('company_name'),
    // What `q` searches (drizzle/0023): name, email, company name and phone lowercased the same way on every
    // server (ICU's root locale, as JavaScript's toLowerCase), one line each so that no match spans two fields;
    // and the phone's digits alone. Stored, so that neither a scan nor the index recheck lowercases a row again.
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(((coalesce(name, '') || E'\\n' || email || E'\\n' || coalesce(company_name, '') || E'\\n' || coalesce(phone, '')) COLLATE "und-x-icu"))`,
      ),
    phoneDigits: text('phone_digits')
      .notNull()
      .generatedAlwaysAs(sql`regexp_replace(coalesce(phone, ''), '[^0-9]+', '', 'g')`),
    // The phone in E.164, read with the company's country as the default (src/domain/phone.ts); null when the
    // phone is empty or not a possible number. What inbound WhatsApp senders are matched on.
    phoneE164: text('phone_e164'),
    vatNumber: text('vat_number'),
    cocNumber: text('coc_number'),
    /** Its address on the Peppol network, `scheme:identifier` (drizzle/0035). */
    peppolId: text('peppol_id'),
    address: text('address'),
    postalCode: text('postal_code'),
    city: text('city'),
    country: text('country'),
    emailUnsubscribed: boolean('email_unsubscribed').notNull().default(false),
    convertedAt: ts('converted_at'),
    lastActivityAt: ts('last_activity_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('customers_email').on(t.companyId, t.emailLower),
    index('customers_created').on(t.companyId, t.createdAt, t.id),
    index('customers_updated').on(t.companyId, t.updatedAt, t.id),
    check('customers_peppol_id', sql`${t.peppolId} ~ '^[0-9]{4}:[^[:space:]:]{1,125}$'`),
    index('customers_phone_e164').on(t.companyId, t.phoneE164).where(sql`phone_e164 is not null`),
  ],
);

export const notes = pgTable(
  'notes',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    parentType: text('parent_type', { enum: ['customer', 'deal'] }).notNull(),
    customerId: uuid('customer_id'),
    dealId: uuid('deal_id'),
    content: text('content').notNull(),
    isImportant: boolean('is_important').notNull().default(false),
    authorUserId: bigint('author_user_id', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ columns: [t.companyId, t.dealId], foreignColumns: [deals.companyId, deals.id] }).onDelete('cascade'),
    index('notes_customer').on(t.companyId, t.customerId, t.createdAt, t.id),
    index('notes_deal').on(t.companyId, t.dealId, t.createdAt, t.id),
  ],
);

export const pipelineStages = pgTable(
  'pipeline_stages',
  {
    companyId: companyId().references(() => companies.id),
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    nameNl: text('name_nl'),
    nameEn: text('name_en'),
    nameDe: text('name_de'),
    nameFr: text('name_fr'),
    type: text('type', { enum: ['open', 'won', 'lost'] })
      .notNull()
      .default('open'),
    isDefault: boolean('is_default').notNull().default(false),
    position: integer('position').notNull(),
    probability: numeric('probability', { precision: 5, scale: 2 }).notNull().default('0.00'),
    color: text('color'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] }), index('pipeline_stages_position').on(t.companyId, t.position)],
);

export const deals = pgTable(
  'deals',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    customFields: customFieldValues(),
    title: text('title'),
    description: text('description'),
    /** Follows the type of the stage the deal is in. */
    status: text('status', { enum: ['open', 'won', 'lost'] })
      .notNull()
      .default('open'),
    /** The manual amount, or the amount last calculated from the deal's quotes (value_source). */
    value: numeric('value', { precision: 12, scale: 2 }),
    currency: text('currency').notNull(),
    valueSource: text('value_source', { enum: ['manual', 'quotes'] })
      .notNull()
      .default('quotes'),
    stageId: bigint('stage_id', { mode: 'number' }).notNull(),
    customerId: uuid('customer_id').notNull(),
    assignedUserId: bigint('assigned_user_id', { mode: 'number' }),
    source: text('source', { enum: ['api', 'web', 'form', 'import', 'automation'] }).notNull(),
    lostReason: text('lost_reason'),
    /** The deal's reference in another system (collation C: compared byte by byte; drizzle/0039). */
    externalRef: text('external_ref'),
    isArchived: boolean('is_archived').notNull().default(false),
    stageChangedAt: ts('stage_changed_at').notNull().default(sql`app_now()`),
    wonAt: ts('won_at'),
    lostAt: ts('lost_at'),
    archivedAt: ts('archived_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.stageId], foreignColumns: [pipelineStages.companyId, pipelineStages.id] }),
    foreignKey({ columns: [t.companyId, t.assignedUserId], foreignColumns: [users.companyId, users.id] }),
    // A customer has at most one open deal, archived or not (an archived open deal is still open: migration
    // 0021); concurrent creations cannot both pass this.
    uniqueIndex('deals_one_open_per_customer')
      .on(t.companyId, t.customerId)
      .where(sql`${t.status} = 'open'`),
    uniqueIndex('deals_external_ref').on(t.companyId, t.externalRef).where(sql`${t.externalRef} is not null`),
    index('deals_customer').on(t.companyId, t.customerId, t.createdAt, t.id),
    index('deals_stage').on(t.companyId, t.stageId),
    index('deals_created').on(t.companyId, t.createdAt, t.id),
    index('deals_updated').on(t.companyId, t.updatedAt, t.id),
    index('deals_stage_changed').on(t.companyId, t.stageChangedAt, t.id),
    check('deals_value_range', sql`${t.value} between 0 and 99999999`),
    check('deals_won_at', sql`(${t.status} = 'won') = (${t.wonAt} is not null)`),
    check('deals_lost_at', sql`(${t.status} = 'lost') = (${t.lostAt} is not null)`),
    check('deals_lost_reason', sql`${t.status} = 'lost' or ${t.lostReason} is null`),
    check('deals_external_ref_length', sql`char_length(${t.externalRef}) between 1 and 255`),
    check('deals_archived_at', sql`${t.isArchived} = (${t.archivedAt} is not null)`),
  ],
);

export const taskBoards = pgTable(
  'task_boards',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    position: integer('position').notNull().default(0),
    /** The order of GET /task-boards: the default board first, then by position (a keyset needs one column). */
    listOrder: integer('list_order').notNull().generatedAlwaysAs(sql`case when is_default then -1 else position end`),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('task_boards_list_order').on(t.companyId, t.listOrder, t.id),
    // Exactly one default board: concurrent first reads of GET /task-boards cannot both create one.
    uniqueIndex('task_boards_one_default')
      .on(t.companyId)
      .where(sql`${t.isDefault}`),
  ],
);

export const taskStatuses = pgTable(
  'task_statuses',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    boardId: uuid('board_id').notNull(),
    name: text('name').notNull(),
    category: text('category', { enum: ['open', 'in_progress', 'completed', 'cancelled'] }).notNull(),
    color: text('color'),
    position: integer('position').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.boardId], foreignColumns: [taskBoards.companyId, taskBoards.id] }).onDelete(
      'cascade',
    ),
    // What a task's (board, column) pair refers to, so a task's board is always its column's board.
    uniqueIndex('task_statuses_board_id').on(t.companyId, t.boardId, t.id),
    // One default column per category and board: where complete, reopen and cancel put a task.
    uniqueIndex('task_statuses_one_default')
      .on(t.companyId, t.boardId, t.category)
      .where(sql`${t.isDefault}`),
  ],
);

export const CUSTOM_FIELD_TYPES = [
  'text',
  'long_text',
  'number',
  'money',
  'date',
  'boolean',
  'single_select',
  'multi_select',
  'url',
  'email',
  'phone',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
/** A label per language; a language without one is left out. */
export type CustomFieldLabels = { nl?: string; en?: string; de?: string; fr?: string };
export type CustomFieldOption = { key: string; labels: CustomFieldLabels };

/**
 * The company's own typed fields on customers and deals (drizzle/0047_custom_fields.sql); their values are in the
 * records' `custom_fields`, keyed by `key`, checked against these definitions (src/domain/custom-fields.ts).
 */
export const customFields = pgTable(
  'custom_fields',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    resource: text('resource', { enum: ['customers', 'deals'] }).notNull(),
    key: text('key').notNull(),
    type: text('type', { enum: CUSTOM_FIELD_TYPES }).notNull(),
    labels: jsonb('labels').$type<CustomFieldLabels>().notNull(),
    decimals: smallint('decimals'),
    options: jsonb('options').$type<CustomFieldOption[]>(),
    required: boolean('required').notNull().default(false),
    position: integer('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('custom_fields_resource_key').on(t.companyId, t.resource, t.key),
    index('custom_fields_position').on(t.companyId, t.resource, t.position, t.createdAt, t.id),
    index('custom_fields_created').on(t.companyId, t.createdAt, t.id),
  ],
);
