// SQL of notes on customers (and, with the deals issue, on deals); the parent is part of every lookup.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { takeChangeTimeAfterLock } from '../../db/change-time.ts';
import { customers, deals, notes, users } from '../../db/schema/index.ts';
import { prepared } from '../../db/statements.ts';
import { type Tx, tableRows } from '../../db/tenant.ts';
import { type Metadata, metadataCondition } from '../../http/metadata.ts';
import { keyset, type PageRequest } from '../../http/pagination.ts';
import { newId } from '../../ids.ts';
import type { NoteRow } from './serialize.ts';

export type Parent = { type: 'customer'; id: string } | { type: 'deal'; id: string };

const parentColumn = (parent: Parent) => (parent.type === 'customer' ? notes.customerId : notes.dealId);

const withAuthor = (tx: Tx) =>
  tx
    .select({ ...getTableColumns(notes), authorName: users.name })
    .from(notes)
    .leftJoin(users, and(eq(users.companyId, notes.companyId), eq(users.id, notes.authorUserId)));

export async function listNotes(
  tx: Tx,
  companyId: string,
  parent: Parent,
  page: PageRequest,
  metadata?: Record<string, string>,
) {
  const plan = keyset(page, { created_at: notes.createdAt }, notes.id);
  const rows = await withAuthor(tx)
    .where(
      and(
        eq(notes.companyId, companyId),
        eq(parentColumn(parent), parent.id),
        plan.where,
        await metadataCondition(tx, notes, metadata),
      ),
    )
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return { rows, plan };
}

/**
 * The note; with `lock`, locked until the transaction ends (an update or deletion then works on the latest
 * version, and takes its change time after the lock: see src/db/change-time.ts).
 */
export async function findNote(
  tx: Tx,
  companyId: string,
  parent: Parent,
  id: string,
  lock = false,
): Promise<NoteRow | undefined> {
  const query = withAuthor(tx).where(
    and(eq(notes.companyId, companyId), eq(parentColumn(parent), parent.id), eq(notes.id, id)),
  );
  const [row] = lock ? await query.for('update', { of: notes }) : await query;
  if (row && lock) await takeChangeTimeAfterLock(tx);
  return row;
}

type NewNote = {
  companyId: string;
  id: string;
  parentType: Parent['type'];
  parentId: string;
  customerId: string | null;
  dealId: string | null;
  content: string;
  isImportant: boolean;
  /** JSON text. */
  metadata: string;
};

/**
 * A note's insert that checks its parent in the same statement: no row when the company has no such parent. So the
 * insert need not wait for the parent's read (the handler's 404), and goes in its round trip.
 */
const insertUnder = (parent: typeof customers | typeof deals) =>
  prepared<NewNote>(
    (p) => sql`
      insert into notes (company_id, id, parent_type, customer_id, deal_id, content, is_important, metadata)
      select ${p.companyId}::uuid, ${p.id}::uuid, ${p.parentType}::text, ${p.customerId}::uuid, ${p.dealId}::uuid,
             ${p.content}::text, ${p.isImportant}::boolean, ${p.metadata}::jsonb
      where exists (select from ${parent} where ${parent.companyId} = ${p.companyId} and ${parent.id} = ${p.parentId})
      returning *`,
  );

const NOTE_INSERTS = { customer: insertUnder(customers), deal: insertUnder(deals) };

/** The new note; undefined when its parent is not the company's (handed to the connection now). */
export async function insertNote(
  tx: Tx,
  companyId: string,
  parent: Parent,
  fields: { content: string; isImportant: boolean; metadata: Metadata },
): Promise<NoteRow | undefined> {
  const rows = await NOTE_INSERTS[parent.type].run(tx, {
    companyId,
    id: newId(),
    parentType: parent.type,
    parentId: parent.id,
    customerId: parent.type === 'customer' ? parent.id : null,
    dealId: parent.type === 'deal' ? parent.id : null,
    content: fields.content,
    isImportant: fields.isImportant,
    metadata: JSON.stringify(fields.metadata),
  });
  const [row] = tableRows(notes, rows);
  return row && ({ ...row, authorName: null } satisfies NoteRow);
}

export async function updateNote(
  tx: Tx,
  current: NoteRow,
  fields: { content?: string; isImportant?: boolean; metadata?: Metadata },
) {
  const [row] = await tx
    .update(notes)
    .set({ ...fields, updatedAt: sql`app_now()`, version: sql`${notes.version} + 1` })
    .where(and(eq(notes.companyId, current.companyId), eq(notes.id, current.id)))
    .returning();
  return { ...row, authorName: current.authorName } satisfies NoteRow;
}

export async function deleteNote(tx: Tx, note: NoteRow) {
  await tx.delete(notes).where(and(eq(notes.companyId, note.companyId), eq(notes.id, note.id)));
}
