// GET /tasks: every sort with its keyset pages, and every filter of the contract.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { defaultColumns, taskOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let ids: string[];
let columns: Awaited<ReturnType<typeof defaultColumns>>;
let user: number;
let otherBoardColumn: string;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  columns = await defaultColumns(api, key);
  user = await userOf(api, t.companyId);
  const board = crypto.randomUUID();
  otherBoardColumn = crypto.randomUUID();
  await api.sql`insert into task_boards (company_id, id, name, position) values (${t.companyId}, ${board}, 'Installatie', 1)`;
  await api.sql`insert into task_statuses (company_id, id, board_id, name, category, position, is_default)
                values (${t.companyId}, ${otherBoardColumn}, ${board}, 'Onderweg', 'in_progress', 0, true)`;
  ids = [];
  ids.push((await taskOf(api, key, { title: 'A', priority: 'low' })).id);
  ids.push((await taskOf(api, key, { title: 'B', priority: 'high', assigned_user_id: String(user) })).id);
  ids.push((await taskOf(api, key, { title: 'C', status_id: otherBoardColumn })).id);
  ids.push((await taskOf(api, key, { title: 'D', status_id: columns.completed })).id);
  ids.push((await taskOf(api, key, { title: 'E', status_id: columns.cancelled, priority: 'urgent' })).id);
  // A changes last: first by updated_at descending.
  await api.call('updateTask', { key, params: { task: ids[0] }, body: { description: 'later' } });
});

async function all(query: Record<string, string | number>) {
  const seen: string[] = [];
  let cursor: string | null | undefined;
  do {
    const res = await api.call('listTasks', { key, query: { limit: 2, ...query, ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    seen.push(...res.body.data.map((t: { id: string }) => t.id));
    cursor = res.body.meta.next_cursor;
  } while (cursor);
  return seen;
}

describe('listTasks', () => {
  it('pages every sort in order', async () => {
    expect(await all({})).toEqual([...ids].reverse());
    expect(await all({ sort: 'created_at' })).toEqual(ids);
    expect(await all({ sort: '-updated_at' })).toEqual([ids[0], ids[4], ids[3], ids[2], ids[1]]);
    expect(await all({ sort: 'updated_at' })).toEqual([ids[1], ids[2], ids[3], ids[4], ids[0]]);
  });

  it('filters by status, priority, assignee, board, column and updated_since', async () => {
    expect(await all({ 'filter[status]': 'in_progress' })).toEqual([ids[2]]);
    expect(await all({ 'filter[status]': 'open', sort: 'created_at' })).toEqual([ids[0], ids[1]]);
    expect(await all({ 'filter[priority]': 'urgent' })).toEqual([ids[4]]);
    expect(await all({ 'filter[assigned_user_id]': String(user) })).toEqual([ids[1]]);
    expect(await all({ 'filter[assigned_user_id]': '999999999999999999' })).toEqual([]);
    expect(await all({ 'filter[board_id]': columns.board, sort: 'created_at' })).toEqual([
      ids[0],
      ids[1],
      ids[3],
      ids[4],
    ]);
    expect(await all({ 'filter[status_id]': columns.completed })).toEqual([ids[3]]);
    const a = await api.call('getTask', { key, params: { task: ids[0] } });
    expect(await all({ 'filter[updated_since]': a.body.data.updated_at })).toEqual([ids[0]]);
  });

  it('refuses a cursor of another sort (422 invalid_cursor)', async () => {
    const first = await api.call('listTasks', { key, query: { limit: 1 } });
    const res = await api.call('listTasks', {
      key,
      query: { limit: 1, sort: 'created_at', cursor: first.body.meta.next_cursor },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe('invalid_cursor');
  });
});
