// Free appointment slots: working hours on local days of the company's time zone, cut into slots every
// `interval` minutes from the start of the hours, each as long as the appointment; a slot is free when it ends
// within the hours, starts no earlier than `now` plus the minimum notice, and keeps `buffer` minutes clear of
// every occupied period. Days are walked in the time zone (luxon), and slots step in real minutes from the
// local start of the hours, so a 60-minute slot is 60 minutes long also on the days the clocks change.
import { DateTime } from 'luxon';

export type WorkingHours = { weekday: number; startMinute: number; endMinute: number };
export type Occupied = { startsAt: Date; endsAt: Date };
export type SlotRules = {
  timeZone: string;
  durationMinutes: number;
  intervalMinutes: number;
  bufferMinutes: number;
  minimumNoticeMinutes: number;
};
export type Slot = { startsAt: Date; endsAt: Date };

const MINUTE = 60_000;

/** The instant of `minute` minutes after local midnight of `day` (24:00 is the next midnight). */
function localInstant(day: DateTime, minute: number): DateTime {
  if (minute === 1440) return day.plus({ days: 1 }).startOf('day');
  // Built from wall-clock fields: a time the clocks skip (02:30 on the last Sunday of March) becomes the
  // moment just after the jump, as luxon resolves it.
  return DateTime.fromObject(
    { year: day.year, month: day.month, day: day.day, hour: Math.floor(minute / 60), minute: minute % 60 },
    { zone: day.zone },
  );
}

/** The free slots that start in [from, until), earliest first. `occupied` need not be sorted. */
export function freeSlots(
  hours: readonly WorkingHours[],
  occupied: readonly Occupied[],
  rules: SlotRules,
  range: { from: Date; until: Date },
  now: Date,
): Slot[] {
  const earliest = Math.max(range.from.getTime(), now.getTime() + rules.minimumNoticeMinutes * MINUTE);
  const buffer = rules.bufferMinutes * MINUTE;
  const duration = rules.durationMinutes * MINUTE;
  const busy = occupied.map((o) => [o.startsAt.getTime() - buffer, o.endsAt.getTime() + buffer] as const);
  const slots: Slot[] = [];
  // From the local day before `from`: hours of that day may run past midnight of the next (24:00).
  let day = DateTime.fromJSDate(range.from, { zone: rules.timeZone }).startOf('day').minus({ days: 1 });
  const lastDay = DateTime.fromJSDate(range.until, { zone: rules.timeZone }).startOf('day');
  for (; day <= lastDay; day = day.plus({ days: 1 }).startOf('day')) {
    const windows = hours
      .filter((h) => h.weekday === day.weekday)
      .map((h) => [localInstant(day, h.startMinute).toMillis(), localInstant(day, h.endMinute).toMillis()] as const)
      .sort((a, b) => a[0] - b[0]);
    const seen = new Set<number>();
    for (const [open, close] of windows) {
      for (let start = open; start + duration <= close; start += rules.intervalMinutes * MINUTE) {
        const end = start + duration;
        if (start < earliest || start >= range.until.getTime() || seen.has(start)) continue;
        if (busy.some(([b0, b1]) => start < b1 && end > b0)) continue;
        seen.add(start);
        slots.push({ startsAt: new Date(start), endsAt: new Date(end) });
      }
    }
  }
  return slots.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}
