// Races: many concurrent first reads of the boards (also through a second API process) create exactly one
// default board with its four columns; concurrent moves with the same If-Match let exactly one through (the
// others 412 with the new ETag), and concurrent moves without If-Match queue and each write its line.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { commentsOf, defaultColumns, taskOf } from './fixtures.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

describe('the default board under concurrent first reads', () => {
  it('twelve parallel first reads through two processes: one board, four columns, all answers alike', async () => {
    const second = await api.otherProcess();
    for (let round = 0; round < 3; round++) {
      const t = await api.tenant();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? second.call : api.call)('listTaskBoards', { key: t.key })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
      const ids = new Set(results.map((r) => r.body.data.map((b: { id: string }) => b.id).join()));
      expect(ids.size).toBe(1);
      for (const r of results) expect(r.body.data[0].statuses).toHaveLength(4);
      const [{ boards, columns }] = await api.sql`
        select (select count(*)::int from task_boards where company_id = ${t.companyId}) as boards,
               (select count(*)::int from task_statuses where company_id = ${t.companyId}) as columns`;
      expect({ boards, columns }).toEqual({ boards: 1, columns: 4 });
    }
  });

  it('a first read racing first creations: one board, every task in its open column', async () => {
    const t = await api.tenant();
    const results = await Promise.all([
      api.call('listTaskBoards', { key: t.key }),
      ...Array.from({ length: 5 }, (_, i) => api.call('createTask', { key: t.key, body: { title: `Taak ${i}` } })),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 201, 201, 201, 201, 201]);
    const [board] = results[0].body.data;
    const open = board.statuses.find((s: { category: string }) => s.category === 'open').id;
    for (const r of results.slice(1)) expect(r.body.data).toMatchObject({ board_id: board.id, status_id: open });
    const [{ boards }] =
      await api.sql`select count(*)::int as boards from task_boards where company_id = ${t.companyId}`;
    expect(boards).toBe(1);
  });
});

describe('moves under concurrency', () => {
  it('eight moves with the same If-Match: one 200, seven 412 naming the new ETag; one history line', async () => {
    const t = await api.tenant();
    const columns = await defaultColumns(api, t.key);
    const task = await taskOf(api, t.key);
    const targets = [columns.inProgress, columns.completed, columns.cancelled, columns.inProgress];
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.call('moveTask', {
          key: t.key,
          params: { task: task.id },
          headers: { 'If-Match': '"1"' },
          body: { status_id: targets[i % targets.length] },
        }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(412);
      expect(r.body.code).toBe('precondition_failed');
      expect(r.body.detail).toContain('"2"');
    }
    expect(ok[0].headers.get('etag')).toBe('"2"');
    expect(await commentsOf(api, t.key, task.id)).toHaveLength(1);
    const got = await api.call('getTask', { key: t.key, params: { task: task.id } });
    expect(got.body.data.status_id).toBe(ok[0].body.data.status_id);
  });

  it('moves without If-Match queue: every one applies in turn, versions and lines count them all', async () => {
    const t = await api.tenant();
    const columns = await defaultColumns(api, t.key);
    const task = await taskOf(api, t.key);
    const order = [
      columns.inProgress,
      columns.open,
      columns.inProgress,
      columns.open,
      columns.inProgress,
      columns.open,
    ];
    const results = await Promise.all(
      order.map((status_id) => api.call('moveTask', { key: t.key, params: { task: task.id }, body: { status_id } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const got = await api.call('getTask', { key: t.key, params: { task: task.id } });
    const lines = await commentsOf(api, t.key, task.id);
    // A move into the column the task is already in changes nothing: versions and lines agree.
    expect(Number(got.headers.get('etag')?.replaceAll('"', ''))).toBe(1 + lines.length);
    expect(lines.length).toBeGreaterThanOrEqual(1);
  });

  it('a complete racing a cancel: one wins, the other is refused with 409', async () => {
    const t = await api.tenant();
    const task = await taskOf(api, t.key);
    const [complete, cancel] = await Promise.all([
      api.call('completeTask', { key: t.key, params: { task: task.id } }),
      api.call('cancelTask', { key: t.key, params: { task: task.id } }),
    ]);
    expect([complete.status, cancel.status].sort()).toEqual([200, 409]);
  });
});
