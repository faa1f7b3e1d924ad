// The demo company's tasks, read through the API: two boards, a task in every column, links to customers and
// deals, checklists with open points, comments and the system lines of moves; their events in the event list.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  key = (await createDemo(api.db, 'never')).key;
});

describe('demo tasks', () => {
  it('two boards, the default first, and a task in every column', async () => {
    const boards = await api.call('listTaskBoards', { key });
    expect(boards.body.data.map((b: { name: string; is_default: boolean }) => [b.name, b.is_default])).toEqual([
      ['Algemeen', true],
      ['Service & onderhoud', false],
    ]);
    const tasks = await api.call('listTasks', { key, query: { limit: 100 } });
    const used = new Set(tasks.body.data.map((t: { status_id: string }) => t.status_id));
    for (const board of boards.body.data)
      for (const column of board.statuses) expect(used.has(column.id), `${board.name}: ${column.name}`).toBe(true);
    const statuses = new Set(tasks.body.data.map((t: { status: string }) => t.status));
    expect([...statuses].sort()).toEqual(['cancelled', 'completed', 'in_progress', 'open']);
    const links = tasks.body.data.flatMap((t: { links: { object: string }[] }) => t.links.map((l) => l.object));
    expect(new Set(links)).toEqual(new Set(['customer', 'deal']));
    expect(tasks.body.data.some((t: { has_open_actions: boolean }) => t.has_open_actions)).toBe(true);
  });

  it('comments by users, through the API and the system lines of moves', async () => {
    const tasks = await api.call('listTasks', { key, query: { limit: 100, 'filter[priority]': 'urgent' } });
    const all = [];
    for (const task of tasks.body.data) {
      const comments = await api.call('listTaskComments', { key, params: { task: task.id } });
      all.push(...comments.body.data);
    }
    expect(all.some((c) => c.is_system && c.body.startsWith('Verplaatst van'))).toBe(true);
    expect(all.some((c) => !c.is_system && c.author?.name)).toBe(true);
    expect(all.some((c) => !c.is_system && c.author === null)).toBe(true);
    const events = await api.call('listEvents', { key, query: { 'filter[type]': 'task.created', limit: 100 } });
    // Events are kept 30 days: the older demo tasks have none left to list.
    expect(events.body.data.length).toBeGreaterThan(5);
  });
});
