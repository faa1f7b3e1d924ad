// Every error of listEvents and getEvent: the scope, 404s (unknown, other company, too old), and invalid
// parameters answered 422 with the parameter's name.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let eventId: string;

const MISSING = 'evt_0000000000000000000000';

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const res = await api.call('createCustomer', { key, body: { email: 'fout@example.nl' } });
  expect(res.status).toBe(201);
  eventId = (await api.call('listEvents', { key })).body.data[0].id;
});

function expectParameterError(res: { status: number; body: { code: string; errors: unknown[] } }, parameter: string) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe('validation_failed');
  // One input can break several rules (too long and not matching the pattern): each is listed, all on it.
  expect(res.body.errors.length).toBeGreaterThan(0);
  for (const error of res.body.errors) expect(error).toMatchObject({ pointer: null, parameter });
}

describe('scope', () => {
  it('both operations need events.read, even with every other scope', async () => {
    const t = await api.company();
    const { key: noEvents } = await api.key(t.id, {
      scopes: ['customers.read', 'customers.write', 'deals.read', 'webhooks.manage'],
    });
    for (const res of [
      await api.call('listEvents', { key: noEvents }),
      await api.call('getEvent', { key: noEvents, params: { event: eventId } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'events.read' });
    }
  });

  it('without a key answers 401', async () => {
    expect((await api.call('listEvents', {})).status).toBe(401);
    expect((await api.call('getEvent', { params: { event: eventId } })).status).toBe(401);
  });
});

describe('getEvent 404', () => {
  it('an unknown id', async () => {
    const res = await api.call('getEvent', { key, params: { event: MISSING } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it("another company's event", async () => {
    const other = await api.tenant();
    const res = await api.call('getEvent', { key: other.key, params: { event: eventId } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await api.call('getEvent', { key, params: { event: eventId } })).status).toBe(200);
  });

  it('an event older than 30 days', async () => {
    const created = await api.call('createCustomer', { key, body: { email: 'oud@example.nl' } });
    const [{ id }] = await api.sql`select id from events where customer_id = ${created.body.data.id}`;
    expect((await api.call('getEvent', { key, params: { event: id } })).status).toBe(200);
    await api.sql`update events set created_at = now() - interval '31 days' where id = ${id}`;
    const res = await api.call('getEvent', { key, params: { event: id } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await api.call('listEvents', { key })).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
  });

  it('an id that is not an event id answers 422 on the path parameter', async () => {
    for (const event of ['evt_', 'evt_abc-def', `evt_${'a'.repeat(65)}`]) {
      const res = await api.call('getEvent', { key, params: { event } });
      expectParameterError(res, 'event');
    }
    // Another kind of id never names an event.
    const res = await api.call('getEvent', { key, params: { event: 'req_0000000000000000000000' } });
    expect(res.status).not.toBe(200);
  });
});

describe('listEvents 422', () => {
  it('an unknown event type in filter[type], alone or in a list', async () => {
    for (const value of ['customer.deleted', 'note.created,deal.archived', 'task.deleted']) {
      const res = await api.call('listEvents', { key, query: { 'filter[type]': value } });
      expectParameterError(res, 'filter[type]');
      expect(res.body.errors[0].code).toBe('invalid_enum');
    }
  });

  it.each([
    ['empty', ''],
    ['no dot', 'ping'],
    ['upper case', 'Customer.created'],
    ['a space', 'customer.created, note.created'],
    ['a trailing comma', 'customer.created,'],
    ['a wildcard', '*'],
    ['longer than 500 characters', Array.from({ length: 30 }, () => 'customer.created').join(',')],
  ])('filter[type] with %s', async (_, value) => {
    const res = await api.call('listEvents', { key, query: { 'filter[type]': value } });
    expectParameterError(res, 'filter[type]');
  });

  it.each([
    ['without a zone', '2026-03-14T00:00:00'],
    ['a date only', '2026-03-14'],
    ['not a date', 'gisteren'],
    ['an impossible date', '2026-02-30T00:00:00Z'],
  ])('filter[created_since] %s', async (_, value) => {
    const res = await api.call('listEvents', { key, query: { 'filter[created_since]': value } });
    expectParameterError(res, 'filter[created_since]');
  });

  it('a sort other than created_at', async () => {
    for (const sort of ['updated_at', '-id', 'type']) {
      expectParameterError(await api.call('listEvents', { key, query: { sort } }), 'sort');
    }
  });

  it('an unknown filter', async () => {
    const res = await api.call('listEvents', { key, query: { 'filter[customer_id]': 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'filter[customer_id]' })]);
  });

  it('a limit out of range', async () => {
    for (const limit of [0, 101])
      expectParameterError(await api.call('listEvents', { key, query: { limit } }), 'limit');
  });

  it('a damaged cursor, or one of the other sort order', async () => {
    await api.call('createCustomer', { key, body: { email: 'tweede@example.nl' } });
    const page = await api.call('listEvents', { key, query: { limit: 1 } });
    const cursor = page.body.meta.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expectParameterError(await api.call('listEvents', { key, query: { cursor, sort: 'created_at' } }), 'cursor');
    expectParameterError(await api.call('listEvents', { key, query: { cursor: 'bm90LWpzb24' } }), 'cursor');
    const bad = Buffer.from(JSON.stringify({ s: '-created_at', v: ['gisteren', 'evt_x'], d: 'n' })).toString(
      'base64url',
    );
    expectParameterError(await api.call('listEvents', { key, query: { cursor: bad } }), 'cursor');
  });
});
