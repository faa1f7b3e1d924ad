// The demo company's appointments: settings and working hours (two technicians), two appointment types, and
// appointments in every status around today, times on the company's clock (Europe/Amsterdam).
import { DateTime } from 'luxon';
import { appointmentSettings, appointments, appointmentTypes, appointmentWorkingHours } from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { newId } from '../ids.ts';

type Person = { id: number };
type Customer = { id: string; address: string | null; city: string | null };

const ZONE = 'Europe/Amsterdam';

/** `days` from today (negative: before) at `hour`:`minute` in Amsterdam, on a weekday. */
function localAt(now: Date, days: number, hour: number, minute = 0): Date {
  let day = DateTime.fromJSDate(now, { zone: ZONE }).plus({ days }).set({ hour, minute, second: 0, millisecond: 0 });
  while (day.weekday > 5) day = day.plus({ days: days < 0 ? -1 : 1 });
  return day.toJSDate();
}

export async function addDemoAppointments(
  tx: Tx,
  companyId: string,
  now: Date,
  people: { sanne: Person; ahmed: Person },
  customers: Customer[],
): Promise<void> {
  await tx.insert(appointmentSettings).values({
    companyId,
    defaultDurationMinutes: 60,
    slotIntervalMinutes: 30,
    bufferMinutes: 15,
    minimumNoticeMinutes: 120,
  });
  for (const person of [people.sanne, people.ahmed])
    await tx.insert(appointmentWorkingHours).values(
      [1, 2, 3, 4, 5].map((weekday) => ({
        companyId,
        id: newId(),
        userId: person.id,
        weekday,
        startMinute: 8 * 60,
        endMinute: 16 * 60 + 30,
      })),
    );
  const maintenance = newId();
  const advice = newId();
  await tx.insert(appointmentTypes).values([
    {
      companyId,
      id: maintenance,
      name: 'Onderhoud cv-ketel',
      description: 'Jaarlijks onderhoud van de cv-installatie.',
      durationMinutes: 120,
      color: '#2E7D32',
    },
    {
      companyId,
      id: advice,
      name: 'Adviesgesprek zonnepanelen',
      description: 'Kennismaking en advies over zonnepanelen, bij de klant thuis.',
      durationMinutes: 60,
      color: '#F9A825',
    },
  ]);
  const where = (c: Customer) => [c.address, c.city].filter(Boolean).join(', ') || null;
  const [a, b, c, d, e] = customers;
  const rows: (typeof appointments.$inferInsert)[] = [];
  const visit = (
    customer: Customer | undefined,
    type: string,
    minutes: number,
    user: Person,
    status: 'pending' | 'confirmed' | 'cancelled' | 'completed',
    start: Date | null,
    extra: Partial<typeof appointments.$inferInsert> = {},
  ) => {
    if (!customer) return;
    const created = new Date(Math.min(now.getTime(), (start ?? now).getTime()) - 7 * 86_400_000);
    rows.push({
      companyId,
      id: newId(),
      title: type === maintenance ? 'Onderhoud cv-ketel' : 'Adviesgesprek zonnepanelen',
      status,
      startsAt: start,
      endsAt: start ? new Date(start.getTime() + minutes * 60_000) : null,
      location: where(customer),
      customerId: customer.id,
      userId: user.id,
      appointmentTypeId: type,
      confirmedAt: status === 'pending' ? null : created,
      createdAt: created,
      updatedAt: created,
      ...extra,
    });
  };
  visit(a, maintenance, 120, people.ahmed, 'completed', localAt(now, -6, 9));
  visit(b, maintenance, 120, people.ahmed, 'confirmed', localAt(now, 3, 8, 30), {
    notes: 'Bakkerij is vanaf 06:00 open; ingang via de achterdeur.',
  });
  visit(c, advice, 60, people.sanne, 'pending', localAt(now, 4, 13));
  visit(d, advice, 60, people.sanne, 'pending', null);
  visit(e, advice, 60, people.sanne, 'cancelled', localAt(now, 2, 10), {
    cancellationReason: 'Klant is verhuisd; nieuwe afspraak volgt.',
    cancelledAt: now,
    updatedAt: now,
  });
  if (rows.length > 0) await tx.insert(appointments).values(rows);
}
