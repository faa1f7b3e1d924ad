// Free slots under a controllable clock (Deps.clock): working hours in Europe/Amsterdam around the last Sundays
// of March and October (23- and 25-hour days), the slot interval, buffers around pending and confirmed
// appointments (cancelled ones free their time), minimum notice, never a slot in the past, per user, the
// type's duration, paging and the 422 answers.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { appointmentOf, hoursOf, settingsOf, typeOf, userOf } from './fixtures.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
  api.deps.clock = () => new Date('2026-01-01T00:00:00Z');
});

const at = (iso: string) => () => new Date(iso);

async function slots(key: string, query: Record<string, string | number>) {
  const res = await api.call('getAppointmentAvailability', { key, query: { limit: 100, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    data: { starts_at: string; ends_at: string; user_id: string | null }[];
    meta: { next_cursor: string | null; prev_cursor: string | null };
  };
}
const starts = (body: { data: { starts_at: string }[] }) => body.data.map((s) => s.starts_at);

describe('the days the clocks change', () => {
  it('gives 23 hourly slots on Sunday 29 March 2026 and 25 on Sunday 25 October, each 60 real minutes', async () => {
    const { key, companyId } = await api.tenant();
    await settingsOf(api, companyId, { duration: 60, interval: 60 });
    await hoursOf(api, companyId, null, [7], '00:00-24:00');
    const march = await slots(key, { from: '2026-03-29T00:00:00+01:00', until: '2026-03-30T00:00:00+02:00' });
    expect(march.data).toHaveLength(23);
    expect(march.data[0]).toEqual({
      object: 'availability_slot',
      starts_at: '2026-03-28T23:00:00.000Z',
      ends_at: '2026-03-29T00:00:00.000Z',
      user_id: null,
    });
    // 01:00 UTC is 03:00 summer time: the hour 02:00–03:00 does not exist that night.
    expect(starts(march).slice(1, 4)).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T02:00:00.000Z',
    ]);
    expect(march.data.at(-1)?.ends_at).toBe('2026-03-29T22:00:00.000Z');
    const october = await slots(key, { from: '2026-10-25T00:00:00+02:00', until: '2026-10-26T00:00:00+01:00' });
    expect(october.data).toHaveLength(25);
    expect(october.data[0].starts_at).toBe('2026-10-24T22:00:00.000Z');
    expect(october.data.at(-1)).toMatchObject({
      starts_at: '2026-10-25T22:00:00.000Z',
      ends_at: '2026-10-25T23:00:00.000Z',
    });
    for (const s of [...march.data, ...october.data])
      expect(Date.parse(s.ends_at) - Date.parse(s.starts_at)).toBe(3_600_000);
  });

  it('keeps working hours in local time: 09:00 is 08:00 UTC on Friday 27 March and 07:00 UTC on Monday 30 March', async () => {
    const { key, companyId } = await api.tenant();
    await settingsOf(api, companyId, { duration: 60, interval: 60 });
    await hoursOf(api, companyId, null, [1, 2, 3, 4, 5], '09:00-17:00');
    const week = await slots(key, { from: '2026-03-27T00:00:00+01:00', until: '2026-03-31T00:00:00+02:00' });
    const byDay: Record<string, typeof week.data> = {};
    for (const s of week.data) byDay[s.starts_at.slice(0, 10)] = [...(byDay[s.starts_at.slice(0, 10)] ?? []), s];
    expect(Object.keys(byDay)).toEqual(['2026-03-27', '2026-03-30']);
    expect(byDay['2026-03-27']?.map((s) => s.starts_at.slice(11, 16))).toEqual([
      '08:00',
      '09:00',
      '10:00',
      '11:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
    ]);
    expect(byDay['2026-03-30']?.[0].starts_at).toBe('2026-03-30T07:00:00.000Z');
    expect(byDay['2026-03-30']?.at(-1)?.ends_at).toBe('2026-03-30T15:00:00.000Z');
    // The same around October: 09:00 is 07:00 UTC on Friday 23 October and 08:00 UTC on Monday 26 October.
    const autumn = await slots(key, { from: '2026-10-23T00:00:00+02:00', until: '2026-10-27T00:00:00+01:00' });
    expect(autumn.data[0].starts_at).toBe('2026-10-23T07:00:00.000Z');
    expect(autumn.data.find((s) => s.starts_at.startsWith('2026-10-26'))?.starts_at).toBe('2026-10-26T08:00:00.000Z');
  });
});

describe('occupied time, buffers and notice', () => {
  it('keeps the buffer around pending and confirmed appointments; a cancelled one frees its time', async () => {
    const { key, companyId } = await api.tenant();
    await settingsOf(api, companyId, { duration: 60, interval: 30, buffer: 15 });
    await hoursOf(api, companyId, null, [1], '09:00-17:00');
    // Monday 30 March (summer time): 10:00–11:00 confirmed, 14:00–14:30 pending, 15:00–16:00 cancelled.
    await appointmentOf(api, key, { starts_at: '2026-03-30T10:00:00+02:00' });
    await appointmentOf(api, key, {
      starts_at: '2026-03-30T14:00:00+02:00',
      ends_at: '2026-03-30T14:30:00+02:00',
      status: 'pending',
    });
    const cancelled = await appointmentOf(api, key, { starts_at: '2026-03-30T15:00:00+02:00' });
    await api.call('cancelAppointment', { key, params: { appointment: cancelled.id } });
    const day = await slots(key, { from: '2026-03-30T00:00:00+02:00', until: '2026-03-31T00:00:00+02:00' });
    const local = day.data.map((s) => `${Number(s.starts_at.slice(11, 13)) + 2}:${s.starts_at.slice(14, 16)}`);
    // 09:00 would end at 10:00, inside the 15 minutes before 10:00; after 11:00 + 15 the first start is 11:30.
    // 12:30 ends at 13:30, before 13:45 (14:00 minus the buffer): free; 13:00 is not. The pending one ends at
    // 14:30 + 15, so 15:00 is free again (the cancelled appointment takes no time).
    expect(local).toEqual(['11:30', '12:00', '12:30', '15:00', '15:30', '16:00']);
  });

  it('never offers a slot in the past and keeps the minimum notice from the clock', async () => {
    const { key, companyId } = await api.tenant();
    await settingsOf(api, companyId, { duration: 60, interval: 30, notice: 120 });
    await hoursOf(api, companyId, null, [1, 2, 3, 4, 5], '09:00-17:00');
    // Monday 30 March 2026, 10:10 in Amsterdam: the earliest start is 12:10, so 12:30 (10:30 UTC).
    api.deps.clock = at('2026-03-30T08:10:00Z');
    const today = await slots(key, { from: '2026-03-30T00:00:00+02:00', until: '2026-03-31T00:00:00+02:00' });
    expect(today.data[0].starts_at).toBe('2026-03-30T10:30:00.000Z');
    // A period wholly in the past has no slots.
    const past = await slots(key, { from: '2026-03-23T00:00:00+01:00', until: '2026-03-28T00:00:00+01:00' });
    expect(past.data).toEqual([]);
    // The clock at Saturday 28 March 16:00 with 120 minutes notice: Monday 09:00 (07:00 UTC) is the first slot,
    // across the night the clocks change.
    api.deps.clock = at('2026-03-28T15:00:00Z');
    const monday = await slots(key, {
      from: '2026-03-28T00:00:00+01:00',
      until: '2026-04-01T00:00:00+02:00',
      limit: 1,
    });
    expect(monday.data[0].starts_at).toBe('2026-03-30T07:00:00.000Z');
    api.deps.clock = at('2026-01-01T00:00:00Z');
  });
});

describe('users, types, paging and refusals', () => {
  it('gives each user with working hours their own slots, occupied only by their own appointments', async () => {
    const { key, companyId } = await api.tenant();
    await settingsOf(api, companyId, { duration: 60, interval: 60 });
    const sanne = await userOf(api, companyId);
    const piet = await userOf(api, companyId);
    await hoursOf(api, companyId, sanne, [2], '09:00-11:00');
    await hoursOf(api, companyId, piet, [2], '10:00-12:00');
    await appointmentOf(api, key, { starts_at: '2026-03-31T10:00:00+02:00', user_id: String(piet) });
    const tuesday = await slots(key, { from: '2026-03-31T00:00:00+02:00', until: '2026-04-01T00:00:00+02:00' });
    expect(tuesday.data.map((s) => [s.starts_at.slice(11, 16), s.user_id])).toEqual([
      ['07:00', String(sanne)],
      ['08:00', String(sanne)],
      ['09:00', String(piet)],
    ]);
    const onlyPiet = await slots(key, {
      from: '2026-03-31T00:00:00+02:00',
      until: '2026-04-01T00:00:00+02:00',
      user_id: String(piet),
    });
    expect(onlyPiet.data.map((s) => s.user_id)).toEqual([String(piet)]);
  });

  it('takes the duration of the type, pages with cursors both ways, and refuses bad requests with 422', async () => {
    const { key, companyId } = await api.tenant();
    await settingsOf(api, companyId, { duration: 60, interval: 30 });
    await hoursOf(api, companyId, null, [3], '09:00-12:00');
    const long = await typeOf(api, companyId, { durationMinutes: 120 });
    const wednesday = { from: '2026-04-01T00:00:00+02:00', until: '2026-04-02T00:00:00+02:00' };
    const typed = await slots(key, { ...wednesday, appointment_type_id: long });
    expect(typed.data.map((s) => [s.starts_at.slice(11, 16), s.ends_at.slice(11, 16)])).toEqual([
      ['07:00', '09:00'],
      ['07:30', '09:30'],
      ['08:00', '10:00'],
    ]);
    const first = await slots(key, { ...wednesday, limit: 2 });
    const second = await slots(key, { ...wednesday, limit: 2, cursor: first.meta.next_cursor ?? '' });
    const back = await slots(key, { ...wednesday, limit: 2, cursor: second.meta.prev_cursor ?? '' });
    expect(starts(back)).toEqual(starts(first));
    expect(starts(second)[0] > starts(first)[1]).toBe(true);
    expect(first.meta.prev_cursor).toBeNull();

    const refused = async (query: Record<string, string>, parameter: string, code: string) => {
      const res = await api.call('getAppointmentAvailability', { key, query });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ parameter, code });
    };
    await refused({ from: wednesday.until, until: wednesday.from }, 'until', 'too_small');
    await refused({ from: '2026-04-01T00:00:00Z', until: '2026-05-02T00:00:01Z' }, 'until', 'too_big');
    await refused({ ...wednesday, user_id: '999999' }, 'user_id', 'invalid_reference');
    await refused(
      { ...wednesday, appointment_type_id: crypto.randomUUID() },
      'appointment_type_id',
      'invalid_reference',
    );
    await refused({ ...wednesday, cursor: 'bm90IGpzb24' }, 'cursor', 'invalid_cursor');
  });

  it('offers Monday to Friday 09:00–17:00 to a company without working hours', async () => {
    const { key } = await api.tenant();
    const week = await slots(key, { from: '2026-04-04T00:00:00+02:00', until: '2026-04-07T00:00:00+02:00' });
    expect(week.data[0].starts_at).toBe('2026-04-06T07:00:00.000Z');
    expect(week.data.at(-1)?.ends_at).toBe('2026-04-06T15:00:00.000Z');
  });
});
