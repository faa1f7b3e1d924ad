// A cursor is opaque, but a client can still decode, edit and re-encode one. Every value PostgreSQL or the
// driver cannot take must be refused as a damaged cursor (422 on `cursor`), never reach the database (500).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let customerId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  customerId = (await api.call('createCustomer', { key, body: { email: 'cursor@example.nl' } })).body.data.id;
});

const cursorOf = (values: unknown[], sort = '-created_at') =>
  Buffer.from(JSON.stringify({ s: sort, v: values, d: 'n' })).toString('base64url');

function expectDamagedCursor(res: { status: number; body: { code: string; errors: unknown[] } }, label: string) {
  expect(res.status, label).toBe(422);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
}

// Valid JavaScript dates PostgreSQL refuses (year 0 and before, after 9999), and an id that is no string.
const TAMPERED: [string, unknown[]][] = [
  ['year 0000', ['0000-01-01T00:00:00Z', 'evt_x']],
  ['year +275760', ['+275760-09-13T00:00:00Z', 'evt_x']],
  ['year -000001', ['-000001-01-01T00:00:00Z', 'evt_x']],
  ['year 10000', ['10000-01-01', 'evt_x']],
  ['year 1 in UTC only after its offset', ['0001-01-01T00:30:00+01:00', 'evt_x']],
  ['a number as the time', [1773477000000, 'evt_x']],
  ['a boolean as the id', ['2026-03-14T09:30:00Z', true]],
  ['a number as the id', ['2026-03-14T09:30:00Z', 7]],
  ['an object as the id', ['2026-03-14T09:30:00Z', { id: 'evt_x' }]],
  ['U+0000 in the id', ['2026-03-14T09:30:00Z', 'evt_\u0000']],
];

describe('a tampered cursor answers 422 invalid_cursor', () => {
  it.each(TAMPERED)('listEvents: %s', async (label, values) => {
    expectDamagedCursor(await api.call('listEvents', { key, query: { cursor: cursorOf(values) } }), label);
  });

  it.each(TAMPERED)('listCustomerTimeline: %s', async (label, values) => {
    const res = await api.call('listCustomerTimeline', {
      key,
      params: { customer: customerId },
      query: { cursor: cursorOf(values) },
    });
    expectDamagedCursor(res, label);
  });
});

describe('the edges of what PostgreSQL and toISOString agree on still page', () => {
  it.each([
    ['0001-01-01T00:00:00Z', 'ascending', 'created_at', 1],
    ['9999-12-31T23:59:59.999Z', 'descending', '-created_at', 1],
    ['9999-12-31T23:59:59.999Z', 'ascending', 'created_at', 0],
  ])('%s %s', async (time, _, sort, count) => {
    const res = await api.call('listEvents', { key, query: { sort, cursor: cursorOf([time, 'evt_x'], sort) } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(count);
  });
});
