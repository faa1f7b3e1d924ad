// What appointment tests need besides the API: appointment types, settings and working hours (set up in the web
// application, so inserted directly), users, customers and a few shortcuts over the API.
import { expect } from 'vitest';
import type { TestApi } from '../../harness/api.ts';

export async function typeOf(
  api: TestApi,
  companyId: string,
  type: { name?: string; durationMinutes?: number; location?: string | null; active?: boolean } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await api.sql`
    insert into appointment_types (company_id, id, name, duration_minutes, location, is_active)
    values (${companyId}, ${id}, ${type.name ?? 'Onderhoud cv-ketel'}, ${type.durationMinutes ?? 120},
            ${type.location ?? null}, ${type.active ?? true})`;
  return id;
}

export async function settingsOf(
  api: TestApi,
  companyId: string,
  s: { duration?: number; interval?: number; buffer?: number; notice?: number },
): Promise<void> {
  await api.sql`
    insert into appointment_settings (company_id, default_duration_minutes, slot_interval_minutes, buffer_minutes,
                                      minimum_notice_minutes)
    values (${companyId}, ${s.duration ?? 60}, ${s.interval ?? 30}, ${s.buffer ?? 0}, ${s.notice ?? 0})
    on conflict (company_id) do update set default_duration_minutes = excluded.default_duration_minutes,
      slot_interval_minutes = excluded.slot_interval_minutes, buffer_minutes = excluded.buffer_minutes,
      minimum_notice_minutes = excluded.minimum_notice_minutes`;
}

/** Working hours "HH:MM-HH:MM" on ISO weekdays (1 Monday … 7 Sunday), of a user or of the company (null). */
export async function hoursOf(
  api: TestApi,
  companyId: string,
  userId: number | null,
  weekdays: number[],
  range: string,
): Promise<void> {
  const [from, to] = range.split('-').map((t) => {
    const [h, m] = t.split(':').map(Number);
    return h * 60 + m;
  });
  for (const weekday of weekdays)
    await api.sql`
      insert into appointment_working_hours (company_id, id, user_id, weekday, start_minute, end_minute)
      values (${companyId}, ${crypto.randomUUID()}, ${userId}, ${weekday}, ${from}, ${to})`;
}

export async function userOf(api: TestApi, companyId: string, status: 'active' | 'inactive' = 'active') {
  const [row] = await api.sql<{ id: string }[]>`
    insert into users (company_id, name, email, status)
    values (${companyId}, 'Sanne de Vries', ${`${crypto.randomUUID()}@example.nl`}, ${status})
    returning id`;
  return Number(row.id);
}

export async function customerOf(
  api: TestApi,
  key: string,
  body: { name?: string; email?: string; phone?: string } = {},
): Promise<string> {
  const res = await api.call('createCustomer', {
    key,
    body: {
      name: body.name ?? 'Jan Jansen',
      email: body.email ?? `${crypto.randomUUID()}@example.nl`,
      phone: body.phone,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

/** A new appointment (201) for a new customer unless one is given. */
export async function appointmentOf(api: TestApi, key: string, body: Record<string, unknown> = {}) {
  const customer_id = (body.customer_id as string | undefined) ?? (await customerOf(api, key));
  const res = await api.call('createAppointment', {
    key,
    body: { customer_id, title: 'Onderhoud cv-ketel', starts_at: '2026-03-16T09:00:00+01:00', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export const MISSING = '01900000-0000-7000-8000-000000000000';
