// listCustomers: keyset pagination in both directions, sort orders, filters and the `q` search.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

type Customer = { id: string; email: string; created_at: string; updated_at: string };

/** A company with `n` customers created one after another; ids in creation order. */
async function companyWith(n: number, prefix = 'klant') {
  const t = await api.tenant();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.call('createCustomer', { key: t.key, body: { email: `${prefix}${i}@example.nl` } });
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  return { key: t.key, companyId: t.companyId, ids };
}

const idsOf = (res: { body: { data: Customer[] } }) => res.body.data.map((c) => c.id);

describe('order', () => {
  it('is -created_at (newest first) by default and created_at ascending on request', async () => {
    const { key, ids } = await companyWith(5);
    // Give every customer a distinct created_at so the order is not only the id tie-break.
    for (const [i, id] of ids.entries())
      await api.sql`update customers set created_at = now() - make_interval(days => ${10 - i}) where id = ${id}`;
    const byDefault = await api.call('listCustomers', { key });
    expect(idsOf(byDefault)).toEqual([...ids].reverse());
    const explicit = await api.call('listCustomers', { key, query: { sort: '-created_at' } });
    expect(idsOf(explicit)).toEqual([...ids].reverse());
    const ascending = await api.call('listCustomers', { key, query: { sort: 'created_at' } });
    expect(idsOf(ascending)).toEqual(ids);
  });

  it('sort=updated_at orders by the last change', async () => {
    const { key, ids } = await companyWith(3);
    await api.call('updateCustomer', { key, params: { customer: ids[0] }, body: { name: 'Later' } });
    await api.sql`update customers set updated_at = updated_at + interval '1 hour' where id = ${ids[0]}`;
    const asc = await api.call('listCustomers', { key, query: { sort: 'updated_at' } });
    expect(idsOf(asc).at(-1)).toBe(ids[0]);
    const desc = await api.call('listCustomers', { key, query: { sort: '-updated_at' } });
    expect(idsOf(desc)[0]).toBe(ids[0]);
  });
});

describe('pagination', () => {
  it('walks forward and back over 7 records with limit 3, without gaps or duplicates', async () => {
    const { key, ids } = await companyWith(7);
    const newestFirst = [...ids].reverse();

    const p1 = await api.call('listCustomers', { key, query: { limit: 3 } });
    expect(p1.status).toBe(200);
    expect(idsOf(p1)).toEqual(newestFirst.slice(0, 3));
    expect(p1.body.meta.limit).toBe(3);
    expect(p1.body.meta.prev_cursor).toBeNull();
    expect(p1.body.meta.next_cursor).toEqual(expect.any(String));

    const p2 = await api.call('listCustomers', { key, query: { limit: 3, cursor: p1.body.meta.next_cursor } });
    expect(p2.status).toBe(200);
    expect(idsOf(p2)).toEqual(newestFirst.slice(3, 6));
    expect(p2.body.meta.prev_cursor).toEqual(expect.any(String));
    expect(p2.body.meta.next_cursor).toEqual(expect.any(String));

    const p3 = await api.call('listCustomers', { key, query: { limit: 3, cursor: p2.body.meta.next_cursor } });
    expect(idsOf(p3)).toEqual(newestFirst.slice(6));
    expect(p3.body.meta.next_cursor).toBeNull();
    expect(p3.body.meta.prev_cursor).toEqual(expect.any(String));

    const all = [...idsOf(p1), ...idsOf(p2), ...idsOf(p3)];
    expect(all).toEqual(newestFirst);
    expect(new Set(all).size).toBe(7);

    // And back again.
    const back2 = await api.call('listCustomers', { key, query: { limit: 3, cursor: p3.body.meta.prev_cursor } });
    expect(idsOf(back2)).toEqual(newestFirst.slice(3, 6));
    expect(back2.body.meta.next_cursor).toEqual(expect.any(String));
    expect(back2.body.meta.prev_cursor).toEqual(expect.any(String));
    const back1 = await api.call('listCustomers', { key, query: { limit: 3, cursor: back2.body.meta.prev_cursor } });
    expect(idsOf(back1)).toEqual(newestFirst.slice(0, 3));
    expect(back1.body.meta.prev_cursor).toBeNull();
    // Forward again from the page reached backwards.
    const again = await api.call('listCustomers', { key, query: { limit: 3, cursor: back1.body.meta.next_cursor } });
    expect(idsOf(again)).toEqual(newestFirst.slice(3, 6));
  });

  it('walks an ascending sort the same way', async () => {
    const { key, ids } = await companyWith(5, 'asc');
    const p1 = await api.call('listCustomers', { key, query: { limit: 2, sort: 'created_at' } });
    const p2 = await api.call('listCustomers', {
      key,
      query: { limit: 2, sort: 'created_at', cursor: p1.body.meta.next_cursor },
    });
    const p3 = await api.call('listCustomers', {
      key,
      query: { limit: 2, sort: 'created_at', cursor: p2.body.meta.next_cursor },
    });
    expect([...idsOf(p1), ...idsOf(p2), ...idsOf(p3)]).toEqual(ids);
    expect(p3.body.meta.next_cursor).toBeNull();
    const back = await api.call('listCustomers', {
      key,
      query: { limit: 2, sort: 'created_at', cursor: p3.body.meta.prev_cursor },
    });
    expect(idsOf(back)).toEqual(ids.slice(2, 4));
  });

  it('a page of exactly the remaining records has no next_cursor', async () => {
    const { key } = await companyWith(3, 'exact');
    const res = await api.call('listCustomers', { key, query: { limit: 3 } });
    expect(res.body.data).toHaveLength(3);
    expect(res.body.meta).toEqual({ limit: 3, next_cursor: null, prev_cursor: null });
  });

  it('records inserted after taking a cursor do not shift the next page', async () => {
    const { key, ids } = await companyWith(6, 'shift');
    const newestFirst = [...ids].reverse();
    const p1 = await api.call('listCustomers', { key, query: { limit: 3 } });
    expect(idsOf(p1)).toEqual(newestFirst.slice(0, 3));
    for (let i = 0; i < 2; i++) await api.call('createCustomer', { key, body: { email: `nieuwer${i}@example.nl` } });
    const p2 = await api.call('listCustomers', { key, query: { limit: 3, cursor: p1.body.meta.next_cursor } });
    expect(idsOf(p2)).toEqual(newestFirst.slice(3, 6));
  });

  it('ties on created_at are broken by id without losing records', async () => {
    const { key, ids } = await companyWith(5, 'tie');
    await api.sql`update customers set created_at = '2026-01-01T00:00:00Z' where id = any(${ids})`;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api.call('listCustomers', { key, query: { limit: 2, cursor } });
      seen.push(...idsOf(res));
      cursor = res.body.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it.each([0, 101, -1, 'abc'])('limit=%s answers 422 for parameter limit', async (limit) => {
    const { key } = await api.tenant();
    const res = await api.call('listCustomers', { key, query: { limit } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'limit', pointer: null })]);
  });

  it('limit 1 and 100 are accepted', async () => {
    const { key } = await companyWith(2, 'grens');
    expect((await api.call('listCustomers', { key, query: { limit: 1 } })).body.data).toHaveLength(1);
    expect((await api.call('listCustomers', { key, query: { limit: 100 } })).body.meta.limit).toBe(100);
  });

  it('a cursor used with another sort answers 422 invalid_cursor', async () => {
    const { key } = await companyWith(3, 'sort');
    const p1 = await api.call('listCustomers', { key, query: { limit: 1 } });
    const res = await api.call('listCustomers', {
      key,
      query: { limit: 1, sort: 'created_at', cursor: p1.body.meta.next_cursor },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0]).toMatchObject({ parameter: 'cursor', code: 'invalid_cursor' });
  });

  it.each([
    ['garbage', 'not-a-cursor!!'],
    ['base64 of non-JSON', Buffer.from('hello').toString('base64url')],
    ['wrong shape', Buffer.from(JSON.stringify({ s: '-created_at' })).toString('base64url')],
    [
      'bad date',
      Buffer.from(JSON.stringify({ s: '-created_at', v: ['yesterday', 'x'], d: 'n' })).toString('base64url'),
    ],
    [
      'bad id',
      Buffer.from(JSON.stringify({ s: '-created_at', v: ['2026-01-01T00:00:00.000Z', 'nope'], d: 'n' })).toString(
        'base64url',
      ),
    ],
  ])('a damaged cursor (%s) answers 422 invalid_cursor', async (_, cursor) => {
    const { key } = await api.tenant();
    const res = await api.call('listCustomers', { key, query: { cursor } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0]).toMatchObject({ parameter: 'cursor', code: 'invalid_cursor' });
  });
});

describe('filters', () => {
  let key: string;
  let lead: Customer;
  let business: Customer;
  let converted: Customer;

  beforeAll(async () => {
    ({ key } = await api.tenant());
    lead = (await api.call('createCustomer', { key, body: { email: 'Lead.Persoon@Example.nl' } })).body.data;
    business = (await api.call('createCustomer', { key, body: { email: 'bv@example.nl', type: 'business' } })).body
      .data;
    const c = await api.call('createCustomer', { key, body: { email: 'klant@example.nl' } });
    converted = (await api.call('convertCustomer', { key, params: { customer: c.body.data.id } })).body.data;
  });

  it('filter[status] keeps only leads or only customers', async () => {
    const leads = await api.call('listCustomers', { key, query: { 'filter[status]': 'lead' } });
    expect(idsOf(leads).sort()).toEqual([lead.id, business.id].sort());
    const customers = await api.call('listCustomers', { key, query: { 'filter[status]': 'customer' } });
    expect(idsOf(customers)).toEqual([converted.id]);
  });

  it('filter[type] keeps only individuals or only businesses', async () => {
    const businesses = await api.call('listCustomers', { key, query: { 'filter[type]': 'business' } });
    expect(idsOf(businesses)).toEqual([business.id]);
    const individuals = await api.call('listCustomers', { key, query: { 'filter[type]': 'individual' } });
    expect(idsOf(individuals).sort()).toEqual([lead.id, converted.id].sort());
  });

  it('filters combine', async () => {
    const res = await api.call('listCustomers', {
      key,
      query: { 'filter[type]': 'individual', 'filter[status]': 'lead' },
    });
    expect(idsOf(res)).toEqual([lead.id]);
  });

  it('filter[email] matches the exact address case-insensitively', async () => {
    const res = await api.call('listCustomers', { key, query: { 'filter[email]': 'lead.persoon@EXAMPLE.NL' } });
    expect(idsOf(res)).toEqual([lead.id]);
    const partial = await api.call('listCustomers', { key, query: { 'filter[email]': 'lead.persoon' } });
    expect(partial.body.data).toEqual([]);
  });

  it('filter[email] empty is an exact match too: no address is empty, so it lists none', async () => {
    const res = await api.call('listCustomers', { key, query: { 'filter[email]': '' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('an invalid enum value answers 422 for its parameter', async () => {
    const res = await api.call('listCustomers', { key, query: { 'filter[status]': 'prospect' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'filter[status]', code: 'invalid_enum', pointer: null });
  });

  it('an unknown filter answers 422 unknown_parameter', async () => {
    const res = await api.call('listCustomers', { key, query: { 'filter[colour]': 'blue' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      expect.objectContaining({ parameter: 'filter[colour]', code: 'unknown_parameter', pointer: null }),
    ]);
  });

  it('an unknown sort answers 422 for parameter sort', async () => {
    const res = await api.call('listCustomers', { key, query: { sort: 'name' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'sort', code: 'invalid_enum' });
  });
});

describe('filter[updated_since] with sort=updated_at', () => {
  it('keeps only records changed at or after the moment', async () => {
    const { key, ids } = await companyWith(4, 'sync');
    await api.sql`update customers set updated_at = '2026-01-01T00:00:00Z' where id = any(${ids})`;
    await api.sql`update customers set updated_at = '2026-02-01T10:00:00Z' where id = ${ids[1]}`;
    await api.sql`update customers set updated_at = '2026-02-01T12:00:00Z' where id = ${ids[3]}`;
    const res = await api.call('listCustomers', {
      key,
      query: { sort: 'updated_at', 'filter[updated_since]': '2026-02-01T10:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([ids[1], ids[3]]);
    // The same moment written with an offset.
    const offset = await api.call('listCustomers', {
      key,
      query: { sort: 'updated_at', 'filter[updated_since]': '2026-02-01T11:00:00+01:00' },
    });
    expect(idsOf(offset)).toEqual([ids[1], ids[3]]);
    const later = await api.call('listCustomers', {
      key,
      query: { sort: 'updated_at', 'filter[updated_since]': '2026-02-01T10:00:00.001Z' },
    });
    expect(idsOf(later)).toEqual([ids[3]]);
  });

  it('pages through a sync with cursors', async () => {
    const { key, ids } = await companyWith(5, 'syncpage');
    const since = '2020-01-01T00:00:00Z';
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api.call('listCustomers', {
        key,
        query: { sort: 'updated_at', 'filter[updated_since]': since, limit: 2, cursor },
      });
      expect(res.status).toBe(200);
      seen.push(...idsOf(res));
      cursor = res.body.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
  });

  it.each(['2026-02-01T10:00:00', '2026-02-01', 'gisteren'])('%s (no time zone) answers 422', async (since) => {
    const { key } = await api.tenant();
    const res = await api.call('listCustomers', { key, query: { 'filter[updated_since]': since } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0]).toMatchObject({ parameter: 'filter[updated_since]', code: 'invalid_format' });
  });
});

describe('q search', () => {
  let key: string;
  const made: Record<string, string> = {};

  beforeAll(async () => {
    ({ key } = await api.tenant());
    const people = {
      jansen: { email: 'jan@bakkerijjansen.nl', name: 'Jan Jansen', company_name: 'Bakkerij Jansen B.V.' },
      dekker: {
        email: 'info@installatie.nl',
        name: 'Peter Dekker',
        company_name: 'Installatiebedrijf Zonneschijn',
        phone: '+31 30 234 5678',
      },
      amrani: { email: 'fatima@example.org', name: 'Fatima el Amrani', phone: '06 12345678' },
    };
    for (const [label, body] of Object.entries(people)) {
      const res = await api.call('createCustomer', { key, body });
      made[label] = res.body.data.id;
    }
  });

  const search = async (q: string) => {
    const res = await api.call('listCustomers', { key, query: { q } });
    expect(res.status).toBe(200);
    return idsOf(res);
  };

  it('finds by part of the name', async () => {
    expect(await search('jans')).toEqual([made.jansen]);
    expect(await search('Amra')).toEqual([made.amrani]);
  });

  it('finds by part of the email', async () => {
    expect(await search('fatima@exam')).toEqual([made.amrani]);
    expect(await search('installatie.nl')).toEqual([made.dekker]);
  });

  it('finds by part of the company name', async () => {
    expect(await search('zonneschijn')).toEqual([made.dekker]);
  });

  it('finds by part of the phone number', async () => {
    expect(await search('30 234 56')).toEqual([made.dekker]);
    expect(await search('12345678')).toEqual([made.amrani]);
    // A phone number also matches by its digits: 06 12345678 holds 23456.
    expect((await search('234 56')).sort()).toEqual([made.dekker, made.amrani].sort());
  });

  it('finds only what contains the term: no typo tolerance (a dropped, doubled or swapped letter)', async () => {
    expect(await search('Janssen')).toEqual([]);
    expect(await search('Jasen')).toEqual([]);
    expect(await search('Dekkers')).toEqual([]);
    expect(await search('Jansne')).toEqual([]);
  });

  it('finds nothing for an unrelated word', async () => {
    expect(await search('xylofoon')).toEqual([]);
  });

  it('treats LIKE wildcards literally', async () => {
    expect(await search('%%')).toEqual([]);
    expect(await search('__')).toEqual([]);
  });

  it('combines with filters', async () => {
    const res = await api.call('listCustomers', { key, query: { q: 'jansen', 'filter[status]': 'customer' } });
    expect(res.body.data).toEqual([]);
  });

  it('a 1-character q answers 422 too_short', async () => {
    const res = await api.call('listCustomers', { key, query: { q: 'j' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'q', code: 'too_short' });
  });

  it('a q of more than 100 characters answers 422 too_long', async () => {
    const res = await api.call('listCustomers', { key, query: { q: 'a'.repeat(101) } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: 'q', code: 'too_long' });
  });
});

describe('tenancy', () => {
  it("never lists another company's customers", async () => {
    const a = await companyWith(2, 'eigen');
    const b = await companyWith(2, 'ander');
    const list = await api.call('listCustomers', { key: a.key });
    expect(idsOf(list).sort()).toEqual([...a.ids].sort());
    const search = await api.call('listCustomers', { key: a.key, query: { q: 'ander' } });
    expect(search.body.data).toEqual([]);
    const email = await api.call('listCustomers', { key: a.key, query: { 'filter[email]': 'ander0@example.nl' } });
    expect(email.body.data).toEqual([]);
    expect(b.ids).toHaveLength(2);
  });
});
