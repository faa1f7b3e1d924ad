// The demo company has appointments in every status, types, and bookable technicians with free slots.
import { beforeAll, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

it('fills the demo company with appointments, types and working hours', async () => {
  const { key } = await createDemo(api.db);
  const list = await api.call('listAppointments', { key });
  expect(list.status).toBe(200);
  expect(new Set(list.body.data.map((a: { status: string }) => a.status))).toEqual(
    new Set(['pending', 'confirmed', 'cancelled', 'completed']),
  );
  expect(list.body.data.some((a: { starts_at: string | null }) => a.starts_at === null)).toBe(true);
  const types = await api.call('listAppointmentTypes', { key });
  expect(types.body.data).toHaveLength(2);
  const from = new Date(Date.now() + 86_400_000);
  const until = new Date(from.getTime() + 7 * 86_400_000);
  const slots = await api.call('getAppointmentAvailability', {
    key,
    query: { from: from.toISOString(), until: until.toISOString(), appointment_type_id: types.body.data[0].id },
  });
  expect(slots.status).toBe(200);
  expect(new Set(slots.body.data.map((s: { user_id: string }) => s.user_id)).size).toBe(2);
});
