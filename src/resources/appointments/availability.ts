// List free appointment slots: who can be booked (the users with working hours of their own, else the company
// planning without users), their hours and occupied time, and the slots of src/domain/availability.ts as a
// normal list page. The page is cut from the whole (at most 31 days) list, ordered by start then user, with a
// cursor of {start, user} like the keyset lists.
import type { Tx } from '../../db/tenant.ts';
import { freeSlots, type WorkingHours } from '../../domain/availability.ts';
import { message } from '../../http/messages.ts';
import type { FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { companyMessages } from '../company/messages.ts';
import { isActiveUser } from '../deals/queries.ts';
import { appointmentMessages } from './messages.ts';
import * as q from './queries.ts';

/** The hours of a company that set none: Monday to Friday, 09:00 to 17:00. */
const DEFAULT_HOURS: WorkingHours[] = [1, 2, 3, 4, 5].map((weekday) => ({
  weekday,
  startMinute: 540,
  endMinute: 1020,
}));
const MAX_DAYS = 31;
const DAY = 86_400_000;
/**
 * Availability is given for periods within ten years of now, either way: further out no appointment can be
 * booked, and at the ends of the calendar (years 0001 and 9999) the margins around the period leave the range
 * PostgreSQL and RFC 3339 share.
 */
const HORIZON_YEARS = 10;
const HORIZON = HORIZON_YEARS * 366 * DAY;

type Query = {
  from: string;
  until: string;
  appointment_type_id?: string;
  user_id?: string;
  limit: number;
  cursor?: string;
};
type Slot = { object: 'availability_slot'; starts_at: string; ends_at: string; user_id: string | null };
type Cursor = { s: 'starts_at'; v: [string, string]; d: 'n' | 'p' };

const parameterError = (parameter: string, code: string, detail: FieldError['detail']): FieldError => ({
  pointer: null,
  parameter,
  code,
  detail,
});

/** The cursor, or undefined after recording why it is refused. */
function decodeCursor(text: string, errors: FieldError[]): Cursor | undefined {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    const valid =
      cursor?.s === 'starts_at' &&
      Array.isArray(cursor.v) &&
      cursor.v.length === 2 &&
      typeof cursor.v[0] === 'string' &&
      typeof cursor.v[1] === 'string' &&
      (cursor.d === 'n' || cursor.d === 'p');
    if (valid) return cursor;
  } catch {
    // not JSON: refused below
  }
  errors.push(parameterError('cursor', 'invalid_cursor', message('cursor.invalid')));
  return undefined;
}
const encodeCursor = (slot: Slot, d: 'n' | 'p') =>
  Buffer.from(JSON.stringify({ s: 'starts_at', v: [slot.starts_at, slot.user_id ?? ''], d })).toString('base64url');

/** Start, then user id as a number (no user first). */
function compareKey(a: [string, string], b: [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[1] === '' ? 0 : Number(a[1])) - (b[1] === '' ? 0 : Number(b[1]));
}

export async function availabilityPage(tx: Tx, companyId: string, query: Query, now: Date) {
  const from = new Date(query.from);
  const until = new Date(query.until);
  const errors: FieldError[] = [];
  const horizon = appointmentMessages.message('availability.beyond_horizon', { years: HORIZON_YEARS });
  if (from.getTime() < now.getTime() - HORIZON) errors.push(parameterError('from', 'too_small', horizon));
  if (until.getTime() > now.getTime() + HORIZON) errors.push(parameterError('until', 'too_big', horizon));
  if (until <= from)
    errors.push(parameterError('until', 'too_small', appointmentMessages.message('availability.until_not_after_from')));
  else if (until.getTime() - from.getTime() > MAX_DAYS * DAY)
    errors.push(parameterError('until', 'too_big', appointmentMessages.message('availability.too_long')));
  const type = query.appointment_type_id
    ? await q.findAppointmentType(tx, companyId, query.appointment_type_id, { activeOnly: true })
    : undefined;
  if (query.appointment_type_id && !type)
    errors.push(
      parameterError(
        'appointment_type_id',
        'invalid_reference',
        appointmentMessages.message('appointment.type_unknown_reference'),
      ),
    );
  const userId = query.user_id === undefined ? undefined : Number(query.user_id);
  if (userId !== undefined && !(Number.isSafeInteger(userId) && (await isActiveUser(tx, companyId, userId))))
    errors.push(parameterError('user_id', 'invalid_reference', companyMessages.message('user.unknown_reference')));
  const cursor = query.cursor ? decodeCursor(query.cursor, errors) : undefined;
  if (errors.length > 0) throw invalidFields(errors);

  const settings = await q.appointmentSettingsOf(tx, companyId);
  const rules = {
    timeZone: settings.timeZone,
    durationMinutes: type?.durationMinutes ?? settings.defaultDurationMinutes,
    intervalMinutes: settings.slotIntervalMinutes,
    bufferMinutes: settings.bufferMinutes,
    minimumNoticeMinutes: settings.minimumNoticeMinutes,
  };
  const hours = await q.workingHoursOf(tx, companyId);
  const margin = (rules.durationMinutes + rules.bufferMinutes) * 60_000 + DAY;
  const occupied = await q.occupyingAppointments(
    tx,
    companyId,
    new Date(from.getTime() - margin),
    new Date(until.getTime() + margin),
  );
  const companyHours = hours.filter((h) => h.userId === null);
  const hoursOf = (user: number | null) => {
    const own = user === null ? [] : hours.filter((h) => h.userId === user);
    if (own.length > 0) return own;
    return companyHours.length > 0 ? companyHours : DEFAULT_HOURS;
  };
  // Who is booked: the user asked for; else every active user with hours of their own; else nobody in particular.
  const activeUsers = new Set<number>();
  for (const id of new Set(hours.map((h) => h.userId).filter((id): id is number => id !== null)))
    if (await isActiveUser(tx, companyId, id)) activeUsers.add(id);
  const attendees: (number | null)[] =
    userId !== undefined ? [userId] : activeUsers.size > 0 ? [...activeUsers] : [null];

  const all: Slot[] = [];
  for (const attendee of attendees) {
    // A user's time is taken by their own appointments; without users, by every appointment.
    const busy = occupied.filter((o) => attendee === null || o.userId === attendee);
    const slots = freeSlots(
      hoursOf(attendee),
      busy.map((o) => ({ startsAt: o.startsAt as Date, endsAt: o.endsAt as Date })),
      rules,
      { from, until },
      now,
    );
    for (const slot of slots)
      all.push({
        object: 'availability_slot',
        starts_at: slot.startsAt.toISOString(),
        ends_at: slot.endsAt.toISOString(),
        user_id: attendee === null ? null : String(attendee),
      });
  }
  const keyOf = (s: Slot): [string, string] => [s.starts_at, s.user_id ?? ''];
  all.sort((a, b) => compareKey(keyOf(a), keyOf(b)));

  let page: Slot[];
  let before: boolean;
  let after: boolean;
  if (cursor?.d === 'p') {
    const earlier = all.filter((s) => compareKey(keyOf(s), cursor.v) < 0);
    page = earlier.slice(-query.limit);
    before = earlier.length > page.length;
    after = true;
  } else {
    const later = cursor ? all.filter((s) => compareKey(keyOf(s), cursor.v) > 0) : all;
    page = later.slice(0, query.limit);
    before = cursor !== undefined;
    after = later.length > page.length;
  }
  const first = page[0];
  const last = page.at(-1);
  return {
    data: page,
    meta: {
      limit: query.limit,
      next_cursor: after && last ? encodeCursor(last, 'n') : null,
      prev_cursor: before && first ? encodeCursor(first, 'p') : null,
    },
  };
}
