// SQL of appointments, appointment types, the appointment settings and working hours; every function takes the
// tenant transaction first.
import { and, eq, gt, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import {
  appointmentSettings,
  appointments,
  appointmentTypes,
  appointmentWorkingHours,
  companies,
} from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { type PageRequest, readPage, selectPage } from '../../http/pagination.ts';
import { atOrAfter, nextWholeMillisecond } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import { customerContact } from '../customers/queries.ts';
import type { AppointmentRow, AppointmentTypeRow } from './serialize.ts';

export type AppointmentFilters = {
  status?: AppointmentRow['status'];
  customerId?: string;
  userId?: number;
  startsFrom?: string;
  startsUntil?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

const SORTS = {
  created_at: appointments.createdAt,
  updated_at: appointments.updatedAt,
  starts_at: appointments.startsAt,
};

/** `column < until`, to the next whole millisecond (as atOrAfter). */
const before = (column: typeof appointments.startsAt, until: string): SQL =>
  sql`${column} < to_timestamp(${nextWholeMillisecond(until) / 1000}::double precision)`;

/** A page of appointments with their customers' contact details: one statement as the tenant in one round trip. */
export async function listAppointments(tenant: Tenant, page: PageRequest, filters: AppointmentFilters) {
  const conditions: (SQL | undefined)[] = [eq(appointments.companyId, tenant.companyId)];
  // A start sort or window leaves invitations (no start) out: they have no place on a time line.
  if (page.sort.endsWith('starts_at') || filters.startsFrom || filters.startsUntil)
    conditions.push(isNotNull(appointments.startsAt));
  if (filters.status) conditions.push(eq(appointments.status, filters.status));
  if (filters.customerId) conditions.push(eq(appointments.customerId, filters.customerId));
  if (filters.userId !== undefined) conditions.push(eq(appointments.userId, filters.userId));
  if (filters.startsFrom) conditions.push(atOrAfter(appointments.startsAt, filters.startsFrom));
  if (filters.startsUntil) conditions.push(before(appointments.startsAt, filters.startsUntil));
  if (filters.updatedSince) conditions.push(atOrAfter(appointments.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, appointments, filters.metadata));
  return readPage(tenant, appointments, page, { sorts: SORTS, id: appointments.id }, conditions, {
    contact: customerContact(appointments),
  });
}

/** The appointment with its customer's contact details: one statement as the tenant in one round trip. */
export const readAppointment = recordReader(appointments, byRecordKey(appointments), {
  contact: customerContact(appointments),
});

export async function findAppointment(tx: Tx, companyId: string, id: string): Promise<AppointmentRow | undefined> {
  const [row] = await tx
    .select()
    .from(appointments)
    .where(and(eq(appointments.companyId, companyId), eq(appointments.id, id)));
  return row;
}

/** The appointment locked until the transaction ends, so concurrent changes queue (see deals/queries.ts). */
export function lockAppointment(tx: Tx, companyId: string, id: string): Promise<AppointmentRow | undefined> {
  return lockRecord(tx, appointments, companyId, id);
}

/** Columns of a new appointment; a value may be SQL, such as app_now() for confirmed_at. */
export type NewAppointment = Omit<typeof appointments.$inferInsert, 'companyId' | 'id' | 'version' | 'confirmedAt'> & {
  confirmedAt: Date | SQL | null;
};
export type AppointmentChanges = Omit<
  PgUpdateSetSource<typeof appointments>,
  'companyId' | 'id' | 'version' | 'updatedAt'
>;

export async function insertAppointment(tx: Tx, companyId: string, fields: NewAppointment): Promise<AppointmentRow> {
  const [row] = await tx
    .insert(appointments)
    .values({ ...fields, companyId, id: newId() })
    .returning();
  return row;
}

/** Updates when the version still matches; undefined when it did not. */
export async function updateAppointment(tx: Tx, current: AppointmentRow, fields: AppointmentChanges) {
  const [row] = await tx
    .update(appointments)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${appointments.version} + 1` })
    .where(
      and(
        eq(appointments.companyId, current.companyId),
        eq(appointments.id, current.id),
        eq(appointments.version, current.version),
      ),
    )
    .returning();
  return row;
}

export async function deleteAppointment(tx: Tx, current: AppointmentRow): Promise<void> {
  await tx
    .delete(appointments)
    .where(and(eq(appointments.companyId, current.companyId), eq(appointments.id, current.id)));
}

export async function listAppointmentTypes(tx: Tx, companyId: string, page: PageRequest, isActive?: boolean) {
  const conditions: (SQL | undefined)[] = [eq(appointmentTypes.companyId, companyId)];
  if (isActive !== undefined) conditions.push(eq(appointmentTypes.isActive, isActive));
  return selectPage(
    tx,
    appointmentTypes,
    page,
    { sorts: { name: appointmentTypes.name, created_at: appointmentTypes.createdAt }, id: appointmentTypes.id },
    conditions,
  );
}

export async function findAppointmentType(
  tx: Tx,
  companyId: string,
  id: string,
  opts: { activeOnly: boolean },
): Promise<AppointmentTypeRow | undefined> {
  const [row] = await tx
    .select()
    .from(appointmentTypes)
    .where(
      and(
        eq(appointmentTypes.companyId, companyId),
        eq(appointmentTypes.id, id),
        opts.activeOnly ? eq(appointmentTypes.isActive, true) : undefined,
      ),
    );
  return row;
}

/** The appointment settings in force: the company's row, else the defaults; with the company's time zone. */
export async function appointmentSettingsOf(tx: Tx, companyId: string) {
  const [row] = await tx
    .select({
      timeZone: companies.timeZone,
      defaultDurationMinutes: sql<number>`coalesce(${appointmentSettings.defaultDurationMinutes}, 60)`,
      slotIntervalMinutes: sql<number>`coalesce(${appointmentSettings.slotIntervalMinutes}, 30)`,
      bufferMinutes: sql<number>`coalesce(${appointmentSettings.bufferMinutes}, 0)`,
      minimumNoticeMinutes: sql<number>`coalesce(${appointmentSettings.minimumNoticeMinutes}, 0)`,
    })
    .from(companies)
    .leftJoin(appointmentSettings, eq(appointmentSettings.companyId, companies.id))
    .where(eq(companies.id, companyId));
  return {
    timeZone: row?.timeZone ?? 'Europe/Amsterdam',
    defaultDurationMinutes: Number(row?.defaultDurationMinutes ?? 60),
    slotIntervalMinutes: Number(row?.slotIntervalMinutes ?? 30),
    bufferMinutes: Number(row?.bufferMinutes ?? 0),
    minimumNoticeMinutes: Number(row?.minimumNoticeMinutes ?? 0),
  };
}

export async function workingHoursOf(tx: Tx, companyId: string) {
  return tx
    .select({
      userId: appointmentWorkingHours.userId,
      weekday: appointmentWorkingHours.weekday,
      startMinute: appointmentWorkingHours.startMinute,
      endMinute: appointmentWorkingHours.endMinute,
    })
    .from(appointmentWorkingHours)
    .where(eq(appointmentWorkingHours.companyId, companyId));
}

/**
 * The pending and confirmed appointments that overlap [from, until) (the caller widens it by the buffer), of
 * every user: they occupy time, cancelled and completed ones do not.
 */
export async function occupyingAppointments(tx: Tx, companyId: string, from: Date, until: Date) {
  return tx
    .select({ userId: appointments.userId, startsAt: appointments.startsAt, endsAt: appointments.endsAt })
    .from(appointments)
    .where(
      and(
        eq(appointments.companyId, companyId),
        inArray(appointments.status, ['pending', 'confirmed']),
        isNotNull(appointments.startsAt),
        lt(appointments.startsAt, until),
        gt(appointments.endsAt, from),
      ),
    );
}
