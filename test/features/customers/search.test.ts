// listCustomers `q`, the contract's matching rules: only customers whose name, email, company name or phone
// contains the term (any case; accents count; `%`, `_` and `\` literal) come back, or whose phone contains the
// digits of a term that is a phone number; in the order of `sort`; paged with cursors like the plain list.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
const made: Record<string, string> = {};

type Customer = {
  id: string;
  name: string | null;
  email: string;
  company_name: string | null;
  phone: string | null;
  created_at: string;
  updated_at: string;
};

/** In creation order, each a minute older than the next (created_at tells them apart). */
const PEOPLE: Record<string, Record<string, string>> = {
  // The example: 414 matched these three by resemblance.
  phone413: { email: 'a@voorbeeld.nl', name: 'Anton Aalbers', phone: '+31 6 413 9025' },
  phone416: { email: 'b@voorbeeld.nl', name: 'Bea Bakker', phone: '010 416 662' },
  phone411: { email: 'c@voorbeeld.nl', name: 'Cor Claassen', phone: '+31 411 7746' },
  rotterdam: { email: 'info@havenbedrijf.nl', name: 'Dirk Dam', phone: '+31 10 414 0031' },
  elodie: { email: 'Elodie.Mueller@Example.FR', name: 'Élodie Müller', company_name: 'Çava Traiteur' },
  percent: { email: 'groen@voorbeeld.nl', name: 'Gert Groen', company_name: '100% Groen B.V.' },
  thousand: { email: 'groen1000@voorbeeld.nl', name: 'Henk Groen', company_name: '1000 Groen B.V.' },
  underscore: { email: 'snel_klaar@voorbeeld.nl', name: 'Ingrid Snel' },
  nounderscore: { email: 'snelxklaar@voorbeeld.nl', name: 'Jan Snel' },
  backslash: { email: 'k@voorbeeld.nl', name: 'Kees', company_name: 'Dak\\Goot' },
  extension: { email: 'l@voorbeeld.nl', name: 'Lies Lamers', phone: '020-555 1234 ext 12' },
};

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
  const labels = Object.keys(PEOPLE);
  for (const [i, label] of labels.entries()) {
    const res = await api.call('createCustomer', { key, body: PEOPLE[label] });
    expect(res.status).toBe(201);
    made[label] = res.body.data.id;
    await api.sql`update customers set created_at = now() - make_interval(mins => ${labels.length - i}),
                                       updated_at = now() - make_interval(mins => ${i})
                  where id = ${res.body.data.id}`;
  }
});

const labelOf = (id: string) => Object.keys(made).find((label) => made[label] === id) ?? id;

async function search(q: string, query: Record<string, string | number> = {}) {
  const res = await api.call('listCustomers', { key, query: { q, ...query } });
  expect(res.status).toBe(200);
  return res.body.data as Customer[];
}

const labels = async (q: string, query: Record<string, string | number> = {}) =>
  (await search(q, query)).map((c) => labelOf(c.id)).sort();

describe('only customers that contain the term', () => {
  it('414 finds the phone with 414, not 413 9025, 416 662 or 411 7746', async () => {
    expect(await labels('414')).toEqual(['rotterdam']);
  });

  it.each([
    ['104140031', 'the digits without spaces'],
    ['10-414 0031', 'other punctuation'],
    ['(10) 414-00-31', 'brackets and dashes'],
    ['+31 10 414 0031', 'as stored'],
    ['4140031', 'the end of the number'],
  ])('a phone number matches by its digits: %s (%s)', async (q) => {
    expect(await labels(q)).toEqual(['rotterdam']);
  });

  it('digits are compared as written: a leading 0 is not +31', async () => {
    expect(await labels('010 414 0031')).toEqual([]);
  });

  it('a term with letters matches the phone as text only', async () => {
    expect(await labels('ext 12')).toEqual(['extension']);
    expect(await labels('ext12')).toEqual([]);
  });

  it.each([
    ['élodie', 'lowercase'],
    ['ÉLODIE', 'uppercase with accent'],
    ['MÜLLER', 'uppercase umlaut'],
    ['élodie mül', 'across a space'],
    ['çava', 'company name, lowercase cedilla'],
    ['ELODIE.MUELLER@EXAMPLE', 'email, other case'],
    ['mueller@example.fr', 'email, lowercase'],
  ])('%s (%s) finds Élodie Müller', async (q) => {
    expect(await labels(q)).toEqual(['elodie']);
  });

  it('accents count', async () => {
    expect(await labels('elodie m')).toEqual([]);
    expect(await labels('muller')).toEqual([]);
    expect(await labels('cava')).toEqual([]);
  });

  it('% and _ and \\ are ordinary characters', async () => {
    expect(await labels('100%')).toEqual(['percent']);
    expect(await labels('0% groen')).toEqual(['percent']);
    expect(await labels('l_k')).toEqual(['underscore']);
    expect(await labels('snel_')).toEqual(['underscore']);
    expect(await labels('k\\g')).toEqual(['backslash']);
    expect(await labels('%%')).toEqual([]);
    expect(await labels('__')).toEqual([]);
  });

  it('no field matches with part of another', async () => {
    // Name "Dirk Dam", email "info@havenbedrijf.nl": each alone does not hold "dam info".
    expect(await labels('dam info')).toEqual([]);
    expect(await labels('dam\ninfo')).toEqual([]);
    expect(await labels('dam')).toEqual(['rotterdam']);
  });

  it('every customer returned for a term holds it, in a field or (a phone number) in the phone’s digits', async () => {
    for (const q of ['41', '14', 'oe', 'groen', 'el', '00', '1 2', '.nl', '10 4']) {
      const term = q.toLowerCase();
      const digits = /^[0-9 +\-()./]*$/.test(q) ? q.replace(/[^0-9]/g, '') : '';
      for (const c of await search(q, { limit: 100 })) {
        const inField = [c.name, c.email, c.company_name, c.phone].some((f) => f?.toLowerCase().includes(term));
        const inDigits = digits !== '' && (c.phone ?? '').replace(/[^0-9]/g, '').includes(digits);
        expect(inField || inDigits, `${q} → ${JSON.stringify(c)}`).toBe(true);
      }
    }
  });
});

describe('order and cursors', () => {
  // "groen" is in 2 customers, "voorbeeld" in 9 (every @voorbeeld.nl email).
  it('results come in the order of sort: newest first by default, then as asked', async () => {
    expect((await search('groen')).map((c) => labelOf(c.id))).toEqual(['thousand', 'percent']);
    expect((await search('groen', { sort: 'created_at' })).map((c) => labelOf(c.id))).toEqual(['percent', 'thousand']);
    // updated_at runs the other way round (see beforeAll).
    expect((await search('groen', { sort: '-updated_at' })).map((c) => labelOf(c.id))).toEqual(['percent', 'thousand']);
  });

  it.each([
    '-created_at',
    'created_at',
    '-updated_at',
    'updated_at',
  ])('pages through the results with next_cursor and back with prev_cursor (sort %s)', async (sort) => {
    const all = (await search('voorbeeld', { sort, limit: 100 })).map((c) => c.id);
    expect(all).toHaveLength(9);
    const pages: string[][] = [];
    let cursor: string | undefined;
    let res: { body: { data: Customer[]; meta: { next_cursor: string | null; prev_cursor: string | null } } };
    do {
      res = await api.call('listCustomers', {
        key,
        query: { q: 'voorbeeld', sort, limit: 2, ...(cursor ? { cursor } : {}) },
      });
      pages.push(res.body.data.map((c) => c.id));
      cursor = res.body.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(pages.flat()).toEqual(all);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 2, 1]);
    // Back from the last page.
    const back: string[][] = [];
    let prev = res.body.meta.prev_cursor ?? undefined;
    while (prev) {
      const page = await api.call('listCustomers', { key, query: { q: 'voorbeeld', sort, limit: 2, cursor: prev } });
      back.unshift(page.body.data.map((c: Customer) => c.id));
      prev = page.body.meta.prev_cursor ?? undefined;
    }
    expect([...back.flat(), ...pages[pages.length - 1]]).toEqual(all);
  });
});
