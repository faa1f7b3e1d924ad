// The steps every task change shares: working on the locked task (404, If-Match), saving a new version, its
// history lines (system comments in the company's language), its events and its notification emails — all in
// the change's transaction.
import type { Context } from 'hono';
import { sendUntilCommit, type Tx } from '../../db/tenant.ts';
import type { EventType } from '../../events/catalogue.ts';
import { recordEvent } from '../../events/record.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { onLocked, preconditionFailed } from '../../http/etag.ts';
import { ApiProblem } from '../../http/problems.ts';
import { LANGUAGES, type Language } from '../../languages.ts';
import { queueEmail } from '../../mail/outbox.ts';
import { taskMessages } from './messages.ts';
import * as q from './queries.ts';
import { type CommentRow, serializeComment, serializeTask, type TaskRow, type TaskView } from './serialize.ts';
import { TASK_TEXTS } from './texts.ts';

export const taskNotFound = () => new ApiProblem('not_found', taskMessages.message('task.not_found'));

/** The company's language, in which the service writes history lines and notifications. */
export function companyLanguage(c: Context<AppEnv>): Language {
  const language = c.get('auth').key.company.language;
  return LANGUAGES.find((l) => l === language) ?? 'en';
}

/** Runs `work` on the task locked in a tenant transaction, after the If-Match check. */
export function onLockedTask(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: TaskRow, companyId: string) => Promise<TaskRow>,
): Promise<TaskView> {
  return onLocked(c, { lock: q.lockTask, notFound: taskNotFound }, id, async (tx, current, companyId) => {
    const row = await work(tx, current, companyId);
    const [view] = await q.withDetails(tx, companyId, [row]);
    return view;
  });
}

/** The next version of the locked task. */
export async function saveTask(tx: Tx, current: TaskRow, changes: q.TaskChanges): Promise<TaskRow> {
  const updated = await q.updateTask(tx, current, changes);
  // Cannot happen while the row is locked; kept so a lost update can never pass silently.
  if (!updated) throw preconditionFailed(current.version + 1);
  return updated;
}

/** The system comments of a change, in order, each its own line; sent with COMMIT (their rows are not needed). */
export async function writeHistory(tx: Tx, task: TaskRow, lines: string[]): Promise<void> {
  for (const body of lines)
    await sendUntilCommit(tx, q.insertComment(tx, task.companyId, task.id, { body, isSystem: true }));
}

/** The task's events, in order, each with the task as it is now (seen with tasks.read). */
export async function recordTaskChange(tx: Tx, task: TaskRow, ...types: EventType[]): Promise<void> {
  const [view] = await q.withDetails(tx, task.companyId, [task]);
  await recordTaskViewChange(tx, view, ...types);
}

/** recordTaskChange with the task's details already known (sent with COMMIT: nothing waits). */
export async function recordTaskViewChange(tx: Tx, view: TaskView, ...types: EventType[]): Promise<void> {
  const task = view;
  const object = serializeTask(view);
  for (const type of types) {
    await recordEvent(tx, task.companyId, { type, scope: 'tasks.read', customerId: null, object });
  }
}

export async function recordCommentCreated(tx: Tx, comment: CommentRow): Promise<void> {
  await recordEvent(tx, comment.companyId, {
    type: 'task.comment_created',
    scope: 'tasks.read',
    customerId: null,
    object: serializeComment(comment),
  });
}

/**
 * Emails the user the task is now assigned to (an active user: checked when assigning), `known` when the check
 * read it.
 */
export async function notifyAssignee(tx: Tx, task: TaskRow, language: Language, known?: q.UserRow): Promise<void> {
  if (task.assignedUserId === null) return;
  const user =
    known?.id === task.assignedUserId
      ? known
      : (await q.usersById(tx, task.companyId, [task.assignedUserId])).get(task.assignedUserId);
  if (!user || user.status !== 'active') return;
  const texts = TASK_TEXTS[language];
  await queueEmail(tx, task.companyId, {
    to: [user.email],
    subject: texts.assignedSubject(task.title),
    text: texts.assignedText(task.title, task.dueDate ? texts.date(task.dueDate) : texts.none),
    kind: 'task_assigned',
  });
}

/** Emails the assignee and the creator of the task (each once, active users only) about a new comment. */
export async function notifyComment(tx: Tx, task: TaskRow, body: string, language: Language): Promise<void> {
  const ids = [task.assignedUserId, task.createdByUserId].filter((id): id is number => id !== null);
  const found = await q.usersById(tx, task.companyId, [...new Set(ids)]);
  const texts = TASK_TEXTS[language];
  for (const user of found.values()) {
    if (user.status !== 'active') continue;
    await queueEmail(tx, task.companyId, {
      to: [user.email],
      subject: texts.commentSubject(task.title),
      text: texts.commentText(task.title, body),
      kind: 'task_comment',
    });
  }
}
