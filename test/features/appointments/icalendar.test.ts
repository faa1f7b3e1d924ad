// The iCalendar text of an appointment, read back with a real parser (ical.js): DTSTAMP is UTC with `Z`
// (RFC 5545 3.8.7.2), and a name that tries to close its quoted CN and add an address stays one name of the one
// attendee (RFC 6868 parameter encoding).
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { appointmentCalendar, type CalendarAppointment, parameterText } from '../../../src/domain/icalendar.ts';

const HOSTILE = 'Eve":mailto:attacker@evil.example;X="';

const appointment = (over: Partial<CalendarAppointment> = {}): CalendarAppointment => ({
  uid: 'appt-1@crm.test',
  sequence: 2,
  status: 'confirmed',
  startsAt: new Date('2026-03-30T07:00:00Z'),
  endsAt: new Date('2026-03-30T08:00:00Z'),
  allDay: false,
  title: 'Onderhoud cv-ketel',
  description: null,
  location: null,
  timeZone: 'Europe/Amsterdam',
  organizer: { name: 'Installatiebedrijf "De Vonk"; Zwolle', email: 'planning@vonk.example' },
  attendee: { name: HOSTILE, email: 'eve@customer.example' },
  stamp: new Date('2026-03-01T12:34:56.789Z'),
  ...over,
});

function eventOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent');
  if (!event) throw new Error('no VEVENT');
  return event;
}

describe('appointment invitations (iCalendar)', () => {
  it('writes DTSTAMP in UTC with Z while the times keep the company zone', () => {
    const text = appointmentCalendar(appointment());
    expect(text).toMatch(/\r\nDTSTAMP:20260301T123456Z\r\n/);
    const event = eventOf(text);
    const stamp = event.getFirstPropertyValue('dtstamp');
    if (!(stamp instanceof ICAL.Time)) throw new Error('DTSTAMP is not a date-time');
    expect(stamp.zone).toBe(ICAL.Timezone.utcTimezone);
    expect(stamp.toJSDate().toISOString()).toBe('2026-03-01T12:34:56.000Z');
    expect(event.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/Amsterdam');
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Amsterdam');
  });

  it('keeps a hostile name inside its CN: one attendee, the customer address, the name as given', () => {
    for (const status of ['confirmed', 'cancelled'] as const) {
      const text = appointmentCalendar(appointment({ status }));
      expect(text).not.toContain('attacker@evil.example;');
      const event = eventOf(text);
      const attendees = event.getAllProperties('attendee');
      expect(attendees).toHaveLength(1);
      expect(attendees[0].getFirstValue()).toBe('MAILTO:eve@customer.example');
      expect(attendees[0].getParameter('cn')).toBe(HOSTILE);
      expect(attendees[0].getParameter('x')).toBeUndefined();
      const organizer = event.getFirstProperty('organizer');
      expect(organizer?.getFirstValue()).toBe('mailto:planning@vonk.example');
      expect(organizer?.getParameter('cn')).toBe('Installatiebedrijf "De Vonk"; Zwolle');
    }
  });

  it('encodes ^, quotes and line breaks per RFC 6868 and drops what a quoted value cannot carry', () => {
    expect(parameterText('a^b "c"\r\nd\\e\u0007f')).toBe("a^^b ^'c^'^nd" + 'ef');
    const event = eventOf(
      appointmentCalendar(appointment({ attendee: { name: 'Jan "J" ^\nJanssen', email: 'j@x.example' } })),
    );
    expect(event.getFirstProperty('attendee')?.getParameter('cn')).toBe('Jan "J" ^\nJanssen');
  });
});
