// Request bodies of appointments → columns: references (customer, active type, active user: 422
// invalid_reference), the rules of invitations (no start: pending, no end, not all-day), and the times (an end
// from the type's or the settings' duration; all-day on the company's days). Every invalid input is reported at
// once.
import { sql } from 'drizzle-orm';
import { inOrder, type Tx } from '../../db/tenant.ts';
import { appointmentTimes, localDaysBetween } from '../../domain/appointment-times.ts';
import type { Message } from '../../http/message-catalogue.ts';
import { changedMetadata, type MetadataInput, newMetadata } from '../../http/metadata.ts';
import type { FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { companyMessages } from '../company/messages.ts';
import { customerMessages } from '../customers/messages.ts';
import { findCustomer } from '../customers/queries.ts';
import { isActiveUser } from '../deals/queries.ts';
import { appointmentMessages } from './messages.ts';
import * as q from './queries.ts';
import type { AppointmentRow, AppointmentTypeRow } from './serialize.ts';

export type Settings = Awaited<ReturnType<typeof q.appointmentSettingsOf>>;

type CreateBody = {
  customer_id: string;
  starts_at: string | null;
  ends_at?: string | null;
  title?: string | null;
  description?: string | null;
  location?: string | null;
  all_day: boolean;
  appointment_type_id?: string | null;
  user_id?: string | null;
  status: 'pending' | 'confirmed';
  notes?: string | null;
  metadata?: MetadataInput;
};

type UpdateBody = {
  title?: string;
  description?: string | null;
  location?: string | null;
  starts_at?: string;
  ends_at?: string | null;
  all_day?: boolean;
  appointment_type_id?: string | null;
  user_id?: string | null;
  notes?: string | null;
  metadata?: MetadataInput;
};

/** Collects invalid inputs; `done` throws them as one 422. */
class Problems {
  readonly errors: FieldError[] = [];
  add(pointer: string, code: string, detail: Message) {
    this.errors.push({ pointer, parameter: null, code, detail });
  }
  typeUnknown() {
    this.add(
      '/appointment_type_id',
      'invalid_reference',
      appointmentMessages.message('appointment.type_unknown_reference'),
    );
  }
  userUnknown() {
    this.add('/user_id', 'invalid_reference', companyMessages.message('user.unknown_reference'));
  }
  /** The active type, or a recorded error. */
  async type(tx: Tx, companyId: string, id: string): Promise<AppointmentTypeRow | undefined> {
    const type = await q.findAppointmentType(tx, companyId, id, { activeOnly: true });
    if (!type) this.typeUnknown();
    return type;
  }
  /** The id of an active user, or a recorded error. */
  async user(tx: Tx, companyId: string, id: string): Promise<number | undefined> {
    const n = Number(id);
    if (Number.isSafeInteger(n) && (await isActiveUser(tx, companyId, n))) return n;
    this.userUnknown();
    return undefined;
  }
  endAfterStart(start: Date, end: Date | null) {
    if (end !== null && end <= start)
      this.add('/ends_at', 'too_small', appointmentMessages.message('appointment.end_before_start'));
  }
  done() {
    if (this.errors.length > 0) throw invalidFields(this.errors);
  }
}

/** The columns of a new appointment. `statusSent`: whether the body named a status (its default is `confirmed`). */
export async function newAppointmentColumns(
  tx: Tx,
  companyId: string,
  body: CreateBody,
  statusSent: boolean,
): Promise<q.NewAppointment> {
  const problems = new Problems();
  // The settings and the references are read in one round trip; the problems are listed in this order.
  const { appointment_type_id: typeId, user_id: user } = body;
  const userNumber = user ? Number(user) : Number.NaN;
  const [settings, customer, type, userActive] = await inOrder(
    () => q.appointmentSettingsOf(tx, companyId),
    () => findCustomer(tx, companyId, body.customer_id),
    () => (typeId ? q.findAppointmentType(tx, companyId, typeId, { activeOnly: true }) : Promise.resolve(undefined)),
    () => (Number.isSafeInteger(userNumber) ? isActiveUser(tx, companyId, userNumber) : Promise.resolve(user === null)),
  );
  if (!customer)
    problems.add('/customer_id', 'invalid_reference', customerMessages.message('customer.unknown_reference'));
  if (typeId && !type) problems.typeUnknown();
  if (user && !userActive) problems.userUnknown();
  const userId = user && userActive ? userNumber : null;
  const title = body.title ?? type?.name;
  if (!title && !body.appointment_type_id)
    problems.add('/title', 'invalid_combination', appointmentMessages.message('appointment.title_required'));

  let times: { startsAt: Date | null; endsAt: Date | null } = { startsAt: null, endsAt: null };
  let status = body.status;
  if (body.starts_at === null) {
    // An invitation: the customer still picks the time.
    if (statusSent && body.status === 'confirmed')
      problems.add('/status', 'invalid_combination', appointmentMessages.message('appointment.invitation_confirmed'));
    if (body.ends_at !== undefined && body.ends_at !== null)
      problems.add('/ends_at', 'invalid_combination', appointmentMessages.message('appointment.invitation_end'));
    if (body.all_day)
      problems.add('/all_day', 'invalid_combination', appointmentMessages.message('appointment.invitation_all_day'));
    status = 'pending';
  } else {
    const start = new Date(body.starts_at);
    const end = body.ends_at ? new Date(body.ends_at) : null;
    problems.endAfterStart(start, end);
    const duration = type?.durationMinutes ?? settings.defaultDurationMinutes;
    times = appointmentTimes(start, end, body.all_day, duration, settings.timeZone);
  }
  problems.done();
  return {
    customerId: body.customer_id,
    title: title ?? '',
    description: body.description ?? null,
    location: body.location === undefined ? (type?.location ?? null) : body.location,
    status,
    startsAt: times.startsAt,
    endsAt: times.endsAt,
    allDay: body.all_day,
    appointmentTypeId: type?.id ?? null,
    userId: userId ?? null,
    notes: body.notes ?? null,
    confirmedAt: status === 'confirmed' ? sql`app_now()` : null,
    metadata: newMetadata(body.metadata),
  };
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** The columns an update changes (only fields sent with a different value). */
export async function appointmentUpdateColumns(
  tx: Tx,
  companyId: string,
  current: AppointmentRow,
  body: UpdateBody,
  settings: Settings,
): Promise<q.AppointmentChanges> {
  const problems = new Problems();
  const changes: q.AppointmentChanges = { ...changedMetadata(current.metadata, body.metadata) };
  if (body.title !== undefined && body.title !== current.title) changes.title = body.title;
  if (body.description !== undefined && body.description !== current.description)
    changes.description = body.description;
  if (body.location !== undefined && body.location !== current.location) changes.location = body.location;
  if (body.notes !== undefined && body.notes !== current.notes) changes.notes = body.notes;

  let typeDuration: number | undefined;
  if (body.appointment_type_id !== undefined && body.appointment_type_id !== current.appointmentTypeId) {
    const type = body.appointment_type_id ? await problems.type(tx, companyId, body.appointment_type_id) : undefined;
    typeDuration = type?.durationMinutes;
    changes.appointmentTypeId = body.appointment_type_id;
  } else if (current.appointmentTypeId) {
    typeDuration = (await q.findAppointmentType(tx, companyId, current.appointmentTypeId, { activeOnly: false }))
      ?.durationMinutes;
  }
  if (body.user_id !== undefined && String(current.userId ?? '') !== String(body.user_id ?? '')) {
    // Only a new attendee is checked: resending the current one, since deactivated, changes nothing.
    changes.userId = body.user_id === null ? null : await problems.user(tx, companyId, body.user_id);
  }

  const allDay = body.all_day ?? current.allDay;
  const start = body.starts_at !== undefined ? new Date(body.starts_at) : current.startsAt;
  if (start === null) {
    // Still an invitation: it has no time to end or to fill a day.
    if (body.ends_at !== undefined && body.ends_at !== null)
      problems.add('/ends_at', 'invalid_combination', appointmentMessages.message('appointment.invitation_end'));
    if (allDay)
      problems.add('/all_day', 'invalid_combination', appointmentMessages.message('appointment.invitation_all_day'));
  } else {
    const moved = body.starts_at !== undefined && !sameTime(start, current.startsAt);
    let end: Date | null;
    let days = 1;
    if (body.ends_at !== undefined) end = body.ends_at === null ? null : new Date(body.ends_at);
    else if (moved && current.startsAt && current.endsAt) {
      // The end moves along: the same length, or for an all-day appointment the same number of days.
      if (allDay && current.allDay) {
        days = localDaysBetween(current.startsAt, current.endsAt, settings.timeZone);
        end = null;
      } else end = new Date(start.getTime() + (current.endsAt.getTime() - current.startsAt.getTime()));
    } else end = moved ? null : current.endsAt;
    problems.endAfterStart(start, end);
    const duration = typeDuration ?? settings.defaultDurationMinutes;
    const times = appointmentTimes(start, end, allDay, duration, settings.timeZone, days);
    if (!sameTime(times.startsAt, current.startsAt)) {
      changes.startsAt = times.startsAt;
      // Giving an invitation its first time is not a reschedule.
      if (current.startsAt !== null) changes.rescheduledAt = sql`app_now()`;
    }
    if (!sameTime(times.endsAt, current.endsAt)) changes.endsAt = times.endsAt;
  }
  if (allDay !== current.allDay) changes.allDay = allDay;
  problems.done();
  return changes;
}
