// Tasks on the boards of crm.ts: the tasks, their links to other records, their comments (system lines
// included) and their checklists (action points, kept by the web application; the API only reads whether one
// is unchecked).
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { companyId, createdAt, metadata, ts, updatedAt, version } from './columns.ts';
import { taskStatuses } from './crm.ts';
import { companies, users } from './platform.ts';

export const TASK_CATEGORIES = ['open', 'in_progress', 'completed', 'cancelled'] as const;
export const TASK_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** What a link may point to; `conversation` is kept but not exposed by the API (version 1). */
export const TASK_LINK_OBJECTS = [
  'customer',
  'deal',
  'appointment',
  'work_order',
  'quote',
  'invoice',
  'conversation',
] as const;

export const tasks = pgTable(
  'tasks',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    metadata: metadata(),
    boardId: uuid('board_id').notNull(),
    statusId: uuid('status_id').notNull(),
    /** Follows the category of the column the task is in. */
    status: text('status', { enum: TASK_CATEGORIES }).notNull(),
    title: text('title').notNull(),
    description: text('description'),
    priority: text('priority', { enum: TASK_PRIORITIES }).notNull().default('normal'),
    dueDate: date('due_date', { mode: 'string' }),
    assignedUserId: bigint('assigned_user_id', { mode: 'number' }),
    /** The user who created the task in the web application; null for a task created through the API. */
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }),
    /** Order within the column (not part of the API): a moved task goes to the bottom. */
    position: integer('position').notNull().default(0),
    completedAt: ts('completed_at'),
    cancelledAt: ts('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({
      columns: [t.companyId, t.boardId, t.statusId],
      foreignColumns: [taskStatuses.companyId, taskStatuses.boardId, taskStatuses.id],
    }),
    foreignKey({ columns: [t.companyId, t.assignedUserId], foreignColumns: [users.companyId, users.id] }),
    foreignKey({ columns: [t.companyId, t.createdByUserId], foreignColumns: [users.companyId, users.id] }),
    index('tasks_created').on(t.companyId, t.createdAt, t.id),
    index('tasks_updated').on(t.companyId, t.updatedAt, t.id),
    index('tasks_status_id').on(t.companyId, t.statusId),
    index('tasks_assigned_user').on(t.companyId, t.assignedUserId),
    check('tasks_completed_at', sql`(${t.status} = 'completed') = (${t.completedAt} is not null)`),
    check('tasks_cancelled_at', sql`(${t.status} = 'cancelled') = (${t.cancelledAt} is not null)`),
  ],
);

export const taskLinks = pgTable(
  'task_links',
  {
    companyId: companyId().references(() => companies.id),
    taskId: uuid('task_id').notNull(),
    object: text('object', { enum: TASK_LINK_OBJECTS }).notNull(),
    targetId: uuid('target_id').notNull(),
    /** The order the links were made in. */
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.taskId, t.object, t.targetId] }),
    foreignKey({ columns: [t.companyId, t.taskId], foreignColumns: [tasks.companyId, tasks.id] }).onDelete('cascade'),
    // filter[customer_id] and a record's tasks.
    index('task_links_target').on(t.companyId, t.object, t.targetId),
  ],
);

export const taskComments = pgTable(
  'task_comments',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    taskId: uuid('task_id').notNull(),
    body: text('body').notNull(),
    /** A line the service wrote itself (history of changes, moves). */
    isSystem: boolean('is_system').notNull().default(false),
    authorUserId: bigint('author_user_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.taskId], foreignColumns: [tasks.companyId, tasks.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.companyId, t.authorUserId], foreignColumns: [users.companyId, users.id] }),
    index('task_comments_task').on(t.companyId, t.taskId, t.createdAt, t.id),
  ],
);

export const taskChecklistItems = pgTable(
  'task_checklist_items',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    taskId: uuid('task_id').notNull(),
    text: text('text').notNull(),
    isDone: boolean('is_done').notNull().default(false),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.taskId], foreignColumns: [tasks.companyId, tasks.id] }).onDelete('cascade'),
    // has_open_actions: whether an unchecked point exists.
    index('task_checklist_items_open')
      .on(t.companyId, t.taskId)
      .where(sql`not ${t.isDone}`),
  ],
);
