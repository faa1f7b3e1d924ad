import { etagOf, expectedVersion } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { insertNewTask, patchTaskFields, taskUpdate } from './inputs.ts';
import * as q from './queries.ts';
import { serializeBoard, serializeComment, serializeTask, type TaskView } from './serialize.ts';
import { taskActionHandlers } from './state-actions.ts';
import {
  companyLanguage,
  notifyAssignee,
  notifyComment,
  onLockedTask,
  recordCommentCreated,
  recordTaskChange,
  recordTaskViewChange,
  saveTask,
  taskNotFound,
  writeHistory,
} from './writes.ts';

const respond = (task: TaskView) => [{ data: serializeTask(task) }, 200, { ETag: etagOf(task.version) }] as const;

export const handlers = {
  listTaskBoards: async (c) => {
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    const language = companyLanguage(c);
    // Always the web application's order: the default board first, then by position.
    const page = { limit: query.limit, cursor: query.cursor, sort: 'list_order' };
    const first = await q.readBoards(tenant, page);
    const boards =
      first.data.length > 0 || page.cursor !== undefined
        ? first
        : // No board yet: the default one is made (once, whoever reads first) and the list read again.
          await tenant.transaction(async (tx) => {
            await q.ensureDefaultBoard(tx, tenant.companyId, language);
            return q.listBoards(tx, tenant.companyId, page);
          });
    return c.json({ data: boards.data.map((b) => serializeBoard(b, b.statuses)), meta: boards.meta }, 200);
  },

  listTasks: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const assigned = query['filter[assigned_user_id]'];
    const assignedUserId = assigned === undefined ? undefined : Number(assigned);
    const tenant = c.get('tenant');
    // An id beyond the safe integers names no user: nothing matches.
    const { data, meta } =
      assignedUserId !== undefined && !Number.isSafeInteger(assignedUserId)
        ? await q.listTasks(tenant, page, { assignedUserId: -1 })
        : await q.listTasks(tenant, page, {
            status: query['filter[status]'],
            priority: query['filter[priority]'],
            assignedUserId,
            boardId: query['filter[board_id]'],
            statusId: query['filter[status_id]'],
            customerId: query['filter[customer_id]'],
            updatedSince: query['filter[updated_since]'],
            metadata: query.metadata,
          });
    return c.json({ data: data.map(serializeTask), meta }, 200);
  },

  getTask: async (c) => {
    const { task } = c.req.valid('param');
    const view = await q.readTask(c.get('tenant'), task);
    if (!view) throw taskNotFound();
    return c.json(...respond(view));
  },

  createTask: async (c) => {
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const language = companyLanguage(c);
    const created = await runCreation(c, async (tx) => {
      const { view, assignee } = await insertNewTask(tx, companyId, body, language);
      // Sent with COMMIT: nothing below waits for an answer.
      await recordTaskViewChange(tx, view, 'task.created');
      await notifyAssignee(tx, view, language, assignee);
      return { status: 201 as const, body: { data: serializeTask(view) }, headers: { ETag: etagOf(view.version) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateTask: async (c) => {
    const { task } = c.req.valid('param');
    const body = c.req.valid('json');
    const language = companyLanguage(c);
    if (body.links === undefined) {
      // Without links nothing waits for the task's own rows: the lock, the checks and the write go together.
      const { companyId } = c.get('tenant');
      const expected = expectedVersion(c);
      const view = await c.get('tenant').transaction(async (tx) => {
        const { current, update, updated } = await patchTaskFields(tx, companyId, task, body, expected, language);
        if (!updated) return current;
        await writeHistory(tx, updated, update.lines);
        await recordTaskViewChange(tx, updated, 'task.updated');
        if (update.reassigned) await notifyAssignee(tx, updated, language, update.assignee);
        return updated;
      });
      return c.json(...respond(view));
    }
    // Links: only new ones are checked, so the task's links are read first.
    const view = await onLockedTask(c, task, async (tx, current, companyId) => {
      const update = await taskUpdate(tx, companyId, current, body, language);
      const linksChange = update.added.length > 0 || update.removed.length > 0;
      // Nothing different (identical links included): no new version, no history line, no event.
      if (Object.keys(update.changes).length === 0 && !linksChange) return current;
      await q.removeLinks(tx, companyId, current.id, update.removed);
      await q.addLinks(tx, companyId, current.id, update.added);
      const updated = await saveTask(tx, current, update.changes);
      await writeHistory(tx, updated, update.lines);
      await recordTaskChange(tx, updated, 'task.updated');
      if (update.reassigned) await notifyAssignee(tx, updated, language, update.assignee);
      return updated;
    });
    return c.json(...respond(view));
  },

  listTaskComments: async (c) => {
    const { task } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.findTask(tx, companyId, task))) throw taskNotFound();
      return q.listComments(tx, companyId, task, page);
    });
    return c.json({ data: data.map(serializeComment), meta }, 200);
  },

  createTaskComment: async (c) => {
    const { task } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const language = companyLanguage(c);
    const created = await runCreation(c, async (tx) => {
      const row = await q.findTask(tx, companyId, task);
      if (!row) throw taskNotFound();
      const comment = await q.insertComment(tx, companyId, row.id, { body: body.body, isSystem: false });
      await recordCommentCreated(tx, comment);
      await notifyComment(tx, row, body.body, language);
      return { status: 201 as const, body: { data: serializeComment(comment) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  ...taskActionHandlers,
} satisfies Partial<Handlers>;
