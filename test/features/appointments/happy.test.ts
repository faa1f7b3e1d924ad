// Creating, reading, updating and deleting appointments: every field, the ends that follow from the type or the
// settings, invitations without a time, all-day appointments on the company's days across the clock changes of
// Europe/Amsterdam, reschedules, ETags, the events, and the references refused with 422.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { appointmentOf, customerOf, MISSING, settingsOf, typeOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let user: number;
let maintenance: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  user = await userOf(api, companyId);
  maintenance = await typeOf(api, companyId, {
    name: 'Onderhoud cv-ketel',
    durationMinutes: 120,
    location: 'Bij de klant',
  });
});

const eventsOf = async (id: string) =>
  (
    await api.sql<{ type: string; customer_id: string; data: { object: { id: string; status: string } } }[]>`
      select type, customer_id, data from events where company_id = ${companyId} and data->'object'->>'id' = ${id}
      order by id`
  ).map((e) => [e.type, e.data.object.status]);

describe('createAppointment', () => {
  it('creates a confirmed appointment with every field; the end follows the default duration (60 minutes)', async () => {
    const customer = await customerOf(api, key, {
      name: 'Jan Jansen',
      email: 'jan@bakkerijjansen.nl',
      phone: '+31 20 123 4567',
    });
    const res = await api.call<'createAppointment'>('createAppointment', {
      key,
      body: {
        customer_id: customer,
        starts_at: '2026-03-16T09:00:00+01:00',
        title: 'Kennismaking',
        description: 'Eerste gesprek',
        location: 'Prinsengracht 263',
        user_id: String(user),
        notes: 'Achterdeur',
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    const a = res.body.data;
    expect(a).toMatchObject({
      object: 'appointment',
      title: 'Kennismaking',
      description: 'Eerste gesprek',
      status: 'confirmed',
      starts_at: '2026-03-16T08:00:00.000Z',
      ends_at: '2026-03-16T09:00:00.000Z',
      all_day: false,
      location: 'Prinsengracht 263',
      customer_id: customer,
      contact: { name: 'Jan Jansen', email: 'jan@bakkerijjansen.nl', phone: '+31 20 123 4567' },
      user_id: String(user),
      appointment_type_id: null,
      deal_id: null,
      quote_id: null,
      invoice_id: null,
      notes: 'Achterdeur',
      cancellation_reason: null,
      cancelled_at: null,
      rescheduled_at: null,
    });
    expect(a.confirmed_at).toBe(a.created_at);
    const got = await api.call('getAppointment', { key, params: { appointment: a.id } });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(a);
    expect(got.headers.get('etag')).toBe('"1"');
    expect(await eventsOf(a.id)).toEqual([['appointment.created', 'confirmed']]);
  });

  it('takes the title, duration and location of the type; the settings give the default duration', async () => {
    const a = await appointmentOf(api, key, { title: undefined, appointment_type_id: maintenance, status: 'pending' });
    expect(a).toMatchObject({
      title: 'Onderhoud cv-ketel',
      status: 'pending',
      confirmed_at: null,
      starts_at: '2026-03-16T08:00:00.000Z',
      ends_at: '2026-03-16T10:00:00.000Z',
      location: 'Bij de klant',
      appointment_type_id: maintenance,
    });
    const other = await setupApi();
    const t = await other.tenant();
    await settingsOf(other, t.companyId, { duration: 45 });
    const b = await appointmentOf(other, t.key, {});
    expect(b.ends_at).toBe('2026-03-16T08:45:00.000Z');
    const c = await appointmentOf(other, t.key, { ends_at: '2026-03-16T12:00:00+01:00' });
    expect(c.ends_at).toBe('2026-03-16T11:00:00.000Z');
  });

  it('creates an invitation without a time: pending, no end; confirmed, an end or all-day are refused', async () => {
    const a = await appointmentOf(api, key, { starts_at: null, appointment_type_id: maintenance, title: null });
    expect(a).toMatchObject({ status: 'pending', starts_at: null, ends_at: null, title: 'Onderhoud cv-ketel' });
    const customer = await customerOf(api, key);
    const refused = await api.call('createAppointment', {
      key,
      body: {
        customer_id: customer,
        starts_at: null,
        title: 'X',
        status: 'confirmed',
        ends_at: '2026-03-16T10:00:00Z',
        all_day: true,
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/all_day',
      '/ends_at',
      '/status',
    ]);
  });

  it('puts an all-day appointment on the company day, 23 hours on the last Sunday of March, 25 in October', async () => {
    const march = await appointmentOf(api, key, { starts_at: '2026-03-29T00:00:00+01:00', all_day: true });
    expect([march.starts_at, march.ends_at]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    const october = await appointmentOf(api, key, { starts_at: '2026-10-25T00:00:00+02:00', all_day: true });
    expect([october.starts_at, october.ends_at]).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
    // Any time of the day means that day; an end on a later day makes it several days.
    const afternoon = await appointmentOf(api, key, {
      starts_at: '2026-03-29T15:00:00+02:00',
      ends_at: '2026-03-30T10:00:00+02:00',
      all_day: true,
    });
    expect([afternoon.starts_at, afternoon.ends_at]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-30T22:00:00.000Z']);
    // 00:30 UTC on 18 March is 01:30 in Amsterdam: still 18 March.
    const utc = await appointmentOf(api, key, { starts_at: '2026-03-18T00:30:00Z', all_day: true });
    expect(utc.starts_at).toBe('2026-03-17T23:00:00.000Z');
  });

  it('refuses unknown and inactive references, a missing title and an end before the start (422, all at once)', async () => {
    const inactiveType = await typeOf(api, companyId, { active: false });
    const inactiveUser = await userOf(api, companyId, 'inactive');
    const res = await api.call('createAppointment', {
      key,
      body: {
        customer_id: MISSING,
        starts_at: '2026-03-16T09:00:00+01:00',
        ends_at: '2026-03-16T08:00:00+01:00',
        appointment_type_id: inactiveType,
        user_id: String(inactiveUser),
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/customer_id', 'invalid_reference'],
      ['/appointment_type_id', 'invalid_reference'],
      ['/user_id', 'invalid_reference'],
      ['/ends_at', 'too_small'],
    ]);
    const noTitle = await api.call('createAppointment', {
      key,
      body: { customer_id: await customerOf(api, key), starts_at: '2026-03-16T09:00:00+01:00' },
    });
    expect(noTitle.status).toBe(422);
    expect(noTitle.body.errors[0]).toMatchObject({ pointer: '/title', code: 'invalid_combination' });
  });

  it('replays a creation with the same Idempotency-Key', async () => {
    const body = { customer_id: await customerOf(api, key), title: 'Eenmalig', starts_at: '2026-04-01T10:00:00+02:00' };
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await api.call('createAppointment', { key, body, headers });
    const again = await api.call('createAppointment', { key, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
  });
});

describe('updateAppointment', () => {
  it('reschedules: rescheduled_at is set and the end moves along, keeping the duration', async () => {
    const a = await appointmentOf(api, key, { ends_at: '2026-03-16T11:30:00+01:00' });
    const res = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      headers: { 'if-match': '"1"' },
      body: { starts_at: '2026-03-17T09:00:00+01:00' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toMatchObject({
      starts_at: '2026-03-17T08:00:00.000Z',
      ends_at: '2026-03-17T10:30:00.000Z',
      status: 'confirmed',
    });
    expect(res.body.data.rescheduled_at).toBe(res.body.data.updated_at);
    expect(await eventsOf(a.id)).toEqual([
      ['appointment.created', 'confirmed'],
      ['appointment.updated', 'confirmed'],
    ]);
    // A stale If-Match changes nothing.
    const stale = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      headers: { 'if-match': '"1"' },
      body: { title: 'Te laat' },
    });
    expect(stale.status).toBe(412);
    // Sending the same values changes nothing and records nothing.
    const same = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      body: { starts_at: '2026-03-17T08:00:00Z' },
    });
    expect(same.headers.get('etag')).toBe('"2"');
    expect(await eventsOf(a.id)).toHaveLength(2);
  });

  it('gives an invitation its first time without a reschedule; the end follows the type; it stays pending', async () => {
    const a = await appointmentOf(api, key, { starts_at: null, appointment_type_id: maintenance });
    const res = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      body: { starts_at: '2026-07-01T14:00:00+02:00' },
    });
    expect(res.body.data).toMatchObject({
      status: 'pending',
      starts_at: '2026-07-01T12:00:00.000Z',
      ends_at: '2026-07-01T14:00:00.000Z',
      rescheduled_at: null,
    });
    const recalculated = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      body: { ends_at: null, appointment_type_id: null },
    });
    expect(recalculated.body.data).toMatchObject({ ends_at: '2026-07-01T13:00:00.000Z', appointment_type_id: null });
  });

  it('moves an all-day appointment by whole company days, also from a 24-hour day to the 23-hour one', async () => {
    const a = await appointmentOf(api, key, { starts_at: '2026-03-30T00:00:00+02:00', all_day: true });
    const res = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      body: { starts_at: '2026-03-29T00:00:00+01:00' },
    });
    expect([res.body.data.starts_at, res.body.data.ends_at]).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
  });

  it('refuses an end before the start and unknown references (422)', async () => {
    const a = await appointmentOf(api, key);
    const res = await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      body: { ends_at: '2026-03-16T07:00:00Z', appointment_type_id: MISSING, user_id: '999999' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
      '/appointment_type_id',
      '/user_id',
      '/ends_at',
    ]);
  });
});

describe('deleteAppointment', () => {
  it('deletes in any status; afterwards 404', async () => {
    const a = await appointmentOf(api, key);
    await api.call('cancelAppointment', { key, params: { appointment: a.id } });
    const res = await api.call('deleteAppointment', { key, params: { appointment: a.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { object: 'appointment', id: a.id, deleted: true } });
    expect((await api.call('getAppointment', { key, params: { appointment: a.id } })).status).toBe(404);
    expect((await api.call('deleteAppointment', { key, params: { appointment: a.id } })).status).toBe(404);
  });
});
