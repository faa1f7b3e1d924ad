// Appointments, their types, and the company's appointment settings and working hours (set up in the web
// application; the API reads them for free slots and default durations).
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
  smallint,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyId, createdAt, metadata, ts, updatedAt, version } from './columns.ts';
import { customers, deals } from './crm.ts';
import { companies, users } from './platform.ts';

/** One row per company at most; without one the defaults below apply. */
export const appointmentSettings = pgTable(
  'appointment_settings',
  {
    companyId: companyId().references(() => companies.id),
    defaultDurationMinutes: integer('default_duration_minutes').notNull().default(60),
    slotIntervalMinutes: integer('slot_interval_minutes').notNull().default(30),
    /** Kept free before and after every pending or confirmed appointment. */
    bufferMinutes: integer('buffer_minutes').notNull().default(0),
    /** A free slot starts at least this long after the moment of asking. */
    minimumNoticeMinutes: integer('minimum_notice_minutes').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId] }),
    check('appointment_settings_duration', sql`${t.defaultDurationMinutes} between 1 and 10080`),
    check('appointment_settings_interval', sql`${t.slotIntervalMinutes} between 5 and 1440`),
    check('appointment_settings_buffer', sql`${t.bufferMinutes} between 0 and 1440`),
    check('appointment_settings_notice', sql`${t.minimumNoticeMinutes} between 0 and 525600`),
  ],
);

/**
 * Working hours on a weekday (ISO: 1 Monday … 7 Sunday), as minutes after local midnight in the company's time
 * zone. Rows with a user are that user's hours (the users with rows are the ones who take appointments); rows
 * without one are the company's when it plans without users.
 */
export const appointmentWorkingHours = pgTable(
  'appointment_working_hours',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    weekday: smallint('weekday').notNull(),
    startMinute: integer('start_minute').notNull(),
    endMinute: integer('end_minute').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete('cascade'),
    index('appointment_working_hours_user').on(t.companyId, t.userId),
    check('appointment_working_hours_weekday', sql`${t.weekday} between 1 and 7`),
    check(
      'appointment_working_hours_range',
      sql`0 <= ${t.startMinute} and ${t.startMinute} < ${t.endMinute} and ${t.endMinute} <= 1440`,
    ),
  ],
);

export const appointmentTypes = pgTable(
  'appointment_types',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    durationMinutes: integer('duration_minutes').notNull(),
    color: text('color'),
    location: text('location'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('appointment_types_name').on(t.companyId, t.name, t.id),
    index('appointment_types_created').on(t.companyId, t.createdAt, t.id),
    check('appointment_types_duration', sql`${t.durationMinutes} between 1 and 10080`),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status', { enum: ['pending', 'confirmed', 'cancelled', 'completed'] }).notNull(),
    /** Both null for an invitation (the customer still picks a time). */
    startsAt: ts('starts_at'),
    endsAt: ts('ends_at'),
    allDay: boolean('all_day').notNull().default(false),
    location: text('location'),
    customerId: uuid('customer_id').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    appointmentTypeId: uuid('appointment_type_id'),
    dealId: uuid('deal_id'),
    // The quotes and invoices tables arrive with their resources; set by the web application.
    quoteId: uuid('quote_id'),
    invoiceId: uuid('invoice_id'),
    notes: text('notes'),
    cancellationReason: text('cancellation_reason'),
    /** The language of the last message sent to the customer about it: later ones default to it. */
    messageLanguage: text('message_language', { enum: ['nl', 'en', 'de', 'fr'] }),
    confirmedAt: ts('confirmed_at'),
    cancelledAt: ts('cancelled_at'),
    rescheduledAt: ts('rescheduled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.customerId], foreignColumns: [customers.companyId, customers.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }),
    foreignKey({
      columns: [t.companyId, t.appointmentTypeId],
      foreignColumns: [appointmentTypes.companyId, appointmentTypes.id],
    }),
    foreignKey({ columns: [t.companyId, t.dealId], foreignColumns: [deals.companyId, deals.id] }),
    index('appointments_created').on(t.companyId, t.createdAt, t.id),
    index('appointments_updated').on(t.companyId, t.updatedAt, t.id),
    index('appointments_starts').on(t.companyId, t.startsAt, t.id),
    index('appointments_customer').on(t.companyId, t.customerId),
    // Free slots read the time a user's pending and confirmed appointments occupy.
    index('appointments_occupying')
      .on(t.companyId, t.userId, t.startsAt)
      .where(sql`${t.status} in ('pending', 'confirmed') and ${t.startsAt} is not null`),
    check('appointments_times', sql`(${t.startsAt} is null) = (${t.endsAt} is null) and ${t.endsAt} > ${t.startsAt}`),
    check(
      'appointments_invitation',
      sql`${t.startsAt} is not null or (${t.status} in ('pending', 'cancelled') and not ${t.allDay})`,
    ),
    check('appointments_confirmed_at', sql`${t.status} <> 'confirmed' or ${t.confirmedAt} is not null`),
    check('appointments_message_language', sql`${t.messageLanguage} in ('nl', 'en', 'de', 'fr')`),
    check('appointments_cancelled_at', sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null)`),
  ],
);
