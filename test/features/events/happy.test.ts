// The event feed on real changes: every field of every event against the REST shapes the API answered, both
// orders, the type and time filters, cursors both ways, and the 30-day window (the purge: retention.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

const EVT = /^evt_[0-9A-Za-z]{22}$/;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Expected = { type: string; object: Record<string, unknown>; at?: string };
/** What happened, oldest first, with the REST object each change answered. */
let happened: Expected[];
/** The listed events, oldest first. */
let occurred: { id: string; type: string; created_at: string }[];

// Event times are the millisecond of their transaction; a pause keeps two changes out of one millisecond,
// so their order is the order of occurrence and not the id tie-break.
const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

async function call(operation: Parameters<TestApi['call']>[0], opts: Parameters<TestApi['call']>[1], status: number) {
  await pause();
  const res = await api.call(operation, opts);
  expect(res.status).toBe(status);
  return res.body.data;
}

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const created = await call('createCustomer', { key, body: { email: 'dekker@example.nl', name: 'Peter' } }, 201);
  const customer = created.id;
  const updated = await call('updateCustomer', { key, params: { customer }, body: { city: 'Utrecht' } }, 200);
  const note = await call('createCustomerNote', { key, params: { customer }, body: { content: 'Belde' } }, 201);
  const noteChanged = await call(
    'updateCustomerNote',
    { key, params: { customer, note: note.id }, body: { is_important: true } },
    200,
  );
  const converted = await call('convertCustomer', { key, params: { customer } }, 200);
  await call('deleteCustomerNote', { key, params: { customer, note: note.id } }, 200);
  happened = [
    { type: 'customer.created', object: created, at: created.created_at },
    { type: 'customer.updated', object: updated, at: updated.updated_at },
    { type: 'note.created', object: note, at: note.created_at },
    { type: 'note.updated', object: noteChanged, at: noteChanged.updated_at },
    { type: 'customer.converted', object: converted, at: converted.updated_at },
    // The deletion answers no time; the event carries the note as it was before it.
    { type: 'note.deleted', object: noteChanged },
  ];
  const res = await api.call('listEvents', { key, query: { sort: 'created_at' } });
  occurred = res.body.data;
});

const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((e) => e.id);
const typesOf = (res: { body: { data: { type: string }[] } }) => res.body.data.map((e) => e.type);

describe('listEvents', () => {
  it('lists every change newest first by default, each event in the contract shape with the REST object', async () => {
    const res = await api.call('listEvents', { key });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
    const expected = [...happened].reverse();
    expect(res.body.data).toHaveLength(expected.length);
    for (const [i, event] of res.body.data.entries()) {
      expect(event).toEqual({
        object: 'event',
        id: expect.stringMatching(EVT),
        type: expected[i].type,
        created_at: expected[i].at ?? expect.stringMatching(ISO_Z),
        data: { object: expected[i].object },
      });
    }
    expect(new Set(idsOf(res)).size).toBe(expected.length);
    const times = res.body.data.map((e: { created_at: string }) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(times[0]).toBeGreaterThan(times[1]); // the deletion came last
  });

  it('sort=-created_at is the default and sort=created_at is the order of occurrence', async () => {
    const newest = await api.call('listEvents', { key, query: { sort: '-created_at' } });
    expect(idsOf(newest)).toEqual(idsOf(await api.call('listEvents', { key })));
    expect(occurred.map((e) => e.type)).toEqual(happened.map((e) => e.type));
    expect(idsOf(newest)).toEqual(occurred.map((e) => e.id).reverse());
  });

  it('filter[type] takes one type or a comma-separated list', async () => {
    const one = await api.call('listEvents', { key, query: { 'filter[type]': 'note.created' } });
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0]).toEqual({
      object: 'event',
      id: occurred[2].id,
      type: 'note.created',
      created_at: happened[2].at,
      data: { object: happened[2].object },
    });
    const list = await api.call('listEvents', {
      key,
      query: { 'filter[type]': 'customer.created,note.deleted,customer.converted', sort: 'created_at' },
    });
    expect(typesOf(list)).toEqual(['customer.created', 'customer.converted', 'note.deleted']);
    const repeated = await api.call('listEvents', { key, query: { 'filter[type]': 'note.updated,note.updated' } });
    expect(typesOf(repeated)).toEqual(['note.updated']);
  });

  it('filter[type] with known types that did not happen lists nothing', async () => {
    const res = await api.call('listEvents', { key, query: { 'filter[type]': 'deal.won,deal.lost' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('filter[created_since] lists the events at or after that moment, whatever its zone', async () => {
    const since = occurred[2].created_at;
    const res = await api.call('listEvents', { key, query: { 'filter[created_since]': since, sort: 'created_at' } });
    expect(idsOf(res)).toEqual(occurred.slice(2).map((e) => e.id));
    // The same instant written in another zone.
    const t = new Date(Date.parse(since) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const zoned = await api.call('listEvents', { key, query: { 'filter[created_since]': t, sort: 'created_at' } });
    expect(idsOf(zoned)).toEqual(occurred.slice(2).map((e) => e.id));
    // A tenth of a millisecond later excludes the event of that millisecond.
    const finer = since.replace('Z', '1Z');
    const after = await api.call('listEvents', { key, query: { 'filter[created_since]': finer, sort: 'created_at' } });
    expect(idsOf(after)).toEqual(occurred.slice(3).map((e) => e.id));
    const future = await api.call('listEvents', { key, query: { 'filter[created_since]': '2999-01-01T00:00:00Z' } });
    expect(future.body.data).toEqual([]);
  });

  it('filter[created_since] far in the past or future still answers', async () => {
    const past = await api.call('listEvents', { key, query: { 'filter[created_since]': '0001-01-01T00:00:00Z' } });
    expect(past.status).toBe(200);
    expect(past.body.data).toHaveLength(happened.length);
    const far = await api.call('listEvents', {
      key,
      query: { 'filter[created_since]': '9999-12-31T23:59:59.999999Z' },
    });
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
  });

  it('filters combine', async () => {
    const res = await api.call('listEvents', {
      key,
      query: { 'filter[type]': 'customer.created,customer.converted', 'filter[created_since]': occurred[1].created_at },
    });
    expect(idsOf(res)).toEqual([occurred[4].id]);
  });
});

describe('pagination', () => {
  it('pages newest first with next_cursor and back with prev_cursor', async () => {
    const all = occurred.map((e) => e.id).reverse();
    const p1 = await api.call('listEvents', { key, query: { limit: 4 } });
    expect(idsOf(p1)).toEqual(all.slice(0, 4));
    expect(p1.body.meta).toEqual({ limit: 4, next_cursor: expect.any(String), prev_cursor: null });
    const p2 = await api.call('listEvents', { key, query: { limit: 4, cursor: p1.body.meta.next_cursor } });
    expect(idsOf(p2)).toEqual(all.slice(4));
    expect(p2.body.meta.next_cursor).toBeNull();
    expect(p2.body.meta.prev_cursor).toEqual(expect.any(String));
    const back = await api.call('listEvents', { key, query: { limit: 4, cursor: p2.body.meta.prev_cursor } });
    expect(idsOf(back)).toEqual(all.slice(0, 4));
    expect(back.body.meta.prev_cursor).toBeNull();
    expect(back.body.meta.next_cursor).toEqual(expect.any(String));
  });

  it('pages in order of occurrence with limit 1 and keeps the filter', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await api.call('listEvents', {
        key,
        query: {
          limit: 1,
          sort: 'created_at',
          cursor,
          'filter[type]': 'customer.created,customer.updated,note.created',
        },
      });
      seen.push(...idsOf(res));
      cursor = res.body.meta.next_cursor ?? undefined;
      if (!cursor) break;
    }
    expect(seen).toEqual([occurred[0].id, occurred[1].id, occurred[2].id]);
  });
});

describe('getEvent', () => {
  it('answers each listed event as listed', async () => {
    const list = await api.call('listEvents', { key });
    for (const event of list.body.data) {
      const res = await api.call('getEvent', { key, params: { event: event.id } });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBeNull();
      expect(res.body).toEqual({ data: event });
    }
  });
});

describe('the 30-day window', () => {
  it('leaves out events older than 30 days and keeps those just inside', async () => {
    const t = await api.tenant();
    const ids: string[] = [];
    for (const email of ['oud@example.nl', 'bijna@example.nl', 'nieuw@example.nl']) {
      const res = await api.call('createCustomer', { key: t.key, body: { email } });
      ids.push((await api.sql`select id from events where customer_id = ${res.body.data.id}`)[0].id);
    }
    await api.sql`update events set created_at = now() - interval '30 days 1 minute' where id = ${ids[0]}`;
    await api.sql`update events set created_at = now() - interval '29 days 23 hours' where id = ${ids[1]}`;
    const res = await api.call('listEvents', { key: t.key });
    expect(idsOf(res)).toEqual([ids[2], ids[1]]);
    const since = await api.call('listEvents', {
      key: t.key,
      query: { 'filter[created_since]': '2000-01-01T00:00:00Z' },
    });
    expect(idsOf(since)).toEqual([ids[2], ids[1]]);
    expect((await api.call('getEvent', { key: t.key, params: { event: ids[0] } })).status).toBe(404);
    expect((await api.call('getEvent', { key: t.key, params: { event: ids[1] } })).status).toBe(200);
  });
});
