// Request bodies of tasks → columns, links and history lines, with the checks the contract puts on their
// references (a column, an active user and link targets of the company: 422 invalid_reference). Every invalid
// reference of a request is reported at once.
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/tenant.ts';
import type { Message } from '../../http/messages.ts';
import { ApiProblem, type FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import type { Language } from '../../languages.ts';
import { companyMessages } from '../company/messages.ts';
import { missingTargets } from './links.ts';
import { taskMessages } from './messages.ts';
import * as q from './queries.ts';
import type { ColumnRow, LinkObject, TaskLink, TaskRow } from './serialize.ts';
import { EXPOSED_LINK_OBJECTS } from './serialize.ts';
import { TASK_TEXTS } from './texts.ts';

type LinkInput = { object: LinkObject; id: string };
type CreateBody = {
  title: string;
  description?: string | null;
  priority?: TaskRow['priority'];
  due_date?: string | null;
  assigned_user_id?: string | null;
  status_id?: string | null;
  links?: LinkInput[];
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
  /** The user id when it names an active user of the company, else a recorded error. */
  async user(tx: Tx, companyId: string, id: string): Promise<number | undefined> {
    const n = Number(id);
    if (Number.isSafeInteger(n) && (await q.isActiveUser(tx, companyId, n))) return n;
    this.add(reference('/assigned_user_id', companyMessages.message('user.unknown_reference')));
    return undefined;
  }
  /** Records every link (its first mention, by index in the input) whose record does not exist. */
  async links(tx: Tx, companyId: string, input: LinkInput[], checked: LinkInput[]) {
    const missing = await missingTargets(tx, companyId, checked);
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

/** The columns and links of a new task, after checking its column, user and links. */
export async function newTask(
  tx: Tx,
  companyId: string,
  body: CreateBody,
  language: Language,
): Promise<{ columns: q.NewTask; links: TaskLink[] }> {
  const problems = new Problems();
  let column: ColumnRow | undefined;
  if (body.status_id !== undefined && body.status_id !== null) {
    column = await q.findColumn(tx, companyId, body.status_id);
    if (!column) problems.add(reference('/status_id', taskMessages.message('task.unknown_column')));
  }
  let assignedUserId: number | null = null;
  if (body.assigned_user_id !== undefined && body.assigned_user_id !== null)
    assignedUserId = (await problems.user(tx, companyId, body.assigned_user_id)) ?? null;
  const links = distinctLinks(body.links ?? []);
  await problems.links(tx, companyId, body.links ?? [], links);
  problems.done();
  if (!column) {
    await q.ensureDefaultBoard(tx, companyId, language);
    column = await q.defaultColumn(tx, companyId, null, 'open');
    if (!column) throw new ApiProblem('conflict', taskMessages.message('task.no_default_board'));
  }
  return {
    columns: {
      title: body.title,
      description: body.description ?? null,
      priority: body.priority ?? 'normal',
      dueDate: body.due_date ?? null,
      assignedUserId,
      ...entering(column),
    },
    links,
  };
}

export type TaskUpdate = {
  changes: q.TaskChanges;
  added: TaskLink[];
  removed: TaskLink[];
  /** History lines, in the company's language. */
  lines: string[];
  /** A (new) user is now assigned: to be notified. */
  reassigned: boolean;
};

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
  const changes: q.TaskChanges = {};
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
  if (body.assigned_user_id !== undefined && body.assigned_user_id !== idOrNull(current.assignedUserId)) {
    // Only a new assignee is checked: unassigning is always allowed.
    if (body.assigned_user_id === null) {
      changes.assignedUserId = null;
      lines.push(texts.unassignedLine);
    } else {
      const id = await problems.user(tx, companyId, body.assigned_user_id);
      if (id !== undefined) {
        changes.assignedUserId = id;
        reassigned = true;
        const user = (await q.usersById(tx, companyId, [id])).get(id);
        lines.push(texts.assigned(user?.name ?? String(id)));
      }
    }
  }
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
    await problems.links(tx, companyId, body.links, added);
    if (added.length > 0 || removed.length > 0) lines.push(texts.links(added.length, removed.length));
  }
  problems.done();
  return { changes, added, removed, lines, reassigned };
}

const idOrNull = (id: number | null) => (id === null ? null : String(id));
