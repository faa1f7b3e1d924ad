// Notes on a customer: create, list (newest first, both cursor directions), update only what is sent,
// delete, idempotent creation, and the customer's last activity.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
});

async function newCustomer(name = 'Jan de Boer') {
  const res = await api.call('createCustomer', { key, body: { name, email: `${crypto.randomUUID()}@example.nl` } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function newNote(customer: string, body: { content: string; is_important?: boolean }) {
  const res = await api.call('createCustomerNote', { key, params: { customer }, body });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('createCustomerNote', () => {
  it('answers 201 with every field of the new note', async () => {
    const customer = await newCustomer();
    const before = Date.now();
    const res = await api.call('createCustomerNote', {
      key,
      params: { customer },
      body: { content: 'Belde over de offerte; wil een tweede optie.', is_important: true },
    });
    expect(res.status).toBe(201);
    const note = res.body.data;
    expect(Object.keys(note).sort()).toEqual(
      ['author', 'content', 'created_at', 'id', 'is_important', 'metadata', 'object', 'parent', 'updated_at'].sort(),
    );
    expect(note.object).toBe('note');
    expect(note.id).toMatch(UUID);
    expect(note.content).toBe('Belde over de offerte; wil een tweede optie.');
    expect(note.is_important).toBe(true);
    expect(note.parent).toEqual({ object: 'customer', id: customer });
    expect(note.author).toBeNull();
    expect(note.created_at).toMatch(ISO);
    expect(note.updated_at).toBe(note.created_at);
    const created = Date.parse(note.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('defaults is_important to false', async () => {
    const customer = await newCustomer();
    const note = await newNote(customer, { content: 'Gewone notitie' });
    expect(note.is_important).toBe(false);
    const [row] = await api.sql`select is_important from notes where id = ${note.id}`;
    expect(row.is_important).toBe(false);
  });

  it('accepts content of exactly 10000 characters and keeps it unchanged', async () => {
    const customer = await newCustomer();
    const content = `${'ä'.repeat(4999)}\n${'x'.repeat(5000)}`;
    expect(content).toHaveLength(10000);
    const note = await newNote(customer, { content });
    expect(note.content).toBe(content);
  });

  it('makes the note activity on its customer (last_activity_at)', async () => {
    const customer = await newCustomer();
    const before = await api.call('getCustomer', { key, params: { customer } });
    expect(before.body.data.last_activity_at).toBeNull();
    const note = await newNote(customer, { content: 'Eerste contact' });
    const after = await api.call('getCustomer', { key, params: { customer } });
    // Set in the note's transaction, so at the same instant as the note.
    expect(after.body.data.last_activity_at).toBe(note.created_at);
  });

  it('replays the stored response for a repeated Idempotency-Key and creates one note', async () => {
    const customer = await newCustomer();
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const body = { content: 'Eenmalig', is_important: true };
    const first = await api.call('createCustomerNote', { key, params: { customer }, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await api.call('createCustomerNote', { key, params: { customer }, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await api.sql`select id from notes where customer_id = ${customer}`;
    expect(rows.map((r) => r.id)).toEqual([first.body.data.id]);
  });
});

describe('listCustomerNotes', () => {
  it('lists only this customer’s notes, newest first, with every field', async () => {
    const customer = await newCustomer();
    const other = await newCustomer('Ander');
    const a = await newNote(customer, { content: 'een' });
    const b = await newNote(customer, { content: 'twee', is_important: true });
    await newNote(other, { content: 'van een ander' });
    const res = await api.call('listCustomerNotes', { key, params: { customer } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([b, a]);
    expect(res.body.meta).toEqual({ limit: 50, next_cursor: null, prev_cursor: null });
  });

  it('answers an empty page for a customer without notes', async () => {
    const customer = await newCustomer();
    const res = await api.call('listCustomerNotes', { key, params: { customer } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { limit: 50, next_cursor: null, prev_cursor: null } });
  });

  it('pages forwards and backwards with cursors', async () => {
    const customer = await newCustomer();
    const made: string[] = [];
    for (let i = 1; i <= 5; i++) made.push((await newNote(customer, { content: `notitie ${i}` })).id);
    const newestFirst = [...made].reverse();
    const page = async (cursor?: string) => {
      const res = await api.call('listCustomerNotes', { key, params: { customer }, query: { limit: 2, cursor } });
      expect(res.status).toBe(200);
      expect(res.body.meta.limit).toBe(2);
      return { ids: res.body.data.map((n: { id: string }) => n.id), meta: res.body.meta };
    };

    const p1 = await page();
    expect(p1.ids).toEqual(newestFirst.slice(0, 2));
    expect(p1.meta.prev_cursor).toBeNull();
    expect(p1.meta.next_cursor).toEqual(expect.any(String));

    const p2 = await page(p1.meta.next_cursor);
    expect(p2.ids).toEqual(newestFirst.slice(2, 4));
    expect(p2.meta.prev_cursor).toEqual(expect.any(String));
    expect(p2.meta.next_cursor).toEqual(expect.any(String));

    const p3 = await page(p2.meta.next_cursor);
    expect(p3.ids).toEqual(newestFirst.slice(4));
    expect(p3.meta.next_cursor).toBeNull();
    expect(p3.meta.prev_cursor).toEqual(expect.any(String));

    const back2 = await page(p3.meta.prev_cursor);
    expect(back2.ids).toEqual(p2.ids);
    expect(back2.meta.next_cursor).toEqual(expect.any(String));
    expect(back2.meta.prev_cursor).toEqual(expect.any(String));

    const back1 = await page(back2.meta.prev_cursor);
    expect(back1.ids).toEqual(p1.ids);
    expect(back1.meta.prev_cursor).toBeNull();
    expect(back1.meta.next_cursor).toEqual(expect.any(String));
  });

  it('shows a note added after the first page was read without shifting the next page', async () => {
    const customer = await newCustomer();
    const made: string[] = [];
    for (let i = 1; i <= 3; i++) made.push((await newNote(customer, { content: `n${i}` })).id);
    const p1 = await api.call('listCustomerNotes', { key, params: { customer }, query: { limit: 2 } });
    await newNote(customer, { content: 'later' });
    const p2 = await api.call('listCustomerNotes', {
      key,
      params: { customer },
      query: { limit: 2, cursor: p1.body.meta.next_cursor },
    });
    expect(p2.body.data.map((n: { id: string }) => n.id)).toEqual([made[0]]);
    expect(p2.body.meta.next_cursor).toBeNull();
  });
});

describe('updateCustomerNote', () => {
  it('changes only the fields sent', async () => {
    const customer = await newCustomer();
    const note = await newNote(customer, { content: 'origineel' });

    const pinned = await api.call('updateCustomerNote', {
      key,
      params: { customer, note: note.id },
      body: { is_important: true },
    });
    expect(pinned.status).toBe(200);
    expect(pinned.body.data).toEqual({ ...note, is_important: true, updated_at: pinned.body.data.updated_at });
    expect(Date.parse(pinned.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(note.updated_at));

    const edited = await api.call('updateCustomerNote', {
      key,
      params: { customer, note: note.id },
      body: { content: 'aangepast' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toEqual({
      ...note,
      content: 'aangepast',
      is_important: true,
      updated_at: edited.body.data.updated_at,
    });

    const list = await api.call('listCustomerNotes', { key, params: { customer } });
    expect(list.body.data).toEqual([edited.body.data]);
  });

  it('changes both fields at once', async () => {
    const customer = await newCustomer();
    const note = await newNote(customer, { content: 'a', is_important: true });
    const res = await api.call('updateCustomerNote', {
      key,
      params: { customer, note: note.id },
      body: { content: 'b', is_important: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.content).toBe('b');
    expect(res.body.data.is_important).toBe(false);
    const [row] = await api.sql`select content, is_important, version from notes where id = ${note.id}`;
    expect(row).toEqual({ content: 'b', is_important: false, version: 2 });
  });

  it('leaves the note untouched when nothing changes (empty body or same values)', async () => {
    const customer = await newCustomer();
    const note = await newNote(customer, { content: 'blijft', is_important: true });
    for (const body of [{}, { content: 'blijft' }, { is_important: true, content: 'blijft' }]) {
      const res = await api.call('updateCustomerNote', { key, params: { customer, note: note.id }, body });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(note);
    }
    const [row] = await api.sql`select version from notes where id = ${note.id}`;
    expect(row.version).toBe(1);
  });
});

describe('deleteCustomerNote', () => {
  it('deletes the note and answers the deletion shape; the note is gone afterwards', async () => {
    const customer = await newCustomer();
    const keep = await newNote(customer, { content: 'blijft' });
    const note = await newNote(customer, { content: 'weg ermee' });
    const res = await api.call('deleteCustomerNote', { key, params: { customer, note: note.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { object: 'note', id: note.id, deleted: true } });

    const list = await api.call('listCustomerNotes', { key, params: { customer } });
    expect(list.body.data).toEqual([keep]);
    const rows = await api.sql`select 1 from notes where id = ${note.id}`;
    expect(rows).toHaveLength(0);

    const patch = await api.call('updateCustomerNote', {
      key,
      params: { customer, note: note.id },
      body: { content: 'te laat' },
    });
    expect(patch.status).toBe(404);
    expect(patch.body.code).toBe('not_found');
    const again = await api.call('deleteCustomerNote', { key, params: { customer, note: note.id } });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
  });

  it('answers the stored id, in lower case, for an id sent in upper case', async () => {
    const customer = await newCustomer();
    const note = await newNote(customer, { content: 'hoofdletters' });
    const res = await api.call('deleteCustomerNote', { key, params: { customer, note: note.id.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { object: 'note', id: note.id, deleted: true } });
    const [event] = await api.sql`select data from events where type = 'note.deleted' and customer_id = ${customer}`;
    expect(event.data.object.id).toBe(note.id);
  });
});
