import { and, count, eq, getTableColumns } from 'drizzle-orm';
import { files, quoteAttachments, quotes } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { keyset, type PageRequest, pageOf } from '../../http/pagination.ts';
import { newId } from '../../ids.ts';

export type AttachmentRow = typeof quoteAttachments.$inferSelect & { file: typeof files.$inferSelect };

/** Whether the quote exists; with `lock`, it stays locked until the transaction ends (the count limit). */
export async function quoteExists(tx: Tx, companyId: string, quoteId: string, lock = false): Promise<boolean> {
  const query = tx
    .select({ id: quotes.id })
    .from(quotes)
    .where(and(eq(quotes.companyId, companyId), eq(quotes.id, quoteId)));
  const rows = lock ? await query.for('update') : await query;
  return rows.length > 0;
}

export async function countAttachments(tx: Tx, companyId: string, quoteId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(quoteAttachments)
    .where(and(eq(quoteAttachments.companyId, companyId), eq(quoteAttachments.quoteId, quoteId)));
  return row.n;
}

const joined = (tx: Tx) =>
  tx
    .select({ ...getTableColumns(quoteAttachments), file: files })
    .from(quoteAttachments)
    .innerJoin(files, and(eq(files.companyId, quoteAttachments.companyId), eq(files.id, quoteAttachments.fileId)));

export async function listAttachments(tx: Tx, companyId: string, quoteId: string, page: PageRequest) {
  const plan = keyset(page, { created_at: quoteAttachments.createdAt }, quoteAttachments.id);
  const rows = await joined(tx)
    .where(and(eq(quoteAttachments.companyId, companyId), eq(quoteAttachments.quoteId, quoteId), plan.where))
    .orderBy(...plan.orderBy)
    .limit(plan.take);
  return pageOf(rows, page, plan);
}

/** The attachments the customer sees with the online quote (`visible_to_customer`), oldest first. */
export async function visibleAttachments(tx: Tx, companyId: string, quoteId: string): Promise<AttachmentRow[]> {
  return joined(tx)
    .where(
      and(
        eq(quoteAttachments.companyId, companyId),
        eq(quoteAttachments.quoteId, quoteId),
        eq(quoteAttachments.visibleToCustomer, true),
      ),
    )
    .orderBy(quoteAttachments.createdAt, quoteAttachments.id);
}

export async function findAttachment(
  tx: Tx,
  companyId: string,
  quoteId: string,
  id: string,
): Promise<AttachmentRow | undefined> {
  const [row] = await joined(tx).where(
    and(eq(quoteAttachments.companyId, companyId), eq(quoteAttachments.quoteId, quoteId), eq(quoteAttachments.id, id)),
  );
  return row;
}

export async function insertAttachment(
  tx: Tx,
  values: {
    companyId: string;
    quoteId: string;
    file: typeof files.$inferSelect;
    description: string | null;
    visibleToCustomer: boolean;
  },
): Promise<AttachmentRow> {
  const { file, ...rest } = values;
  const [row] = await tx
    .insert(quoteAttachments)
    .values({ ...rest, id: newId(), fileId: file.id })
    .returning();
  return { ...row, file };
}

export async function deleteAttachmentRow(tx: Tx, companyId: string, id: string): Promise<void> {
  await tx.delete(quoteAttachments).where(and(eq(quoteAttachments.companyId, companyId), eq(quoteAttachments.id, id)));
}
