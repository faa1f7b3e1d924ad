import type { taskBoards, taskComments, taskStatuses, tasks } from '../../db/schema/index.ts';
import { idString, iso, isoOrNull } from '../../http/serialize.ts';

export type TaskRow = typeof tasks.$inferSelect;
export type BoardRow = typeof taskBoards.$inferSelect;
export type ColumnRow = typeof taskStatuses.$inferSelect;
export type CommentRow = typeof taskComments.$inferSelect & { authorName: string | null };

/** The kinds of link the API exposes (version 1); others (a conversation) are kept but not shown. */
export const EXPOSED_LINK_OBJECTS = ['customer', 'deal', 'appointment', 'work_order', 'quote', 'invoice'] as const;
export type LinkObject = (typeof EXPOSED_LINK_OBJECTS)[number];
export type TaskLink = { object: LinkObject; id: string };

/** A task with what the API shows besides its row: its exposed links and whether its checklist is unfinished. */
export type TaskView = TaskRow & { links: TaskLink[]; hasOpenActions: boolean };

export function serializeTask(task: TaskView) {
  return {
    object: 'task' as const,
    id: task.id,
    title: task.title,
    description: task.description,
    status: task.status,
    priority: task.priority,
    due_date: task.dueDate,
    board_id: task.boardId,
    status_id: task.statusId,
    assigned_user_id: task.assignedUserId === null ? null : idString(task.assignedUserId),
    links: task.links.map((link) => ({ object: link.object, id: link.id })),
    has_open_actions: task.hasOpenActions,
    completed_at: isoOrNull(task.completedAt),
    cancelled_at: isoOrNull(task.cancelledAt),
    metadata: task.metadata,
    created_at: iso(task.createdAt),
    updated_at: iso(task.updatedAt),
  };
}

export function serializeComment(row: CommentRow) {
  return {
    object: 'task_comment' as const,
    id: row.id,
    task_id: row.taskId,
    body: row.body,
    is_system: row.isSystem,
    author:
      row.authorUserId !== null && row.authorName !== null && !row.isSystem
        ? { object: 'user' as const, id: idString(row.authorUserId), name: row.authorName }
        : null,
    created_at: iso(row.createdAt),
  };
}

export function serializeBoard(board: BoardRow, columns: ColumnRow[]) {
  return {
    object: 'task_board' as const,
    id: board.id,
    name: board.name,
    is_default: board.isDefault,
    statuses: columns.map((column) => ({
      object: 'task_status' as const,
      id: column.id,
      name: column.name,
      category: column.category,
      color: column.color,
      position: column.position,
      is_default: column.isDefault,
    })),
  };
}
