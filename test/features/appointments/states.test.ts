// The state table of appointments: every action (update, confirm, cancel, complete) from every state (pending
// with a time, pending invitation, confirmed, cancelled, completed), allowed or refused with 409, and what an
// allowed one changes and records.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { appointmentOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

type State = 'pending' | 'invitation' | 'confirmed' | 'cancelled' | 'completed';
type Action = 'update' | 'confirm' | 'cancel' | 'complete';

/** A new appointment in `state`, reached through the API. */
async function inState(state: State) {
  const a = await appointmentOf(api, key, {
    status: state === 'confirmed' || state === 'completed' ? 'confirmed' : 'pending',
    starts_at: state === 'invitation' ? null : '2026-03-16T09:00:00+01:00',
  });
  if (state === 'cancelled') await api.call('cancelAppointment', { key, params: { appointment: a.id } });
  if (state === 'completed') await api.call('completeAppointment', { key, params: { appointment: a.id } });
  return a.id as string;
}

function act(action: Action, id: string) {
  const params = { appointment: id };
  if (action === 'update') return api.call('updateAppointment', { key, params, body: { title: 'Nieuwe titel' } });
  if (action === 'confirm') return api.call('confirmAppointment', { key, params });
  if (action === 'cancel')
    return api.call('cancelAppointment', { key, params, body: { cancellation_reason: 'Monteur is ziek' } });
  return api.call('completeAppointment', { key, params });
}

// [state, action, status after, or the 409 detail]
const TABLE: [State, Action, string | RegExp][] = [
  ['pending', 'update', 'pending'],
  ['pending', 'confirm', 'confirmed'],
  ['pending', 'cancel', 'cancelled'],
  ['pending', 'complete', /Only a confirmed appointment can be completed; this one is pending/],
  ['invitation', 'update', 'pending'],
  ['invitation', 'confirm', /This invitation has no start yet/],
  ['invitation', 'cancel', 'cancelled'],
  ['invitation', 'complete', /this one is pending/],
  ['confirmed', 'update', 'confirmed'],
  ['confirmed', 'confirm', /Only a pending appointment can be confirmed; this one is confirmed/],
  ['confirmed', 'cancel', 'cancelled'],
  ['confirmed', 'complete', 'completed'],
  ['cancelled', 'update', /Only a pending or confirmed appointment can be changed; this one is cancelled/],
  ['cancelled', 'confirm', /this one is cancelled/],
  ['cancelled', 'cancel', /Only a pending or confirmed appointment can be cancelled; this one is cancelled/],
  ['cancelled', 'complete', /this one is cancelled/],
  ['completed', 'update', /can be changed; this one is completed/],
  ['completed', 'confirm', /this one is completed/],
  ['completed', 'cancel', /can be cancelled; this one is completed/],
  ['completed', 'complete', /this one is completed/],
];

const EVENT = {
  update: 'appointment.updated',
  confirm: 'appointment.updated',
  cancel: 'appointment.cancelled',
  complete: 'appointment.updated',
};

describe('the state table', () => {
  it.each(TABLE)('%s → %s: %s', async (state, action, expected) => {
    const id = await inState(state);
    const before = await api.call('getAppointment', { key, params: { appointment: id } });
    const res = await act(action, id);
    if (typeof expected === 'string') {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.status).toBe(expected);
      const [last] = await api.sql<{ type: string }[]>`
        select type from events where company_id = ${companyId} and data->'object'->>'id' = ${id} order by id desc limit 1`;
      expect(last.type).toBe(EVENT[action]);
    } else {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
      expect(res.body.detail).toMatch(expected);
      const after = await api.call('getAppointment', { key, params: { appointment: id } });
      expect(after.body).toEqual(before.body);
    }
  });

  it('confirm sets confirmed_at, cancel sets cancelled_at and the reason; both honour If-Match', async () => {
    const id = await inState('pending');
    const stale = await api.call('confirmAppointment', {
      key,
      params: { appointment: id },
      headers: { 'if-match': '"7"' },
    });
    expect(stale.status).toBe(412);
    const confirmed = await api.call('confirmAppointment', {
      key,
      params: { appointment: id },
      headers: { 'if-match': '"1"' },
    });
    expect(confirmed.body.data.confirmed_at).toBe(confirmed.body.data.updated_at);
    const cancelled = await act('cancel', id);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancellation_reason: 'Monteur is ziek' });
    expect(cancelled.body.data.cancelled_at).toBe(cancelled.body.data.updated_at);
    expect(cancelled.headers.get('etag')).toBe('"3"');
  });
});
