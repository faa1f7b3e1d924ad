// Customers, notes, pipeline stages and task boards.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyId, createdAt, ts, updatedAt, version } from './columns.ts';
import { companies } from './platform.ts';

export const customers = pgTable(
  'customers',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    type: text('type', { enum: ['individual', 'business'] })
      .notNull()
      .default('individual'),
    status: text('status', { enum: ['lead', 'customer'] })
      .notNull()
      .default('lead'),
    name: text('name'),
    email: text('email').notNull(),
    phone: text('phone'),
    companyName: text('company_name'),
    vatNumber: text('vat_number'),
    cocNumber: text('coc_number'),
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
    uniqueIndex('customers_email').on(t.companyId, sql`lower(${t.email})`),
    index('customers_created').on(t.companyId, t.createdAt, t.id),
    index('customers_updated').on(t.companyId, t.updatedAt, t.id),
  ],
);

export const notes = pgTable(
  'notes',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
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

export const taskBoards = pgTable(
  'task_boards',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.id] })],
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
  ],
);
