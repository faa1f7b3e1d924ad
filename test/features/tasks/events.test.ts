// Task events: task.created on creation, task.updated on each change (none for a change that changes nothing),
// task.completed on entering completion, task.comment_created for a comment (not for system lines); each with the
// object as it was after the change, seen only by keys with tasks.read; webhooks may subscribe with tasks.read.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { defaultColumns, taskOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  const t = await api.tenant();
  key = t.key;
  companyId = t.companyId;
});

const taskEvents = async (k = key) => {
  const res = await api.call('listEvents', { key: k, query: { limit: 100, sort: 'created_at' } });
  expect(res.status).toBe(200);
  return res.body.data.filter((e: { type: string }) => e.type.startsWith('task.'));
};

describe('task events', () => {
  it('records each change with the object after it', async () => {
    const columns = await defaultColumns(api, key);
    const task = await taskOf(api, key, { title: 'Eerste' });
    await api.call('updateTask', { key, params: { task: task.id }, body: { title: 'Eerste' } });
    await api.call('updateTask', { key, params: { task: task.id }, body: { title: 'Tweede' } });
    await api.call('moveTask', { key, params: { task: task.id }, body: { status_id: columns.inProgress } });
    await api.call('completeTask', { key, params: { task: task.id } });
    await api.call('reopenTask', { key, params: { task: task.id } });
    await api.call('moveTask', { key, params: { task: task.id }, body: { status_id: columns.completed } });
    const comment = await api.call('createTaskComment', { key, params: { task: task.id }, body: { body: 'Klaar.' } });
    const events = await taskEvents();
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      'task.created',
      'task.updated',
      'task.updated',
      'task.updated',
      'task.completed',
      'task.updated',
      'task.updated',
      'task.completed',
      'task.comment_created',
    ]);
    expect(events[0].data.object).toMatchObject({ object: 'task', id: task.id, title: 'Eerste', status: 'open' });
    expect(events[1].data.object).toMatchObject({ title: 'Tweede' });
    expect(events[4].data.object).toMatchObject({ status: 'completed' });
    expect(events[8].data.object).toEqual(comment.body.data);
  });

  it('are seen only with tasks.read, and webhooks subscribe to them only with it', async () => {
    const noTasks = await api.key(companyId, { scopes: ['customers.read', 'events.read', 'webhooks.manage'] });
    expect(await taskEvents(noTasks.key)).toEqual([]);
    const refused = await api.call('createWebhookEndpoint', {
      key: noTasks.key,
      body: { url: 'https://hooks.example.nl/crm', events: ['task.created'] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { code: string }) => e.code)).toContain('insufficient_scope');
    const withTasks = await api.key(companyId, { scopes: ['tasks.read', 'events.read', 'webhooks.manage'] });
    expect((await taskEvents(withTasks.key)).length).toBeGreaterThan(0);
  });
});
