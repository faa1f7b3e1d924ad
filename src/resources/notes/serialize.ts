import type { notes } from '../../db/schema/index.ts';
import { iso } from '../../http/serialize.ts';

export type NoteRow = typeof notes.$inferSelect & { authorName: string | null };

export function serializeNote(row: NoteRow) {
  const parentId = row.parentType === 'customer' ? row.customerId : row.dealId;
  return {
    object: 'note' as const,
    id: row.id,
    content: row.content,
    is_important: row.isImportant,
    parent: { object: row.parentType, id: parentId ?? '' },
    author:
      row.authorUserId !== null && row.authorName !== null
        ? { object: 'user' as const, id: String(row.authorUserId), name: row.authorName }
        : null,
    metadata: row.metadata,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
