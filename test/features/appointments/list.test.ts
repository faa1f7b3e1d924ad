// Listing appointments: filter[starts_from] is inclusive and filter[starts_until] exclusive (to the
// millisecond), a starts_at sort leaves invitations out and pages by cursor, and the other filters.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { appointmentOf, customerOf, typeOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
const ids: Record<string, string> = {};
let customer: string;
let user: number;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  customer = await customerOf(api, key);
  user = await userOf(api, companyId);
  ids.monday = (await appointmentOf(api, key, { starts_at: '2026-03-16T00:00:00+01:00', customer_id: customer })).id;
  ids.sunday = (
    await appointmentOf(api, key, { starts_at: '2026-03-22T23:59:59.999+01:00', user_id: String(user) })
  ).id;
  ids.nextMonday = (await appointmentOf(api, key, { starts_at: '2026-03-23T00:00:00+01:00', status: 'pending' })).id;
  ids.before = (await appointmentOf(api, key, { starts_at: '2026-03-15T23:59:00+01:00' })).id;
  ids.invitation = (await appointmentOf(api, key, { starts_at: null })).id;
});

const list = async (query: Record<string, string | number>) => {
  const res = await api.call('listAppointments', { key, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const idsOf = (body: { data: { id: string }[] }) => body.data.map((a) => a.id);

describe('listAppointments', () => {
  it('selects one week: from Monday midnight inclusive to the next Monday midnight exclusive', async () => {
    const week = await list({
      'filter[starts_from]': '2026-03-16T00:00:00+01:00',
      'filter[starts_until]': '2026-03-23T00:00:00+01:00',
      sort: 'starts_at',
    });
    expect(idsOf(week)).toEqual([ids.monday, ids.sunday]);
    // A finer instant rounds to the next millisecond in both bounds.
    const fine = await list({
      'filter[starts_from]': '2026-03-15T23:00:00.0001Z',
      'filter[starts_until]': '2026-03-22T22:59:59.9991Z',
      sort: 'starts_at',
    });
    expect(idsOf(fine)).toEqual([ids.sunday]);
  });

  it('sorts on starts_at without invitations, both ways, page by page', async () => {
    const all = [ids.before, ids.monday, ids.sunday, ids.nextMonday];
    expect(idsOf(await list({ sort: 'starts_at' }))).toEqual(all);
    expect(idsOf(await list({ sort: '-starts_at' }))).toEqual([...all].reverse());
    const first = await list({ sort: 'starts_at', limit: 3 });
    expect(idsOf(first)).toEqual(all.slice(0, 3));
    const second = await list({ sort: 'starts_at', limit: 3, cursor: first.meta.next_cursor });
    expect(idsOf(second)).toEqual(all.slice(3));
    expect(second.meta.next_cursor).toBeNull();
    // The default sort (newest first) includes the invitation.
    expect(idsOf(await list({}))).toEqual([ids.invitation, ids.before, ids.nextMonday, ids.sunday, ids.monday]);
  });

  it('filters on status, customer, user and updated_since', async () => {
    expect(idsOf(await list({ 'filter[status]': 'pending' })).sort()).toEqual([ids.invitation, ids.nextMonday].sort());
    expect(idsOf(await list({ 'filter[customer_id]': customer }))).toEqual([ids.monday]);
    expect(idsOf(await list({ 'filter[user_id]': String(user) }))).toEqual([ids.sunday]);
    expect(idsOf(await list({ 'filter[updated_since]': '2100-01-01T00:00:00Z' }))).toEqual([]);
  });
});

describe('listAppointmentTypes', () => {
  it('lists by name, filters on is_active', async () => {
    const other = await setupApi();
    const t = await other.tenant();
    const b = await typeOf(other, t.companyId, { name: 'B advies', durationMinutes: 60 });
    const a = await typeOf(other, t.companyId, { name: 'A onderhoud', durationMinutes: 120 });
    const c = await typeOf(other, t.companyId, { name: 'C oud', active: false });
    const res = await other.call('listAppointmentTypes', { key: t.key });
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([a, b, c]);
    expect(res.body.data[0]).toMatchObject({
      object: 'appointment_type',
      name: 'A onderhoud',
      duration_minutes: 120,
      is_active: true,
    });
    const active = await other.call('listAppointmentTypes', {
      key: t.key,
      query: { 'filter[is_active]': 'true', sort: '-name' },
    });
    expect(active.body.data.map((x: { id: string }) => x.id)).toEqual([b, a]);
  });
});
