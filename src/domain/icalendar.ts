// iCalendar (RFC 5545) invitations for appointments, built with ical-generator, scheduled as RFC 5546 iTIP:
// METHOD:REQUEST (a new or moved appointment) or CANCEL, one UID per appointment on every message, and a
// SEQUENCE that grows with every change, so a calendar client moves or removes its entry instead of adding one.
// Times are written in the company's time zone (TZID) with its VTIMEZONE, whose observances are taken from the
// time-zone database through luxon for the years around the appointment. DTSTAMP is in UTC (`Z`), as RFC 5545
// requires; names in parameter values (CN) are encoded per RFC 6868, so no name can end the quoted value and add
// parameters or another address.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';

export type CalendarAppointment = {
  uid: string;
  sequence: number;
  status: 'pending' | 'confirmed' | 'cancelled' | 'completed';
  startsAt: Date;
  endsAt: Date;
  allDay: boolean;
  title: string;
  description: string | null;
  location: string | null;
  timeZone: string;
  organizer: { name: string; email: string };
  attendee: { name: string | null; email: string };
  /** DTSTAMP: when the message is made. */
  stamp: Date;
};

const pad = (n: number) => String(n).padStart(2, '0');
const offsetText = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;
const localText = (t: DateTime) =>
  `${t.year}${pad(t.month)}${pad(t.day)}T${pad(t.hour)}${pad(t.minute)}${pad(t.second)}`;

/** The instants in [from, until) at which `zone`'s UTC offset changes (to the minute). */
function transitions(zone: string, from: DateTime, until: DateTime): DateTime[] {
  const found: DateTime[] = [];
  const offsetAt = (ms: number) => DateTime.fromMillis(ms, { zone }).offset;
  for (let day = from.toMillis(); day < until.toMillis(); day += 86_400_000) {
    let low = day;
    let high = day + 86_400_000;
    if (offsetAt(low) === offsetAt(high)) continue;
    while (high - low > 60_000) {
      const middle = low + Math.floor((high - low) / 120_000) * 60_000;
      if (offsetAt(middle) === offsetAt(low)) low = middle;
      else high = middle;
    }
    found.push(DateTime.fromMillis(high, { zone }));
  }
  return found;
}

/**
 * A VTIMEZONE for `zone` valid from the start of the year before `around` to the end of the year after it: the
 * offset in force at its start, then one observance per change (no rules to extrapolate, so nothing is guessed).
 */
export function vtimezone(zone: string, around: Date): string {
  const year = DateTime.fromJSDate(around, { zone }).year;
  const from = DateTime.fromObject({ year: year - 1, month: 1, day: 1 }, { zone });
  const until = DateTime.fromObject({ year: year + 2, month: 1, day: 1 }, { zone });
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  const observance = (onsetLocal: DateTime, fromOffset: number, toOffset: number) => {
    // Daylight time is the observance whose offset is above the zone's standard (its January/July minimum).
    const standard = Math.min(from.offset, from.set({ month: 7 }).offset);
    const kind = toOffset > standard ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${localText(onsetLocal)}`,
      `TZOFFSETFROM:${offsetText(fromOffset)}`,
      `TZOFFSETTO:${offsetText(toOffset)}`,
      `END:${kind}`,
    );
  };
  observance(from, from.offset, from.offset);
  for (const change of transitions(zone, from, until)) {
    const before = DateTime.fromMillis(change.toMillis() - 60_000, { zone }).offset;
    // DTSTART is the onset in the local time before the change (RFC 5545 3.6.5): 02:00 in March, 03:00 in October.
    observance(change.setZone(`UTC${before >= 0 ? '+' : '-'}${Math.abs(before) / 60}`), before, change.offset);
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/**
 * A name as a quoted parameter value (CN): RFC 6868 encodes `^`, `"` and line breaks (`^^`, `^'`, `^n`), which a
 * quoted value cannot carry. Backslashes and other control characters are dropped: ical-generator escapes a
 * backslash in a quoted value with another, which iCalendar does not know, so a reader would show two.
 */
export function parameterText(name: string): string {
  return name
    .replace(/\r\n?/g, '\n')
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")
    .replace(/\n/g, '^n')
    .replace(/[\\\p{Cc}]/gu, '');
}

/** The .ics text of one appointment message. */
export function appointmentCalendar(appointment: CalendarAppointment): string {
  const cancelled = appointment.status === 'cancelled';
  const calendar = ical({
    prodId: { company: 'crm', product: 'appointments', language: 'EN' },
    method: cancelled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  // No calendar-wide zone: ical-generator would write DTSTAMP in it, without the `Z` RFC 5545 requires. The event's
  // own zone (TZID on DTSTART and DTEND) still gets its VTIMEZONE from the generator.
  calendar.timezone({ name: null, generator: (zone) => vtimezone(zone, appointment.startsAt) });
  const zoned = (at: Date) => DateTime.fromJSDate(at, { zone: appointment.timeZone });
  calendar.createEvent({
    id: appointment.uid,
    sequence: appointment.sequence,
    stamp: appointment.stamp,
    start: zoned(appointment.startsAt),
    end: zoned(appointment.endsAt),
    allDay: appointment.allDay,
    timezone: appointment.timeZone,
    summary: appointment.title,
    description: appointment.description,
    location: appointment.location,
    status: cancelled
      ? ICalEventStatus.CANCELLED
      : appointment.status === 'pending'
        ? ICalEventStatus.TENTATIVE
        : ICalEventStatus.CONFIRMED,
    organizer: { name: parameterText(appointment.organizer.name), email: appointment.organizer.email },
    attendees: [
      {
        email: appointment.attendee.email,
        name: appointment.attendee.name === null ? undefined : parameterText(appointment.attendee.name),
        rsvp: !cancelled,
      },
    ],
  });
  return calendar.toString();
}
