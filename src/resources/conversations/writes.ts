// The steps every change of a conversation shares: a new message moves its counters and status and is
// recorded as `message.created`; a new conversation is recorded as `conversation.created` (on its customer's
// timeline); everything in the caller's transaction.
import { sql } from 'drizzle-orm';
import { inOrder, type Tx } from '../../db/tenant.ts';
import type { EventType } from '../../events/catalogue.ts';
import { recordEvent } from '../../events/record.ts';
import { ApiProblem } from '../../http/problems.ts';
import { newId } from '../../ids.ts';
import { contactOf, touchCustomerActivity } from '../customers/queries.ts';
import { conversationMessages as texts } from './messages.ts';
import * as q from './queries.ts';
import { type ConversationRow, type MessageRow, serializeConversation, serializeMessage } from './serialize.ts';

export const conversationNotFound = () => new ApiProblem('not_found', texts.message('conversation.not_found'));

/** The conversation's event, with the conversation as it is now and its customer's contact details. */
export async function recordConversationEvent(tx: Tx, row: ConversationRow, type: EventType): Promise<void> {
  const object = serializeConversation(row, await contactOf(tx, row.companyId, row.customerId));
  await recordEvent(tx, row.companyId, { type, scope: 'messages.read', customerId: row.customerId, object });
}

/**
 * Stores a message in the (locked) conversation and moves the conversation on: a customer's message makes it
 * `waiting_on_team` (a new conversation stays `open` until someone answers) and reopens a closed or snoozed
 * one; a message of the company's side makes it `waiting_on_customer`, and one sent through the API stops the
 * AI agent. Messages do not go on the customer's timeline (there would be too many): `message.created` is
 * listed for 30 days like every event without a customer.
 */
export async function addMessage(
  tx: Tx,
  conversation: ConversationRow,
  fields: q.NewMessage,
): Promise<{ message: MessageRow; conversation: ConversationRow }> {
  const id = newId();
  const fromCustomer = fields.sender === 'customer';
  const status: ConversationRow['status'] = fromCustomer
    ? conversation.status === 'open'
      ? 'open'
      : 'waiting_on_team'
    : 'waiting_on_customer';
  // The conversation's update is sent right behind the message's insert (one round trip), its times the message's
  // stored created_at.
  const createdAt = q.createdAtOfMessage(conversation.companyId, id);
  const [message, updated] = await inOrder(
    () => q.insertMessage(tx, conversation, fields, id),
    () =>
      q.updateConversation(tx, conversation, {
        status,
        closedAt: null,
        messageCount: sql`${conversation.messageCount} + 1`,
        lastMessageAt: createdAt,
        ...(fromCustomer ? { lastCustomerMessageAt: createdAt } : {}),
        ...(fields.sender === 'api' ? { aiAgentActive: false } : {}),
      }),
  );
  await recordEvent(tx, conversation.companyId, {
    type: 'message.created',
    scope: 'messages.read',
    customerId: null,
    object: serializeMessage(message),
  });
  await touchCustomerActivity(tx, conversation.companyId, conversation.customerId);
  return { message, conversation: updated };
}

/** A new conversation (recorded as `conversation.created`), without messages yet. */
export async function startConversation(tx: Tx, companyId: string, fields: q.NewConversation) {
  const row = await q.insertConversation(tx, companyId, fields);
  await recordConversationEvent(tx, row, 'conversation.created');
  return row;
}
