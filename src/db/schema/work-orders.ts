// Work orders (werkbonnen) and their photos. As on quotes and invoices, the lines, the checklist and the
// customer copy are JSON on the work order row: a request replaces each list whole, never one point on its own.
// A photo's bytes are a `files` row; the photo row holds its kind, caption and place in the display order.
import { sql } from 'drizzle-orm';
import {
  bigint,
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
import { appointments } from './appointments.ts';
import { bytea, companyId, createdAt, metadata, ts, updatedAt, version } from './columns.ts';
import { customers, deals } from './crm.ts';
import { files } from './files.ts';
import { companies, users } from './platform.ts';
import { type DocumentCustomerCopy, type DocumentLine, invoices, quotes } from './sales.ts';

const amount = (name: string) => numeric(name, { precision: 18, scale: 2 });

/** A work order line: a document line with the minutes of work registered on it. */
export type WorkOrderLine = DocumentLine & { minutes: number | null };

/** One checklist point as the API shows it, without its `object`. */
export type ChecklistPoint = { id: string; label: string; checked: boolean; required: boolean; note: string | null };

export const WORK_ORDER_STATUSES = ['draft', 'planned', 'in_progress', 'completed', 'invoiced', 'cancelled'] as const;

export const workOrders = pgTable(
  'work_orders',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    number: text('number').notNull(),
    status: text('status', { enum: WORK_ORDER_STATUSES }).notNull().default('draft'),
    title: text('title'),
    type: text('type'),
    location: text('location'),
    description: text('description'),
    workPerformed: text('work_performed'),
    customerNotes: text('customer_notes'),
    customerId: uuid('customer_id').notNull(),
    customer: jsonb('customer').$type<DocumentCustomerCopy>().notNull(),
    dealId: uuid('deal_id'),
    appointmentId: uuid('appointment_id'),
    quoteId: uuid('quote_id'),
    invoiceId: uuid('invoice_id'),
    assignedUserId: bigint('assigned_user_id', { mode: 'number' }),
    language: text('language', { enum: ['nl', 'en', 'de', 'fr'] }).notNull(),
    currency: text('currency').notNull(),
    subtotal: amount('subtotal').notNull(),
    taxAmount: amount('tax_amount').notNull(),
    total: amount('total').notNull(),
    items: jsonb('items').$type<WorkOrderLine[]>().notNull(),
    checklist: jsonb('checklist').$type<ChecklistPoint[]>().notNull(),
    scheduledAt: ts('scheduled_at'),
    startedAt: ts('started_at'),
    completedAt: ts('completed_at'),
    sentAt: ts('sent_at'),
    signedByName: text('signed_by_name'),
    signedAt: ts('signed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    uniqueIndex('work_orders_number').on(t.companyId, t.number),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.dealId], foreignColumns: [deals.companyId, deals.id] }),
    foreignKey({ columns: [t.companyId, t.quoteId], foreignColumns: [quotes.companyId, quotes.id] }),
    foreignKey({ columns: [t.companyId, t.invoiceId], foreignColumns: [invoices.companyId, invoices.id] }),
    // Deleting the deal, quote, invoice or appointment leaves the work order without the link: the migration says
    // `ON DELETE SET NULL (<column>)` by hand (drizzle cannot name the column, and a plain SET NULL would clear
    // company_id too).
    foreignKey({ columns: [t.companyId, t.appointmentId], foreignColumns: [appointments.companyId, appointments.id] }),
    foreignKey({ columns: [t.companyId, t.assignedUserId], foreignColumns: [users.companyId, users.id] }),
    index('work_orders_created').on(t.companyId, t.createdAt, t.id),
    index('work_orders_updated').on(t.companyId, t.updatedAt, t.id),
    index('work_orders_customer').on(t.companyId, t.customerId),
    index('work_orders_appointment').on(t.companyId, t.appointmentId),
    index('work_orders_assigned_user').on(t.companyId, t.assignedUserId),
    check('work_orders_signature', sql`(${t.signedByName} is null) = (${t.signedAt} is null)`),
  ],
);

export const workOrderPhotos = pgTable(
  'work_order_photos',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    workOrderId: uuid('work_order_id').notNull(),
    fileId: uuid('file_id').notNull(),
    kind: text('kind', { enum: ['before', 'after', 'other'] }).notNull(),
    caption: text('caption'),
    /** Place in the display order: the next number on the work order when the photo is added. */
    position: integer('position').notNull(),
    createdAt: createdAt(),
    /** The print version (work_order_photo_print job): `pending` until made, `ready`, or `failed` with a problem. */
    printStatus: text('print_status', { enum: ['pending', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    /** The problem code of a `failed` print version (src/resources/work-orders/photo-print.ts). */
    printProblem: text('print_problem', { enum: ['too_many_pixels', 'too_slow', 'too_large', 'unreadable'] }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({
      columns: [t.companyId, t.workOrderId],
      foreignColumns: [workOrders.companyId, workOrders.id],
    }).onDelete('cascade'),
    foreignKey({ columns: [t.companyId, t.fileId], foreignColumns: [files.companyId, files.id] }),
    uniqueIndex('work_order_photos_position').on(t.companyId, t.workOrderId, t.position),
    index('work_order_photos_list').on(t.companyId, t.workOrderId, t.createdAt, t.id),
  ],
);

/** A photo's print version: reduced once, after its upload, to the JPEG every PDF of the work order embeds. */
export const workOrderPhotoPrints = pgTable(
  'work_order_photo_prints',
  {
    companyId: companyId(),
    photoId: uuid('photo_id').notNull(),
    image: bytea('image').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.photoId] }),
    foreignKey({
      columns: [t.companyId, t.photoId],
      foreignColumns: [workOrderPhotos.companyId, workOrderPhotos.id],
    }).onDelete('cascade'),
  ],
);
