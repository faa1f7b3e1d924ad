// Request bodies of tasks → columns, links and history lines, with the checks the contract puts on their
// references (a column, an active user and link targets of the company: 422 invalid_reference). Every invalid
// reference of a request is reported at once.
import { sql } from 'drizzle-orm';
import { tasks } from '../../db/schema/index.ts';
import { sendUntilCommit, type Tx } from '../../db/tenant.ts';
import { checkIfMatch } from '../../http/etag.ts';
import type { Message } from '../../http/message-catalogue.ts';
import {
  changedMetadata,
  type MetadataInput,
  metadataChange,
  metadataLimit,
  newMetadata,
} from '../../http/metadata.ts';
import { ApiProblem, type FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import type { Language } from '../../languages.ts';
import { companyMessages } from '../company/messages.ts';
import { missingTargets } from './links.ts';
import { taskMessages } from './messages.ts';
import * as q from './queries.ts';
import type { ColumnRow, LinkObject, TaskLink, TaskRow, TaskView } from './serialize.ts';
import { EXPOSED_LINK_OBJECTS } from './serialize.ts';
import { TASK_TEXTS } from './texts.ts';
import { taskNotFound } from './writes.ts';

type LinkInput = { object: LinkObject; id: string };
type CreateBody = {
  title: string;
  description?: string | null;
  priority?: TaskRow['priority'];
  due_date?: string | null;
  assigned_user_id?: string | null;
  status_id?: string | null;
  links?: LinkInput[];
  metadata?: MetadataInput;
};
type UpdateBody = Omit<CreateBody, 'title' | 'status_id'> & { title?: string };

const reference = (pointer: string, detail: Message): FieldError => ({
  pointer,
  parameter: null,
  code: 'invalid_reference',
  detail,
});

const keyOf = (link: LinkInput) => `${link.object}:${link.id.toLowerCase()}`;

/** Collects invalid references; `done` throws them as one 422. */
class Problems {
  readonly errors: FieldError[] = [];
  add(error: FieldError) {
    this.errors.push(error);
  }
  /** The user, when found active (activeUser), else a recorded error. */
  user(found: q.UserRow | undefined): q.UserRow | undefined {
    if (!found) this.add(reference('/assigned_user_id', companyMessages.message('user.unknown_reference')));
    return found;
  }
  /** Records every link (its first mention, by index in the input) among `missing` (missingTargets). */
  links(input: LinkInput[], missing: Set<string>) {
    const reported = new Set<string>();
    for (const [i, link] of input.entries()) {
      const key = keyOf(link);
      if (!missing.has(key) || reported.has(key)) continue;
      reported.add(key);
      this.add(reference(`/links/${i}/id`, taskMessages.message('task.unknown_link', { object: link.object })));
    }
  }
  done() {
    if (this.errors.length > 0) throw invalidFields(this.errors);
  }
}

/** The links once each, in the order first given, ids lower-case as PostgreSQL returns them. */
function distinctLinks(links: LinkInput[]): TaskLink[] {
  const seen = new Map<string, TaskLink>();
  for (const link of links) if (!seen.has(keyOf(link))) seen.set(keyOf(link), { ...link, id: link.id.toLowerCase() });
  return [...seen.values()];
}

/** The dates and status of a task entering `column` (completed_at kept between two completed columns). */
export function entering(column: ColumnRow, current?: TaskRow) {
  const keep = (category: 'completed' | 'cancelled', at: Date | null | undefined) =>
    column.category === category ? (current?.status === category && at ? at : sql`app_now()`) : null;
  return {
    boardId: column.boardId,
    statusId: column.id,
    status: column.category,
    completedAt: keep('completed', current?.completedAt),
    cancelledAt: keep('cancelled', current?.cancelledAt),
  };
}

/** The active user `id` names (activeUser: held until commit), undefined for none; sent at once. */
function activeUserOf(tx: Tx, companyId: string, id: string): Promise<q.UserRow | undefined> {
  const n = Number(id);
  return Number.isSafeInteger(n) ? q.activeUser(tx, companyId, n) : Promise.resolve(undefined);
}

/**
 * A new task with its links, in the transaction's first round trip: the checks of its column, user and links,
 * the default board when no column is named and the insert (which chooses its column itself) are all sent before
 * any answer is awaited; its links go with COMMIT. When a check fails, its 422 is thrown and the transaction, insert included,
 * is rolled back; the insert's own failure (a user that does not exist) is then not the one reported. The answer's
 * links are the ones given (a new task has no other), its checklist is empty. The assignee when there is one.
 */
export async function insertNewTask(
  tx: Tx,
  companyId: string,
  body: CreateBody,
  language: Language,
): Promise<{ view: TaskView; assignee: q.UserRow | undefined }> {
  const statusId = body.status_id ?? null;
  const userId = body.assigned_user_id ?? null;
  const links = distinctLinks(body.links ?? []);
  const column = statusId === null ? undefined : q.findColumn(tx, companyId, statusId);
  const user = userId === null ? undefined : activeUserOf(tx, companyId, userId);
  const missing = missingTargets(tx, companyId, links);
  if (statusId === null) await sendUntilCommit(tx, q.ensureDefaultBoard(tx, companyId, language));
  const id = newId();
  const n = Number(userId);
  const insert = q.insertTaskInColumn(tx, companyId, id, statusId, {
    title: body.title,
    description: body.description ?? null,
    priority: body.priority ?? 'normal',
    dueDate: body.due_date ?? null,
    assignedUserId: userId !== null && Number.isSafeInteger(n) ? n : null,
    metadata: newMetadata(body.metadata),
  });
  const inserted = insert.then(
    (row) => ({ row }),
    (error: unknown) => ({ row: undefined, error }),
  );

  const problems = new Problems();
  const [found, assignee, absent] = await Promise.all([column, user, missing]);
  if (statusId !== null && !found) problems.add(reference('/status_id', taskMessages.message('task.unknown_column')));
  if (userId !== null) problems.user(assignee);
  problems.links(body.links ?? [], absent);
  problems.done();
  const outcome = await inserted;
  if ('error' in outcome) throw outcome.error;
  if (!outcome.row) throw new ApiProblem('conflict', taskMessages.message('task.no_default_board'));
  // After the insert's answer (sent with COMMIT): a statement sent behind one that postgres.js describes first
  // (its first use on the connection) was seen to run before it.
  if (links.length > 0) await sendUntilCommit(tx, q.insertFirstLinks(tx, companyId, id, links));
  return { view: { ...outcome.row, links, hasOpenActions: false }, assignee };
}

export type TaskUpdate = {
  changes: q.TaskChanges;
  added: TaskLink[];
  removed: TaskLink[];
  /** History lines, in the company's language. */
  lines: string[];
  /** A (new) user is now assigned: to be notified. */
  reassigned: boolean;
  /** The new assignee, when one was checked. */
  assignee: q.UserRow | undefined;
};

/** The field changes of an update (only fields sent with another value) and their history lines. */
function fieldChanges(
  current: TaskRow,
  body: UpdateBody,
  language: Language,
  assignee: q.UserRow | undefined,
): Omit<TaskUpdate, 'added' | 'removed' | 'assignee'> {
  const texts = TASK_TEXTS[language];
  // A change of metadata writes no history line: it is the integrator's, not the team's.
  const changes: q.TaskChanges = { ...changedMetadata(current.metadata, body.metadata) };
  const lines: string[] = [];
  if (body.title !== undefined && body.title !== current.title) {
    changes.title = body.title;
    lines.push(texts.title(current.title, body.title));
  }
  if (body.description !== undefined && body.description !== current.description)
    changes.description = body.description;
  if (body.priority !== undefined && body.priority !== current.priority) {
    changes.priority = body.priority;
    lines.push(texts.priority(texts.priorities[current.priority], texts.priorities[body.priority]));
  }
  if (body.due_date !== undefined && body.due_date !== current.dueDate) {
    changes.dueDate = body.due_date;
    const shown = (d: string | null) => (d === null ? texts.none : texts.date(d));
    lines.push(texts.dueDate(shown(current.dueDate), shown(body.due_date)));
  }
  let reassigned = false;
  if (assigning(current, body)) {
    if (body.assigned_user_id === null) {
      changes.assignedUserId = null;
      lines.push(texts.unassignedLine);
    } else if (assignee) {
      changes.assignedUserId = assignee.id;
      reassigned = true;
      lines.push(texts.assigned(assignee.name));
    }
  }
  return { changes, lines, reassigned };
}

/** Whether the update names another assignee than the current one (only a new one is checked). */
const assigning = (current: TaskRow, body: UpdateBody) =>
  body.assigned_user_id !== undefined && body.assigned_user_id !== idOrNull(current.assignedUserId);

/** What an update changes (only fields sent with another value), after checking a new user and new links. */
export async function taskUpdate(
  tx: Tx,
  companyId: string,
  current: TaskRow,
  body: UpdateBody,
  language: Language,
): Promise<TaskUpdate> {
  const texts = TASK_TEXTS[language];
  const problems = new Problems();
  const newUser = assigning(current, body) && body.assigned_user_id ? body.assigned_user_id : undefined;
  const assignee = newUser === undefined ? undefined : problems.user(await activeUserOf(tx, companyId, newUser));
  const { changes, lines, reassigned } = fieldChanges(current, body, language, assignee);
  let added: TaskLink[] = [];
  let removed: TaskLink[] = [];
  if (body.links !== undefined) {
    const wanted = distinctLinks(body.links);
    const exposed: readonly string[] = EXPOSED_LINK_OBJECTS;
    const existing = (await q.linksOf(tx, companyId, current.id))
      .filter((l) => exposed.includes(l.object))
      .map((l) => ({ object: l.object as LinkObject, id: l.targetId }));
    const has = (list: TaskLink[], link: TaskLink) => list.some((l) => keyOf(l) === keyOf(link));
    added = wanted.filter((l) => !has(existing, l));
    removed = existing.filter((l) => !has(wanted, l));
    // Only new links are checked: a kept link stays even if its record is gone.
    problems.links(body.links, await missingTargets(tx, companyId, added));
    if (added.length > 0 || removed.length > 0) lines.push(texts.links(added.length, removed.length));
  }
  problems.done();
  return { changes, added, removed, lines, reassigned, assignee };
}

/**
 * An update without links, in the transaction's first round trip: the lock (with the change time), the check of
 * a new user (sent whether or not it is new: only the locked row tells) and the conditional write
 * (updateTaskIfChanged) are sent together, with the details the answer shows (unchanged by such an update). The
 * locked row then tells what the write did not do: 404, 412, or nothing to change. A refused user is the 422 and
 * the transaction, write included, is rolled back.
 */
export async function patchTaskFields(
  tx: Tx,
  companyId: string,
  id: string,
  body: UpdateBody,
  expected: ReadonlySet<number> | undefined,
  language: Language,
): Promise<{ current: TaskView; update: TaskUpdate; updated: TaskView | undefined }> {
  const userId = body.assigned_user_id ?? null;
  const locking = q.lockTask(tx, companyId, id);
  const user = userId === null ? undefined : activeUserOf(tx, companyId, userId);
  const n = Number(userId);
  const fields: q.TaskFields = {
    title: body.title,
    description: body.description,
    priority: body.priority,
    dueDate: body.due_date,
    assignedUserId: body.assigned_user_id === null ? null : userId !== null && Number.isSafeInteger(n) ? n : undefined,
  };
  for (const key of Object.keys(fields) as (keyof q.TaskFields)[]) if (fields[key] === undefined) delete fields[key];
  Object.assign(fields, metadataChange(tasks.metadata, body.metadata));
  const writing = q.updateTaskIfChanged(tx, companyId, id, fields, expected).then(
    (row) => ({ row }),
    (error: unknown) => ({ row: undefined, error }),
  );
  const details = q.detailsOf(tx, companyId, [id]);
  // Awaited below unless a problem is thrown first: not an unhandled rejection then.
  details.catch(() => {});
  const [current, found] = await Promise.all([locking, user]);
  checkIfMatch(current, expected, taskNotFound);
  const problems = new Problems();
  const assignee = assigning(current, body) && userId !== null ? problems.user(found) : undefined;
  problems.done();
  const update = { ...fieldChanges(current, body, language, assignee), added: [], removed: [], assignee };
  const [outcome, detail] = await Promise.all([writing, details]);
  if ('error' in outcome) return metadataLimit(outcome.error);
  const updated = outcome.row && q.withDetailsOf(outcome.row, detail);
  return { current: q.withDetailsOf(current, detail), update, updated };
}

const idOrNull = (id: number | null) => (id === null ? null : String(id));
