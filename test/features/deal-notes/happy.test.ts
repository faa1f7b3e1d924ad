// Notes on a deal: create (idempotent), list newest first with cursors, update only what is sent, delete;
// on deals of every state, archived included; the deal itself is not touched.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { dealOf, pipelineOf, UUID } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  await pipelineOf(api, t.companyId);
});

async function newNote(deal: string, body: { content: string; is_important?: boolean }) {
  const res = await api.call('createDealNote', { key, params: { deal }, body });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('createDealNote', () => {
  it('answers 201 with every field; parent is the deal; the deal is unchanged', async () => {
    const deal = await dealOf(api, key);
    const res = await api.call('createDealNote', {
      key,
      params: { deal: deal.id },
      body: { content: 'Klant wil eerst een tweede offerte.', is_important: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      object: 'note',
      id: expect.stringMatching(UUID),
      content: 'Klant wil eerst een tweede offerte.',
      is_important: true,
      parent: { object: 'deal', id: deal.id },
      author: null,
      metadata: {},
      created_at: expect.any(String),
      updated_at: res.body.data.created_at,
    });
    expect((await api.call('getDeal', { key, params: { deal: deal.id } })).body.data).toEqual(deal);
    const [row] = await api.sql`select parent_type, deal_id, customer_id from notes where id = ${res.body.data.id}`;
    expect(row).toEqual({ parent_type: 'deal', deal_id: deal.id, customer_id: null });
  });

  it('works on won, lost and archived deals; is_important defaults to false', async () => {
    const deal = await dealOf(api, key);
    await api.call('loseDeal', { key, params: { deal: deal.id } });
    await api.call('archiveDeal', { key, params: { deal: deal.id } });
    const note = await newNote(deal.id, { content: 'Achteraf' });
    expect(note.is_important).toBe(false);
  });

  it('replays a repeated Idempotency-Key and creates one note', async () => {
    const deal = await dealOf(api, key);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await api.call('createDealNote', { key, params: { deal: deal.id }, body: { content: 'x' }, headers });
    const again = await api.call('createDealNote', { key, params: { deal: deal.id }, body: { content: 'x' }, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await api.sql`select id from notes where deal_id = ${deal.id}`;
    expect(rows).toHaveLength(1);
  });
});

describe('listDealNotes', () => {
  it('lists only this deal’s notes, newest first, and pages both ways', async () => {
    const deal = await dealOf(api, key);
    const other = await dealOf(api, key);
    await newNote(other.id, { content: 'ander' });
    const made = [];
    for (let i = 1; i <= 3; i++) made.push(await newNote(deal.id, { content: `notitie ${i}` }));
    const all = await api.call('listDealNotes', { key, params: { deal: deal.id } });
    expect(all.body).toEqual({ data: [...made].reverse(), meta: { limit: 50, next_cursor: null, prev_cursor: null } });
    const p1 = await api.call('listDealNotes', { key, params: { deal: deal.id }, query: { limit: 2 } });
    expect(p1.body.data).toEqual([made[2], made[1]]);
    const p2 = await api.call('listDealNotes', {
      key,
      params: { deal: deal.id },
      query: { limit: 2, cursor: p1.body.meta.next_cursor },
    });
    expect(p2.body.data).toEqual([made[0]]);
    expect(p2.body.meta.next_cursor).toBeNull();
    const back = await api.call('listDealNotes', {
      key,
      params: { deal: deal.id },
      query: { limit: 2, cursor: p2.body.meta.prev_cursor },
    });
    expect(back.body.data).toEqual(p1.body.data);
  });

  it('an archived deal’s notes are listed; a deal without notes answers an empty page', async () => {
    const deal = await dealOf(api, key);
    const empty = await api.call('listDealNotes', { key, params: { deal: deal.id } });
    expect(empty.body.data).toEqual([]);
    const note = await newNote(deal.id, { content: 'blijft' });
    await api.call('archiveDeal', { key, params: { deal: deal.id } });
    expect((await api.call('listDealNotes', { key, params: { deal: deal.id } })).body.data).toEqual([note]);
  });
});

describe('updateDealNote and deleteDealNote', () => {
  it('changes only the fields sent; nothing when nothing changes', async () => {
    const deal = await dealOf(api, key);
    const note = await newNote(deal.id, { content: 'origineel' });
    const pinned = await api.call('updateDealNote', {
      key,
      params: { deal: deal.id, note: note.id },
      body: { is_important: true },
    });
    expect(pinned.status).toBe(200);
    expect(pinned.body.data).toEqual({ ...note, is_important: true, updated_at: pinned.body.data.updated_at });
    const same = await api.call('updateDealNote', {
      key,
      params: { deal: deal.id, note: note.id },
      body: { content: 'origineel', is_important: true },
    });
    expect(same.body.data).toEqual(pinned.body.data);
    const [row] = await api.sql`select version from notes where id = ${note.id}`;
    expect(row.version).toBe(2);
  });

  it('deletes the note: the deletion shape, then 404', async () => {
    const deal = await dealOf(api, key);
    const keep = await newNote(deal.id, { content: 'blijft' });
    const note = await newNote(deal.id, { content: 'weg' });
    const res = await api.call('deleteDealNote', { key, params: { deal: deal.id, note: note.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { object: 'note', id: note.id, deleted: true } });
    expect((await api.call('listDealNotes', { key, params: { deal: deal.id } })).body.data).toEqual([keep]);
    const again = await api.call('deleteDealNote', { key, params: { deal: deal.id, note: note.id } });
    expect(again.status).toBe(404);
  });

  it('deleting answers the stored id, in lower case, for an id sent in upper case', async () => {
    const deal = await dealOf(api, key);
    const note = await newNote(deal.id, { content: 'hoofdletters' });
    const res = await api.call('deleteDealNote', { key, params: { deal: deal.id, note: note.id.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { object: 'note', id: note.id, deleted: true } });
  });
});
