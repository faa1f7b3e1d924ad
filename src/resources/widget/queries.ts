// SQL of the widget's visitor API. The widget is found before any tenant is known (its id is public), so that
// one read runs as the service; everything else takes the tenant transaction first.
import { and, asc, eq, sql } from 'drizzle-orm';
import { lockRecords } from '../../db/change-time.ts';
import type { Db } from '../../db/client.ts';
import { channelSettings, companies, conversationMessages, conversations } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import type { ConversationRow, MessageRow } from '../conversations/serialize.ts';

export async function findWidget(db: Db, widgetId: string) {
  const [row] = await db
    .select({
      companyId: channelSettings.companyId,
      companyName: companies.name,
      features: companies.features,
      suspendedAt: companies.suspendedAt,
      subscriptionActive: companies.subscriptionActive,
    })
    .from(channelSettings)
    .innerJoin(companies, eq(companies.id, channelSettings.companyId))
    .where(eq(channelSettings.widgetId, widgetId));
  return row;
}

/** The web-chat conversation whose visitor token has this hash, locked for the visitor's message. */
export async function conversationOfVisitor(
  tx: Tx,
  companyId: string,
  tokenHash: string,
  lock: boolean,
): Promise<ConversationRow | undefined> {
  const where = and(
    eq(conversations.companyId, companyId),
    eq(conversations.visitorTokenHash, tokenHash),
    eq(conversations.channel, 'web'),
  );
  if (lock) return (await lockRecords(tx, conversations, where))[0];
  const [row] = await tx.select().from(conversations).where(where);
  return row;
}

export async function findMessage(tx: Tx, companyId: string, conversationId: string, id: string) {
  const [row] = await tx
    .select({ id: conversationMessages.id, createdAt: conversationMessages.createdAt })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.companyId, companyId),
        eq(conversationMessages.conversationId, conversationId),
        eq(conversationMessages.id, id),
      ),
    );
  return row;
}

/** Up to `limit` messages oldest first, after the message `after` (its time and id) when given. */
export function messagesAfter(
  tx: Tx,
  companyId: string,
  conversationId: string,
  after: { id: string; createdAt: Date } | undefined,
  limit: number,
): Promise<MessageRow[]> {
  return tx
    .select()
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.companyId, companyId),
        eq(conversationMessages.conversationId, conversationId),
        after
          ? sql`(${conversationMessages.createdAt}, ${conversationMessages.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id))
    .limit(limit);
}
