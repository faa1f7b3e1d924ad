// SQL of tasks, their boards, links and comments; every function takes the tenant transaction first.

import { and, asc, eq, exists, getTableColumns, inArray, max, not, or, type SQL, sql } from 'drizzle-orm';
import { type PgUpdateSetSource, QueryBuilder } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import {
  byRecordKey,
  type RelatedOf,
  recordReader,
  relatedExists,
  relatedRows,
  selectRelated,
} from '../../db/record-reads.ts';
import {
  taskBoards,
  taskChecklistItems,
  taskComments,
  taskLinks,
  taskStatuses,
  tasks,
  users,
} from '../../db/schema/index.ts';
import { type DriverRow, type Tenant, type Tx, tableRows } from '../../db/tenant.ts';
import { type Metadata, metadataCondition } from '../../http/metadata.ts';
import { keyset, type PageRequest, pageOf, readPage, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import type { Language } from '../../languages.ts';
import {
  type ColumnRow,
  type CommentRow,
  EXPOSED_LINK_OBJECTS,
  type TaskLink,
  type TaskRow,
  type TaskView,
} from './serialize.ts';
import { DEFAULT_COLUMNS, TASK_TEXTS } from './texts.ts';

// Boards and columns

/**
 * Creates the default board with its default columns when the company has no board at all, in one statement (its
 * answer is not needed: a creation sends it with its other statements). Concurrent first reads all try; the unique
 * index task_boards_one_default lets one insert through, the others wait for it to commit and insert nothing, and
 * their next statement sees its board and columns (committed together).
 */
export function ensureDefaultBoard(tx: Tx, companyId: string, language: Language): PromiseLike<unknown> {
  const texts = TASK_TEXTS[language];
  const columns = DEFAULT_COLUMNS.map((column, position) => ({
    id: newId(),
    name: texts.columns[column.category],
    category: column.category,
    color: column.color,
    position,
  }));
  return tx.execute(sql`
    with board as (
      insert into ${taskBoards} (company_id, id, name, is_default, position)
      select ${companyId}, ${newId()}, ${texts.board}, true, 0
      where not exists (select 1 from ${taskBoards} where company_id = ${companyId})
      on conflict (company_id) where is_default do nothing
      returning id
    )
    insert into ${taskStatuses} (company_id, id, board_id, name, category, color, position, is_default)
    select ${companyId}, c.id, board.id, c.name, c.category, c.color, c.position, true
    from board cross join jsonb_to_recordset(${JSON.stringify(columns)}::jsonb)
      as c(id uuid, name text, category text, color text, position int)`);
}

const BOARD_ORDER = { sorts: { list_order: taskBoards.listOrder }, id: taskBoards.id };

/** A board's columns in their order: read with each board of a page, in the page's statement. */
const BOARD_COLUMNS = {
  statuses: relatedRows(
    getTableColumns(taskStatuses),
    taskStatuses,
    and(eq(taskStatuses.companyId, taskBoards.companyId), eq(taskStatuses.boardId, taskBoards.id)),
    [asc(taskStatuses.position), asc(taskStatuses.id)],
  ),
};

/** A page of boards with their columns: one statement as the tenant in one round trip. */
export const readBoards = (tenant: Tenant, page: PageRequest) =>
  readPage(tenant, taskBoards, page, BOARD_ORDER, [eq(taskBoards.companyId, tenant.companyId)], BOARD_COLUMNS);

/** The same page in the caller's transaction (after making the default board). */
export const listBoards = (tx: Tx, companyId: string, page: PageRequest) =>
  selectPage(tx, taskBoards, page, BOARD_ORDER, [eq(taskBoards.companyId, companyId)], BOARD_COLUMNS);

export async function findColumn(tx: Tx, companyId: string, id: string): Promise<ColumnRow | undefined> {
  const [row] = await tx
    .select()
    .from(taskStatuses)
    .where(and(eq(taskStatuses.companyId, companyId), eq(taskStatuses.id, id)));
  return row;
}

/** The default column of `category` on the board (the default board when `boardId` is null). */
export async function defaultColumn(
  tx: Tx,
  companyId: string,
  boardId: string | null,
  category: ColumnRow['category'],
): Promise<ColumnRow | undefined> {
  const board =
    boardId === null
      ? sql`(select id from ${taskBoards} where company_id = ${companyId} and is_default)`
      : sql`${boardId}::uuid`;
  const [row] = await tx
    .select()
    .from(taskStatuses)
    .where(
      and(
        eq(taskStatuses.companyId, companyId),
        sql`${taskStatuses.boardId} = ${board}`,
        eq(taskStatuses.category, category),
        eq(taskStatuses.isDefault, true),
      ),
    );
  return row;
}

// Tasks

export type TaskFilters = {
  status?: TaskRow['status'];
  priority?: TaskRow['priority'];
  assignedUserId?: number;
  boardId?: string;
  statusId?: string;
  customerId?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

const SORTS = { created_at: tasks.createdAt, updated_at: tasks.updatedAt };

/**
 * What a task shows beside its row: its exposed links (in the order they were made) and whether its checklist
 * has open points. Read with each task of a list, in the list's statement.
 */
const DETAILS = {
  links: relatedRows(
    { object: taskLinks.object, id: taskLinks.targetId },
    taskLinks,
    and(
      eq(taskLinks.companyId, tasks.companyId),
      eq(taskLinks.taskId, tasks.id),
      inArray(taskLinks.object, [...EXPOSED_LINK_OBJECTS]),
    ),
    [asc(taskLinks.position)],
  ),
  hasOpenActions: relatedExists(
    taskChecklistItems,
    and(
      eq(taskChecklistItems.companyId, tasks.companyId),
      eq(taskChecklistItems.taskId, tasks.id),
      not(taskChecklistItems.isDone),
    ),
  ),
};

/** The row with its details; the links are the exposed ones (DETAILS selects no other object). */
const viewOf = (row: TaskRow, details: RelatedOf<typeof DETAILS>): TaskView => ({
  ...row,
  links: details.links as TaskLink[],
  hasOpenActions: details.hasOpenActions,
});

/** A page of tasks with their details: one statement as the tenant in one round trip. */
export async function listTasks(tenant: Tenant, page: PageRequest, filters: TaskFilters) {
  const conditions: (SQL | undefined)[] = [eq(tasks.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(tasks.status, filters.status));
  if (filters.priority) conditions.push(eq(tasks.priority, filters.priority));
  if (filters.assignedUserId !== undefined) conditions.push(eq(tasks.assignedUserId, filters.assignedUserId));
  if (filters.boardId) conditions.push(eq(tasks.boardId, filters.boardId));
  if (filters.statusId) conditions.push(eq(tasks.statusId, filters.statusId));
  if (filters.customerId)
    conditions.push(
      exists(
        new QueryBuilder()
          .select({ one: sql`1` })
          .from(taskLinks)
          .where(
            and(
              eq(taskLinks.companyId, tasks.companyId),
              eq(taskLinks.taskId, tasks.id),
              eq(taskLinks.object, 'customer'),
              eq(taskLinks.targetId, filters.customerId),
            ),
          ),
      ),
    );
  if (filters.updatedSince) conditions.push(atOrAfter(tasks.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, tasks, filters.metadata));
  const { data, meta } = await readPage(tenant, tasks, page, { sorts: SORTS, id: tasks.id }, conditions, DETAILS);
  return { data: data.map((row) => viewOf(row, row)), meta };
}

/** The rows with their details (DETAILS), in one statement. */
export async function withDetails(tx: Tx, companyId: string, rows: TaskRow[]): Promise<TaskView[]> {
  if (rows.length === 0) return [];
  const details = await detailsOf(
    tx,
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => withDetailsOf(row, details));
}

const readTaskWithDetails = recordReader(tasks, byRecordKey(tasks), DETAILS);

/** The task with its details: one statement as the tenant in one round trip. */
export async function readTask(tenant: Tenant, id: string): Promise<TaskView | undefined> {
  const row = await readTaskWithDetails(tenant, id);
  return row && viewOf(row, row);
}

export type TaskDetails = Map<unknown, RelatedOf<typeof DETAILS>>;

/** The details (DETAILS) of the tasks `ids`, in one statement: sent before their rows are known, it can go with them. */
export function detailsOf(tx: Tx, companyId: string, ids: string[]): Promise<TaskDetails> {
  return selectRelated(tx, tasks, tasks.id, [eq(tasks.companyId, companyId), inArray(tasks.id, ids)], DETAILS);
}

export const withDetailsOf = (row: TaskRow, details: TaskDetails): TaskView =>
  viewOf(row, details.get(row.id) ?? { links: [], hasOpenActions: false });

export async function findTask(tx: Tx, companyId: string, id: string): Promise<TaskRow | undefined> {
  const [row] = await tx
    .select()
    .from(tasks)
    .where(and(eq(tasks.companyId, companyId), eq(tasks.id, id)));
  return row;
}

/**
 * The task, locked until the transaction ends, with its change time taken after the lock (db/change-time.ts) in
 * the same statement, so that a write sent right behind it has that time.
 */
export function lockTask(tx: Tx, companyId: string, id: string): Promise<TaskRow | undefined> {
  return lockRecord(tx, tasks, companyId, id);
}

/** The place at the bottom of a column (the order within a column is the web application's, not the API's). */
const bottomOf = (companyId: string, statusId: string) =>
  sql`(select coalesce(max(${tasks.position}), 0) + 1 from ${tasks} where ${tasks.companyId} = ${companyId} and ${tasks.statusId} = ${statusId})`;

/** Columns of a new task; a date may be SQL, such as app_now() for the moment it enters a completed column. */
export type NewTask = Omit<
  typeof tasks.$inferInsert,
  'companyId' | 'id' | 'version' | 'position' | 'completedAt' | 'cancelledAt'
> & {
  completedAt: Date | SQL | null;
  cancelledAt: Date | SQL | null;
};

export async function insertTask(tx: Tx, companyId: string, fields: NewTask): Promise<TaskRow> {
  const [row] = await tx
    .insert(tasks)
    .values({ ...fields, companyId, id: newId(), position: bottomOf(companyId, fields.statusId) })
    .returning();
  return row;
}

/**
 * A new task in the column `statusId` names, or (null) the default open column of the default board: the column is
 * chosen by the insert itself, so that it can be sent before the checks of the request are answered. Undefined
 * when there is no such column. The dates of a completed or cancelled column are the moment it is entered.
 */
export async function insertTaskInColumn(
  tx: Tx,
  companyId: string,
  id: string,
  statusId: string | null,
  fields: Pick<NewTask, 'title' | 'description' | 'priority' | 'dueDate' | 'assignedUserId'> & { metadata: Metadata },
): Promise<TaskRow | undefined> {
  const column =
    statusId === null
      ? sql`c.board_id = (select id from ${taskBoards} where company_id = ${companyId} and is_default)
          and c.category = 'open' and c.is_default`
      : sql`c.id = ${statusId}`;
  const rows = await tx.execute<DriverRow>(sql`
    insert into ${tasks} (company_id, id, board_id, status_id, status, title, description, priority, due_date,
                          assigned_user_id, metadata, position, completed_at, cancelled_at)
    select ${companyId}, ${id}, c.board_id, c.id, c.category, ${fields.title}, ${fields.description ?? null},
           ${fields.priority ?? 'normal'}, ${fields.dueDate ?? null}::date, ${fields.assignedUserId ?? null}::bigint,
           ${JSON.stringify(fields.metadata)}::text::jsonb,
           (select coalesce(max(t.position), 0) + 1 from ${tasks} t where t.company_id = ${companyId} and t.status_id = c.id),
           case when c.category = 'completed' then app_now() end,
           case when c.category = 'cancelled' then app_now() end
    from ${taskStatuses} c
    where c.company_id = ${companyId} and ${column}
    returning *`);
  return tableRows(tasks, rows)[0];
}

export type TaskChanges = Omit<PgUpdateSetSource<typeof tasks>, 'companyId' | 'id' | 'version' | 'updatedAt'>;

/** A new version of the locked task; undefined when its version no longer matches. */
export async function updateTask(tx: Tx, current: TaskRow, changes: TaskChanges): Promise<TaskRow | undefined> {
  const moving = typeof changes.statusId === 'string' && changes.statusId !== current.statusId;
  const [row] = await tx
    .update(tasks)
    .set({
      ...changes,
      ...(moving && typeof changes.statusId === 'string'
        ? { position: bottomOf(current.companyId, changes.statusId) }
        : {}),
      updatedAt: sql`app_now()`,
      version: sql`${tasks.version} + 1`,
    })
    .where(and(eq(tasks.companyId, current.companyId), eq(tasks.id, current.id), eq(tasks.version, current.version)))
    .returning();
  return row;
}

/** The fields of a PATCH of a task that the write compares and sets (the assignee checked apart). */
export type TaskFields = Partial<Pick<TaskRow, 'title' | 'description' | 'priority' | 'dueDate' | 'assignedUserId'>> & {
  /** An update's merge into the stored metadata (metadataChange). */
  metadata?: SQL;
};

/**
 * A PATCH's write, sent right behind lockTask (same round trip): the task, where its version is one of `expected`
 * (undefined: any) and one of `fields` differs from what is stored, gets them with the next version at the change
 * time the lock took. Undefined when nothing was written: not found, another version, or nothing to change — the
 * locked row tells which.
 */
export async function updateTaskIfChanged(
  tx: Tx,
  companyId: string,
  id: string,
  fields: TaskFields,
  expected: ReadonlySet<number> | undefined,
): Promise<TaskRow | undefined> {
  const columns = getTableColumns(tasks);
  const differs = Object.entries(fields).map(
    ([key, value]) => sql`${columns[key as keyof TaskFields]} is distinct from ${value}`,
  );
  if (differs.length === 0 || expected?.size === 0) return undefined;
  const [row] = await tx
    .update(tasks)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${tasks.version} + 1` })
    .where(
      and(
        eq(tasks.companyId, companyId),
        eq(tasks.id, id),
        expected === undefined ? undefined : inArray(tasks.version, [...expected]),
        or(...differs),
      ),
    )
    .returning();
  return row;
}

// Links

/** Every link of the task, exposed or not, in the order they were made. */
export async function linksOf(tx: Tx, companyId: string, taskId: string) {
  return tx
    .select()
    .from(taskLinks)
    .where(and(eq(taskLinks.companyId, companyId), eq(taskLinks.taskId, taskId)))
    .orderBy(asc(taskLinks.position));
}

/** The links of a new task, in the order given (its first positions); nothing waits for the answer. */
export function insertFirstLinks(tx: Tx, companyId: string, taskId: string, links: TaskLink[]): PromiseLike<unknown> {
  return tx
    .insert(taskLinks)
    .values(links.map((l, i) => ({ companyId, taskId, object: l.object, targetId: l.id, position: i })));
}

export async function addLinks(tx: Tx, companyId: string, taskId: string, links: TaskLink[]): Promise<void> {
  if (links.length === 0) return;
  const [last] = await tx
    .select({ position: max(taskLinks.position) })
    .from(taskLinks)
    .where(and(eq(taskLinks.companyId, companyId), eq(taskLinks.taskId, taskId)));
  const start = (last?.position ?? -1) + 1;
  await tx
    .insert(taskLinks)
    .values(links.map((l, i) => ({ companyId, taskId, object: l.object, targetId: l.id, position: start + i })));
}

export async function removeLinks(tx: Tx, companyId: string, taskId: string, links: TaskLink[]): Promise<void> {
  for (const link of links) {
    await tx
      .delete(taskLinks)
      .where(
        and(
          eq(taskLinks.companyId, companyId),
          eq(taskLinks.taskId, taskId),
          eq(taskLinks.object, link.object),
          eq(taskLinks.targetId, link.id),
        ),
      );
  }
}

// Comments

const commentWithAuthor = (tx: Tx) =>
  tx
    .select({ ...getTableColumns(taskComments), authorName: users.name })
    .from(taskComments)
    .leftJoin(users, and(eq(users.companyId, taskComments.companyId), eq(users.id, taskComments.authorUserId)));

export async function listComments(tx: Tx, companyId: string, taskId: string, page: PageRequest) {
  const plan = keyset(page, { created_at: taskComments.createdAt }, taskComments.id);
  const rows: CommentRow[] = await commentWithAuthor(tx)
    .where(and(eq(taskComments.companyId, companyId), eq(taskComments.taskId, taskId), plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return pageOf(rows, page, plan);
}

export async function insertComment(
  tx: Tx,
  companyId: string,
  taskId: string,
  fields: { body: string; isSystem: boolean },
): Promise<CommentRow> {
  const [row] = await tx
    .insert(taskComments)
    .values({ companyId, id: newId(), taskId, body: fields.body, isSystem: fields.isSystem })
    .returning();
  return { ...row, authorName: null };
}

// Users

export type UserRow = { id: number; name: string; email: string; status: 'active' | 'inactive' };

/** The users by id (any status). */
export async function usersById(tx: Tx, companyId: string, ids: number[]): Promise<Map<number, UserRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, name: users.name, email: users.email, status: users.status })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, ids)));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The active user, held FOR KEY SHARE until commit (the task is assigned to this user); undefined if none. */
export async function activeUser(tx: Tx, companyId: string, id: number): Promise<UserRow | undefined> {
  const [row] = await tx
    .select({ id: users.id, name: users.name, email: users.email, status: users.status })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, id), eq(users.status, 'active')))
    .for('key share');
  return row;
}
