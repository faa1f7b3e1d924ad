// SQL of conversations and their messages; every function takes the tenant transaction first.

import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { lockRecord } from '../../db/change-time.ts';
import { byRecordKey, recordReader } from '../../db/record-reads.ts';
import { conversationMessages, conversations } from '../../db/schema/index.ts';
import type { Tenant, Tx } from '../../db/tenant.ts';
import { metadataCondition } from '../../http/metadata.ts';
import { type PageRequest, readPage, selectPage } from '../../http/pagination.ts';
import { atOrAfter } from '../../http/time-filter.ts';
import { newId } from '../../ids.ts';
import { customerContact } from '../customers/queries.ts';
import type { ConversationRow, MessageRow } from './serialize.ts';

export type ConversationFilters = {
  status?: ConversationRow['status'];
  channel?: ConversationRow['channel'];
  customerId?: string;
  updatedSince?: string;
  metadata?: Record<string, string>;
};

// `last_message_at` sorts by its never-null twin (schema/inbox.ts): conversations without messages are the oldest.
const SORTS = {
  last_message_at: conversations.lastMessageSort,
  created_at: conversations.createdAt,
  updated_at: conversations.updatedAt,
};

/** A page of conversations with their customers' contact details: one statement as the tenant in one round trip. */
export async function listConversations(tenant: Tenant, page: PageRequest, filters: ConversationFilters) {
  const conditions: (SQL | undefined)[] = [eq(conversations.companyId, tenant.companyId)];
  if (filters.status) conditions.push(eq(conversations.status, filters.status));
  if (filters.channel) conditions.push(eq(conversations.channel, filters.channel));
  if (filters.customerId) conditions.push(eq(conversations.customerId, filters.customerId));
  if (filters.updatedSince) conditions.push(atOrAfter(conversations.updatedAt, filters.updatedSince));
  conditions.push(await metadataCondition(tenant, conversations, filters.metadata));
  return readPage(tenant, conversations, page, { sorts: SORTS, id: conversations.id }, conditions, {
    contact: customerContact(conversations),
  });
}

/** The conversation with its customer's contact details: one statement as the tenant in one round trip. */
export const readConversation = recordReader(conversations, byRecordKey(conversations), {
  contact: customerContact(conversations),
});

export async function findConversation(tx: Tx, companyId: string, id: string): Promise<ConversationRow | undefined> {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.companyId, companyId), eq(conversations.id, id)));
  return row;
}

/** The conversation, locked until the transaction ends: messages and state changes queue behind each other. */
export function lockConversation(tx: Tx, companyId: string, id: string): Promise<ConversationRow | undefined> {
  return lockRecord(tx, conversations, companyId, id);
}

export function listMessages(tx: Tx, companyId: string, conversationId: string, page: PageRequest) {
  return selectPage(
    tx,
    conversationMessages,
    page,
    { sorts: { created_at: conversationMessages.createdAt }, id: conversationMessages.id },
    [eq(conversationMessages.companyId, companyId), eq(conversationMessages.conversationId, conversationId)],
  );
}

export type ConversationChanges = Omit<
  PgUpdateSetSource<typeof conversations>,
  'companyId' | 'id' | 'version' | 'updatedAt'
>;

export async function updateConversation(tx: Tx, current: ConversationRow, changes: ConversationChanges) {
  const [row] = await tx
    .update(conversations)
    .set({ ...changes, updatedAt: sql`app_now()`, version: sql`${conversations.version} + 1` })
    .where(and(eq(conversations.companyId, current.companyId), eq(conversations.id, current.id)))
    .returning();
  return row as ConversationRow;
}

export type NewConversation = Omit<typeof conversations.$inferInsert, 'companyId' | 'id' | 'lastMessageSort'>;

export async function insertConversation(tx: Tx, companyId: string, fields: NewConversation) {
  const [row] = await tx
    .insert(conversations)
    .values({ ...fields, companyId, id: newId() })
    .returning();
  return row as ConversationRow;
}

export type NewMessage = Omit<typeof conversationMessages.$inferInsert, 'companyId' | 'id' | 'conversationId'>;

export async function insertMessage(tx: Tx, conversation: ConversationRow, fields: NewMessage, id = newId()) {
  const [row] = await tx
    .insert(conversationMessages)
    .values({ ...fields, companyId: conversation.companyId, id, conversationId: conversation.id })
    .returning();
  return row as MessageRow;
}

/** The stored created_at of a message, as a value of a later statement of the transaction that inserted it. */
export const createdAtOfMessage = (companyId: string, id: string): SQL =>
  sql`(select ${conversationMessages.createdAt} from ${conversationMessages}
    where ${conversationMessages.companyId} = ${companyId} and ${conversationMessages.id} = ${id})`;

/** The order of WhatsApp's delivery states: a state never moves back (`failed` ranks with `delivered`). */
const STATUS_RANK = sql`case ${conversationMessages.whatsappStatus}
  when 'sent' then 1 when 'delivered' then 2 when 'failed' then 2 when 'read' then 3 else 0 end`;
const RANK_OF = { sent: 1, delivered: 2, failed: 2, read: 3 } as const;

/** Moves the delivery state of a message we sent on; false when it names none or would move it back. */
export async function advanceWhatsAppStatus(
  tx: Tx,
  companyId: string,
  whatsappMessageId: string,
  status: keyof typeof RANK_OF,
): Promise<boolean> {
  const rows = await tx
    .update(conversationMessages)
    .set({ whatsappStatus: status })
    .where(
      and(
        eq(conversationMessages.companyId, companyId),
        eq(conversationMessages.whatsappMessageId, whatsappMessageId),
        sql`${conversationMessages.sender} <> 'customer'`,
        sql`${STATUS_RANK} < ${RANK_OF[status]}`,
      ),
    )
    .returning({ id: conversationMessages.id });
  return rows.length > 0;
}
