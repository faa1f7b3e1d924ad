// ETag / If-Match on notes: a note's create and update answer its ETag; PATCH and DELETE with If-Match act only
// while the note is at that version (412 precondition_failed with the current ETag otherwise, nothing changed).
// Without If-Match the last write wins, as for every record.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, pipelineOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
beforeAll(async () => {
  api = await setupApi();
  let companyId: string;
  ({ key, companyId } = await api.tenant());
  await pipelineOf(api, companyId);
});

const contentOf = async (id: string) => (await api.sql`select content from notes where id = ${id}`)[0]?.content;

describe.each([
  ['customer', 'createCustomerNote', 'updateCustomerNote', 'deleteCustomerNote'],
  ['deal', 'createDealNote', 'updateDealNote', 'deleteDealNote'],
] as const)('a note on a %s', (parent, create, update, remove) => {
  async function newNote() {
    const params: Record<string, string> =
      parent === 'customer' ? { customer: await customerOf(api, key) } : { deal: (await dealOf(api, key)).id };
    const created = await api.call(create, { key, params, body: { content: 'eerste' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    return { params: { ...params, note: created.body.data.id as string }, id: created.body.data.id as string };
  }

  it('PATCH with the current ETag updates and answers the next; with an older one 412 and nothing changes', async () => {
    const { params, id } = await newNote();
    const first = await api.call(update, { key, params, headers: { 'if-match': '"1"' }, body: { content: 'tweede' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    const stale = await api.call(update, { key, params, headers: { 'if-match': '"1"' }, body: { content: 'derde' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'precondition_failed' });
    expect(stale.body.detail).toContain('"2"');
    expect(await contentOf(id)).toBe('tweede');
    // Without If-Match the last write wins.
    const blind = await api.call(update, { key, params, body: { content: 'derde' } });
    expect(blind.status).toBe(200);
    expect(blind.headers.get('etag')).toBe('"3"');
  });

  it('DELETE with an older ETag answers 412 and keeps the note; with the current one deletes it', async () => {
    const { params, id } = await newNote();
    await api.call(update, { key, params, body: { is_important: true } });
    const stale = await api.call(remove, { key, params, headers: { 'if-match': '"1"' } });
    expect(stale.status).toBe(412);
    expect(await contentOf(id)).toBe('eerste');
    const removed = await api.call(remove, { key, params, headers: { 'if-match': '"2"' } });
    expect(removed.status).toBe(200);
    expect(await contentOf(id)).toBeUndefined();
  });

  it("a replayed creation stored before notes had ETags still answers the created version's ETag", async () => {
    const params: Record<string, string> =
      parent === 'customer' ? { customer: await customerOf(api, key) } : { deal: (await dealOf(api, key)).id };
    const idem = { 'idempotency-key': crypto.randomUUID() };
    const first = await api.call(create, { key, params, headers: idem, body: { content: 'eens' } });
    expect(first.headers.get('etag')).toBe('"1"');
    // As a release before this one stored it: without the ETag.
    await api.sql`update idempotency_keys set response_headers = response_headers - 'ETag' where key = ${idem['idempotency-key']}`;
    const replay = await api.call(create, { key, params, headers: idem, body: { content: 'eens' } }); // contract-checked
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('etag')).toBe('"1"');
  });

  it('a 404 wins over a precondition', async () => {
    const { params } = await newNote();
    const missing = { ...params, note: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30' };
    expect(
      (await api.call(update, { key, params: missing, headers: { 'if-match': '"9"' }, body: { content: 'x' } })).status,
    ).toBe(404);
  });
});
