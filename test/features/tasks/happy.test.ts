// The task lifecycle through the API: the default board on first read, creation into its open column, reads,
// updates with history lines, moves, complete/reopen/cancel with their dates, comments oldest first with the
// system lines, has_open_actions from the checklist, ETags and Idempotency-Key.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { commentsOf, customerOf, dealOf, defaultColumns, taskOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant({ language: 'nl' });
  key = t.key;
  companyId = t.companyId;
});

describe('task boards', () => {
  it('the first read creates the default board with its four columns in the company language', async () => {
    const res = await api.call<'listTaskBoards'>('listTaskBoards', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [board] = res.body.data;
    expect(board).toMatchObject({ object: 'task_board', name: 'Taken', is_default: true });
    expect(board.statuses.map((s) => [s.name, s.category, s.position, s.is_default])).toEqual([
      ['Te doen', 'open', 0, true],
      ['Mee bezig', 'in_progress', 1, true],
      ['Klaar', 'completed', 2, true],
      ['Geannuleerd', 'cancelled', 3, true],
    ]);
    const again = await api.call<'listTaskBoards'>('listTaskBoards', { key });
    expect(again.body.data.map((b) => b.id)).toEqual([board.id]);
  });

  it('lists the default board first, then the others by position', async () => {
    const t = await api.tenant();
    await api.sql`insert into task_boards (company_id, id, name, position)
                  values (${t.companyId}, '01900000-0000-7000-8000-0000000000a1', 'Installatie', 1)`;
    await api.sql`insert into task_boards (company_id, id, name, is_default, position)
                  values (${t.companyId}, '01900000-0000-7000-8000-0000000000a2', 'Verkoop', true, 5)`;
    const res = await api.call<'listTaskBoards'>('listTaskBoards', { key: t.key, query: { limit: 1 } });
    expect(res.body.data.map((b) => b.name)).toEqual(['Verkoop']);
    const next = await api.call<'listTaskBoards'>('listTaskBoards', {
      key: t.key,
      query: { limit: 1, cursor: res.body.meta.next_cursor ?? '' },
    });
    expect(next.body.data.map((b) => b.name)).toEqual(['Installatie']);
    expect(next.body.meta.next_cursor).toBeNull();
  });
});

describe('tasks', () => {
  it('creates a task in the open column of the default board, with links, and reads it back', async () => {
    const columns = await defaultColumns(api, key);
    const customer = await customerOf(api, key);
    const deal = await dealOf(api, key);
    const user = await userOf(api, companyId);
    const res = await api.call<'createTask'>('createTask', {
      key,
      body: {
        title: 'Offerte zonnepanelen',
        priority: 'high',
        due_date: '2026-03-17',
        assigned_user_id: String(user),
        links: [
          { object: 'customer', id: customer },
          { object: 'deal', id: deal },
          { object: 'customer', id: customer },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body.data).toMatchObject({
      object: 'task',
      title: 'Offerte zonnepanelen',
      description: null,
      status: 'open',
      priority: 'high',
      due_date: '2026-03-17',
      board_id: columns.board,
      status_id: columns.open,
      assigned_user_id: String(user),
      links: [
        { object: 'customer', id: customer },
        { object: 'deal', id: deal },
      ],
      has_open_actions: false,
      completed_at: null,
      cancelled_at: null,
    });
    const got = await api.call<'getTask'>('getTask', { key, params: { task: res.body.data.id } });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);
    expect(got.headers.get('etag')).toBe('"1"');
  });

  it('creates a task straight into a completed column: status and completed_at follow', async () => {
    const columns = await defaultColumns(api, key);
    const task = await taskOf(api, key, { status_id: columns.completed });
    expect(task).toMatchObject({ status: 'completed', status_id: columns.completed, cancelled_at: null });
    expect(task.completed_at).not.toBeNull();
  });

  it('has_open_actions follows the checklist kept by the web application', async () => {
    const task = await taskOf(api, key);
    await api.sql`insert into task_checklist_items (company_id, id, task_id, text, is_done, position)
                  values (${companyId}, ${crypto.randomUUID()}, ${task.id}, 'Dakfoto', true, 0)`;
    expect((await api.call('getTask', { key, params: { task: task.id } })).body.data.has_open_actions).toBe(false);
    await api.sql`insert into task_checklist_items (company_id, id, task_id, text, is_done, position)
                  values (${companyId}, ${crypto.randomUUID()}, ${task.id}, 'Offerte', false, 1)`;
    expect((await api.call('getTask', { key, params: { task: task.id } })).body.data.has_open_actions).toBe(true);
  });

  it('updates fields with one history line each; the same values change nothing', async () => {
    const task = await taskOf(api, key, { priority: 'normal' });
    const user = await userOf(api, companyId, { name: 'Ahmed El Amrani' });
    const res = await api.call<'updateTask'>('updateTask', {
      key,
      params: { task: task.id },
      headers: { 'If-Match': '"1"' },
      body: {
        title: 'Offerte zonnepanelen',
        description: 'Plat dak',
        priority: 'urgent',
        due_date: '2026-03-19',
        assigned_user_id: String(user),
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect(res.body.data).toMatchObject({ title: 'Offerte zonnepanelen', description: 'Plat dak', priority: 'urgent' });
    const lines = (await commentsOf(api, key, task.id)).map((c) => [c.body, c.is_system, c.author]);
    expect(lines).toEqual([
      ['Titel gewijzigd van „Offerte opstellen” naar „Offerte zonnepanelen”', true, null],
      ['Prioriteit gewijzigd van normaal naar urgent', true, null],
      ['Deadline gewijzigd van geen naar 19 maart 2026', true, null],
      ['Toegewezen aan Ahmed El Amrani', true, null],
    ]);
    const same = await api.call<'updateTask'>('updateTask', {
      key,
      params: { task: task.id },
      body: { title: 'Offerte zonnepanelen', priority: 'urgent', assigned_user_id: String(user) },
    });
    expect(same.headers.get('etag')).toBe('"2"');
    expect(same.body.data.updated_at).toBe(res.body.data.updated_at);
    expect(await commentsOf(api, key, task.id)).toHaveLength(4);
  });

  it('moves, completes, reopens and cancels, with dates and system lines', async () => {
    const columns = await defaultColumns(api, key);
    const task = await taskOf(api, key);
    const moved = await api.call<'moveTask'>('moveTask', {
      key,
      params: { task: task.id },
      body: { status_id: columns.inProgress },
    });
    expect(moved.body.data).toMatchObject({ status: 'in_progress', status_id: columns.inProgress });
    const same = await api.call<'moveTask'>('moveTask', {
      key,
      params: { task: task.id },
      body: { status_id: columns.inProgress },
    });
    expect(same.headers.get('etag')).toBe(moved.headers.get('etag'));

    const completed = await api.call<'completeTask'>('completeTask', { key, params: { task: task.id } });
    expect(completed.body.data).toMatchObject({ status: 'completed', status_id: columns.completed });
    expect(completed.body.data.completed_at).not.toBeNull();
    const again = await api.call('completeTask', { key, params: { task: task.id } });
    expect(again.status).toBe(409);
    expect((await api.call('cancelTask', { key, params: { task: task.id } })).status).toBe(409);

    const reopened = await api.call<'reopenTask'>('reopenTask', { key, params: { task: task.id } });
    expect(reopened.body.data).toMatchObject({ status: 'open', status_id: columns.open, completed_at: null });
    expect((await api.call('reopenTask', { key, params: { task: task.id } })).status).toBe(409);

    const cancelled = await api.call<'cancelTask'>('cancelTask', { key, params: { task: task.id } });
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      status_id: columns.cancelled,
      completed_at: null,
    });
    expect(cancelled.body.data.cancelled_at).not.toBeNull();

    expect((await commentsOf(api, key, task.id)).map((c) => c.body)).toEqual([
      'Verplaatst van Te doen naar Mee bezig',
      'Taak afgerond',
      'Taak heropend',
      'Taak geannuleerd',
    ]);
  });

  it('a move between two completed columns keeps completed_at; PATCH cannot change the column', async () => {
    const columns = await defaultColumns(api, key);
    const [extra] = await api.sql<{ id: string }[]>`
      insert into task_statuses (company_id, id, board_id, name, category, position)
      values (${companyId}, ${crypto.randomUUID()}, ${columns.board}, 'Gefactureerd', 'completed', 9) returning id`;
    const task = await taskOf(api, key, { status_id: columns.completed });
    const moved = await api.call<'moveTask'>('moveTask', {
      key,
      params: { task: task.id },
      body: { status_id: extra.id },
    });
    expect(moved.body.data).toMatchObject({
      status: 'completed',
      status_id: extra.id,
      completed_at: task.completed_at,
    });
    const patch = await api.call('updateTask', { key, params: { task: task.id }, body: { status_id: columns.open } });
    expect(patch.status).toBe(422);
    expect(patch.body.code).toBe('unknown_field');
  });

  it('comments: oldest first (or newest with -created_at), system lines included, replayed with the same key', async () => {
    const task = await taskOf(api, key);
    const first = await api.call<'createTaskComment'>('createTaskComment', {
      key,
      params: { task: task.id },
      headers: { 'Idempotency-Key': `c-${task.id}` },
      body: { body: 'Klant belt morgen terug.' },
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ task_id: task.id, is_system: false, author: null });
    const replay = await api.call('createTaskComment', {
      key,
      params: { task: task.id },
      headers: { 'Idempotency-Key': `c-${task.id}` },
      body: { body: 'Klant belt morgen terug.' },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    await api.call('completeTask', { key, params: { task: task.id } });
    await api.call('createTaskComment', { key, params: { task: task.id }, body: { body: 'Gefactureerd.' } });
    expect((await commentsOf(api, key, task.id)).map((c) => c.body)).toEqual([
      'Klant belt morgen terug.',
      'Taak afgerond',
      'Gefactureerd.',
    ]);
    const newest = await api.call('listTaskComments', {
      key,
      params: { task: task.id },
      query: { sort: '-created_at' },
    });
    expect(newest.body.data.map((c: { body: string }) => c.body)).toEqual([
      'Gefactureerd.',
      'Taak afgerond',
      'Klant belt morgen terug.',
    ]);
  });

  it('a creation with an Idempotency-Key is made once', async () => {
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const a = await api.call('createTask', { key, headers, body: { title: 'Eenmalig' } });
    const b = await api.call('createTask', { key, headers, body: { title: 'Eenmalig' } });
    expect(a.status).toBe(201);
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const [{ count }] = await api.sql`select count(*)::int as count from tasks where title = 'Eenmalig'`;
    expect(count).toBe(1);
  });
});
