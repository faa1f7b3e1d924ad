// Move, complete, reopen and cancel: the transitions of a task between columns, with the source states, history
// lines and events the contract gives each (see openapi/paths/tasks.yaml).
import type { Context } from 'hono';
import type { Tx } from '../../db/tenant.ts';
import type { EventType } from '../../events/catalogue.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { etagOf } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField } from '../../http/validation.ts';
import { entering } from './inputs.ts';
import { taskMessages } from './messages.ts';
import * as q from './queries.ts';
import { type ColumnRow, serializeTask, type TaskRow, type TaskView } from './serialize.ts';
import { TASK_TEXTS } from './texts.ts';
import { companyLanguage, onLockedTask, recordTaskChange, saveTask, writeHistory } from './writes.ts';

const respond = (task: TaskView) => [{ data: serializeTask(task) }, 200, { ETag: etagOf(task.version) }] as const;

/** Puts the locked task in `column` with its history line; task.updated, and task.completed on entering completion. */
async function enter(tx: Tx, current: TaskRow, column: ColumnRow, line: string): Promise<TaskRow> {
  const updated = await saveTask(tx, current, entering(column, current));
  await writeHistory(tx, updated, [line]);
  const events: EventType[] = ['task.updated'];
  if (column.category === 'completed' && current.status !== 'completed') events.push('task.completed');
  await recordTaskChange(tx, updated, ...events);
  return updated;
}

type Action = {
  from: readonly TaskRow['status'][];
  to: ColumnRow['category'];
  refusal: 'task.complete_not_active' | 'task.cancel_not_active' | 'task.reopen_not_closed';
  line: 'completed' | 'reopened' | 'cancelled';
};

const ACTIONS = {
  complete: { from: ['open', 'in_progress'], to: 'completed', refusal: 'task.complete_not_active', line: 'completed' },
  cancel: { from: ['open', 'in_progress'], to: 'cancelled', refusal: 'task.cancel_not_active', line: 'cancelled' },
  reopen: { from: ['completed', 'cancelled'], to: 'open', refusal: 'task.reopen_not_closed', line: 'reopened' },
} as const satisfies Record<string, Action>;

/** Complete, cancel or reopen: into the default column of the target category on the task's own board. */
async function act(c: Context<AppEnv>, id: string, action: Action) {
  const language = companyLanguage(c);
  return onLockedTask(c, id, async (tx, current, companyId) => {
    if (!action.from.includes(current.status))
      throw new ApiProblem('conflict', taskMessages.message(action.refusal, { status: current.status }));
    const column = await q.defaultColumn(tx, companyId, current.boardId, action.to);
    if (!column)
      throw new ApiProblem('conflict', taskMessages.message('task.no_column_of_category', { category: action.to }));
    return enter(tx, current, column, TASK_TEXTS[language][action.line]);
  });
}

export const taskActionHandlers = {
  moveTask: async (c) => {
    const { task } = c.req.valid('param');
    const body = c.req.valid('json');
    const language = companyLanguage(c);
    const view = await onLockedTask(c, task, async (tx, current, companyId) => {
      // Already there: nothing changes, no line, no event.
      if (body.status_id.toLowerCase() === current.statusId) return current;
      const column = await q.findColumn(tx, companyId, body.status_id);
      if (!column) throw invalidField('/status_id', 'invalid_reference', taskMessages.message('task.unknown_column'));
      const from = await q.findColumn(tx, companyId, current.statusId);
      return enter(tx, current, column, TASK_TEXTS[language].moved(from?.name ?? '?', column.name));
    });
    return c.json(...respond(view));
  },

  completeTask: async (c) => c.json(...respond(await act(c, c.req.valid('param').task, ACTIONS.complete))),
  reopenTask: async (c) => c.json(...respond(await act(c, c.req.valid('param').task, ACTIONS.reopen))),
  cancelTask: async (c) => c.json(...respond(await act(c, c.req.valid('param').task, ACTIONS.cancel))),
} satisfies Partial<Handlers>;
