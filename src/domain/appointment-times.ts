// The times of an appointment: an all-day appointment runs from midnight to midnight of days in the company's
// time zone (23 or 25 hours on the days the clocks change); otherwise the end defaults to start + duration.
import { DateTime } from 'luxon';

/** Local midnight of the company's day that `at` falls on. */
export function startOfLocalDay(at: Date, timeZone: string): Date {
  return DateTime.fromJSDate(at, { zone: timeZone }).startOf('day').toJSDate();
}

/** `at` when it is a local midnight, else the next local midnight. */
export function localMidnightAtOrAfter(at: Date, timeZone: string): Date {
  const day = DateTime.fromJSDate(at, { zone: timeZone }).startOf('day');
  return day.toMillis() === at.getTime() ? at : day.plus({ days: 1 }).startOf('day').toJSDate();
}

/** How many of the company's days an all-day appointment from `start` to `end` (local midnights) takes. */
export function localDaysBetween(start: Date, end: Date, timeZone: string): number {
  const days = DateTime.fromJSDate(end, { zone: timeZone })
    .startOf('day')
    .diff(DateTime.fromJSDate(start, { zone: timeZone }).startOf('day'), 'days').days;
  return Math.max(1, Math.round(days));
}

/**
 * The start and end to store. All-day: the start moves to midnight of its local day, the end (given or not) to a
 * local midnight after it (`days` days later when absent). Otherwise a missing end is start + `durationMinutes`.
 */
export function appointmentTimes(
  start: Date,
  end: Date | null,
  allDay: boolean,
  durationMinutes: number,
  timeZone: string,
  days = 1,
): { startsAt: Date; endsAt: Date } {
  if (allDay) {
    const startsAt = startOfLocalDay(start, timeZone);
    const nextDay = DateTime.fromJSDate(startsAt, { zone: timeZone }).plus({ days }).startOf('day').toJSDate();
    const endsAt = end === null || end <= startsAt ? nextDay : localMidnightAtOrAfter(end, timeZone);
    return { startsAt, endsAt };
  }
  return { startsAt: start, endsAt: end ?? new Date(start.getTime() + durationMinutes * 60_000) };
}

/** The date (YYYY-MM-DD) of the company's day `at` falls on. */
export function localDate(at: Date, timeZone: string): string {
  return DateTime.fromJSDate(at, { zone: timeZone }).toISODate() ?? '';
}
