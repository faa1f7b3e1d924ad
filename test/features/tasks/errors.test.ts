// The error answers of tasks: 404 for an unknown task or another company's, 422 invalid_reference for an unknown
// column or an inactive or unknown user, 412 for a stale If-Match, 409 for a transition the task's status or board
// does not allow, and 409 when the company's boards have no default.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { defaultColumns, MISSING, taskOf, userOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  companyId = t.companyId;
});

describe('task errors', () => {
  it('404 for an unknown task and for another company’s, on every operation of one task', async () => {
    const other = await api.tenant();
    const foreign = await taskOf(api, other.key);
    for (const task of [MISSING, foreign.id]) {
      const params = { task };
      const answers = [
        await api.call('getTask', { key, params }),
        await api.call('updateTask', { key, params, body: { title: 'x' } }),
        await api.call('moveTask', { key, params, body: { status_id: MISSING } }),
        await api.call('completeTask', { key, params }),
        await api.call('reopenTask', { key, params }),
        await api.call('cancelTask', { key, params }),
        await api.call('listTaskComments', { key, params }),
        await api.call('createTaskComment', { key, params, body: { body: 'x' } }),
      ];
      for (const a of answers) expect([a.status, a.body.code]).toEqual([404, 'not_found']);
    }
  });

  it('422 invalid_reference for an unknown column, an inactive user and an id beyond any user, all at once', async () => {
    const inactive = await userOf(api, companyId, { status: 'inactive' });
    const res = await api.call('createTask', {
      key,
      body: { title: 'x', status_id: MISSING, assigned_user_id: String(inactive) },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/status_id', 'invalid_reference'],
      ['/assigned_user_id', 'invalid_reference'],
    ]);
    const huge = await api.call('createTask', { key, body: { title: 'x', assigned_user_id: '999999999999999999' } });
    expect(huge.status).toBe(422);
    const other = await api.tenant();
    const foreignUser = await userOf(api, other.companyId);
    const task = await taskOf(api, key);
    const update = await api.call('updateTask', {
      key,
      params: { task: task.id },
      body: { assigned_user_id: String(foreignUser) },
    });
    expect(update.status).toBe(422);
    const move = await api.call('moveTask', { key, params: { task: task.id }, body: { status_id: MISSING } });
    expect([move.status, move.body.errors[0].pointer]).toEqual([422, '/status_id']);
  });

  it('412 for a stale If-Match on update and move, with the current ETag; nothing changes', async () => {
    const columns = await defaultColumns(api, key);
    const task = await taskOf(api, key);
    await api.call('updateTask', { key, params: { task: task.id }, body: { title: 'Nieuw' } });
    const stale = { 'If-Match': '"1"' };
    const update = await api.call('updateTask', {
      key,
      params: { task: task.id },
      headers: stale,
      body: { title: 'Oud' },
    });
    expect([update.status, update.body.code]).toEqual([412, 'precondition_failed']);
    expect(update.body.detail).toContain('"2"');
    const move = await api.call('moveTask', {
      key,
      params: { task: task.id },
      headers: stale,
      body: { status_id: columns.inProgress },
    });
    expect(move.status).toBe(412);
    const complete = await api.call('completeTask', { key, params: { task: task.id }, headers: stale });
    expect(complete.status).toBe(412);
    const got = await api.call('getTask', { key, params: { task: task.id } });
    expect(got.body.data).toMatchObject({ title: 'Nieuw', status: 'open' });
    const ok = await api.call('completeTask', { key, params: { task: task.id }, headers: { 'If-Match': '"2"' } });
    expect(ok.status).toBe(200);
  });

  it('409 when the task’s board has no column of the category asked for', async () => {
    const t = await api.tenant();
    const board = crypto.randomUUID();
    const open = crypto.randomUUID();
    await api.sql`insert into task_boards (company_id, id, name, is_default, position) values (${t.companyId}, ${board}, 'Klein', true, 0)`;
    await api.sql`insert into task_statuses (company_id, id, board_id, name, category, position, is_default)
                  values (${t.companyId}, ${open}, ${board}, 'Open', 'open', 0, true)`;
    const task = await taskOf(api, t.key);
    expect(task.status_id).toBe(open);
    const res = await api.call('cancelTask', { key: t.key, params: { task: task.id } });
    expect([res.status, res.body.code]).toEqual([409, 'conflict']);
    expect(res.body.detail).toContain('cancelled');
  });

  it('409 for a creation without status_id when the company’s boards have no default', async () => {
    const t = await api.tenant();
    await api.sql`insert into task_boards (company_id, id, name, position) values (${t.companyId}, ${crypto.randomUUID()}, 'Los', 0)`;
    const res = await api.call('createTask', { key: t.key, body: { title: 'x' } });
    expect([res.status, res.body.code]).toEqual([409, 'conflict']);
  });
});
