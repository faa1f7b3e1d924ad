// Sending a message through the API (createConversationMessage): the channel's feature, the outgoing-message
// limits (250 per company and 20 per conversation per hour, counted in PostgreSQL), the channel itself (which may
// refuse: 409, nothing stored), then the message, stored with the conversation moved on and the AI agent off.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Context } from 'hono';
import {
  CHANNEL_RETRY_AFTER_SECONDS,
  ChannelUnavailable,
  type Delivery,
  type OutgoingMessage,
  type Refusal,
} from '../../channels/index.ts';
import { conversationMessages as messagesTable } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { countOutgoingMessage } from '../../http/outgoing-limit.ts';
import { ApiProblem } from '../../http/problems.ts';
import { COMPANY_SCOPE } from '../../mail/outgoing-limit.ts';
import { contactOf } from '../customers/queries.ts';
import { conversationMessages as texts } from './messages.ts';
import * as q from './queries.ts';
import { type ConversationRow, serializeMessage } from './serialize.ts';
import { addMessage, conversationNotFound } from './writes.ts';

/** Messages per hour per conversation through the API (specification "Limits"). */
export const CONVERSATION_MESSAGES_PER_HOUR = 20;

const FEATURE_OF_CHANNEL = { web: 'chat_widget', whatsapp: 'whatsapp', email: 'email' } as const;

function refusalProblem(refusal: Refusal): ApiProblem {
  switch (refusal.reason) {
    case 'whatsapp_window_closed':
      return new ApiProblem(
        'conflict',
        refusal.lastCustomerMessageAt
          ? texts.message('conversation.whatsapp_window_closed', { last: refusal.lastCustomerMessageAt.toISOString() })
          : texts.message('conversation.whatsapp_no_customer_message'),
      );
    case 'no_address':
      return new ApiProblem('conflict', texts.message('conversation.email_no_address'));
    case 'refused':
      return new ApiProblem('conflict', texts.message('conversation.whatsapp_refused', { reason: refusal.detail }));
  }
}

/** The Message-IDs of the conversation's emails, oldest first: the thread a reply continues. */
async function threadOf(tx: Tx, row: ConversationRow) {
  const rows = await tx
    .select({ id: messagesTable.emailMessageId, sender: messagesTable.sender })
    .from(messagesTable)
    .where(
      and(
        eq(messagesTable.companyId, row.companyId),
        eq(messagesTable.conversationId, row.id),
        isNotNull(messagesTable.emailMessageId),
      ),
    )
    .orderBy(asc(messagesTable.createdAt), asc(messagesTable.id));
  const ids = rows.map((r) => r.id as string);
  const lastFromCustomer = rows.filter((r) => r.sender === 'customer').at(-1)?.id ?? ids.at(-1) ?? null;
  // References: the first and the latest twenty are enough for every mail client to place the reply.
  const references = ids.length > 21 ? [ids[0] as string, ...ids.slice(-20)] : ids;
  return { inReplyTo: lastFromCustomer, references };
}

const replySubject = (subject: string | null) =>
  subject ? (/^re:/i.test(subject) ? subject : `Re: ${subject}`) : 'Re: your message';

async function outgoingOf(tx: Tx, row: ConversationRow, body: string): Promise<OutgoingMessage> {
  // Both reads sent at once (one round trip); the chat widget needs neither.
  const [contact, thread] = await Promise.all([
    row.channel === 'web' ? undefined : contactOf(tx, row.companyId, row.customerId),
    row.channel === 'email' ? threadOf(tx, row) : undefined,
  ]);
  switch (row.channel) {
    case 'email': {
      if (!thread) throw new Error('an email conversation without its thread read');
      return {
        channel: 'email',
        to: row.contactAddress ?? contact?.email ?? '',
        subject: replySubject(row.subject),
        text: body,
        kind: 'conversation_reply',
        ...thread,
      };
    }
    case 'whatsapp':
      return {
        channel: 'whatsapp',
        to: row.contactAddress ?? (contact?.phone ?? '').replace(/\D+/g, ''),
        text: body,
        lastCustomerMessageAt: row.lastCustomerMessageAt,
      };
    case 'web':
      return { channel: 'web', conversationId: row.id, text: body };
  }
}

async function deliver(c: Context<AppEnv>, tx: Tx, message: OutgoingMessage): Promise<Delivery> {
  try {
    return await c.get('deps').channels.send(tx, c.get('tenant').companyId, message);
  } catch (error) {
    if (!(error instanceof ChannelUnavailable)) throw error;
    c.get('deps').log.warn({ err: error, requestId: c.get('requestId') }, 'channel unavailable');
    throw new ApiProblem('service_unavailable', undefined, {}, { 'Retry-After': String(CHANNEL_RETRY_AFTER_SECONDS) });
  }
}

export const sendHandlers = {
  createConversationMessage: async (c) => {
    const { conversation } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const features = c.get('auth').key.company.features;
    // WhatsApp's send leaves the transaction (an HTTP call): when PostgreSQL runs the creation again after a deadlock
    // or serialization failure (withTenant), the message WhatsApp already took is not sent a second time.
    let sentToWhatsApp: Delivery | undefined;
    try {
      const created = await runCreation(c, async (tx) => {
        // The counts go with the lock (one round trip), under the conversation's id as the database writes it; the
        // lock's answers (404, 403) come before theirs (429), and every refusal rolls them back.
        const locking = q.lockConversation(tx, companyId, conversation);
        // A rerun of a send WhatsApp has accepted (the transaction was retried) counted it already, and must not
        // refuse what the customer has received.
        const counting = sentToWhatsApp
          ? undefined
          : countOutgoingMessage(
              tx,
              companyId,
              [
                COMPANY_SCOPE,
                { scope: `conversation:${conversation.toLowerCase()}`, limit: CONVERSATION_MESSAGES_PER_HOUR },
              ],
              ({ scope, limit }) =>
                texts.message('conversation.too_many_messages', {
                  limit: String(limit),
                  scope: scope === COMPANY_SCOPE.scope ? 'company' : 'conversation',
                }),
            );
        // Awaited below: a refusal must not count as an unhandled rejection meanwhile.
        counting?.catch(() => {});
        const current = await locking;
        if (!current) throw conversationNotFound();
        const feature = FEATURE_OF_CHANNEL[current.channel];
        if (!features.includes(feature))
          throw new ApiProblem('feature_not_available', texts.message('conversation.channel_feature', { feature }));
        await counting;
        const outgoing = await outgoingOf(tx, current, body.body);
        const delivery = sentToWhatsApp ?? (await deliver(c, tx, outgoing));
        if (!delivery.accepted) throw refusalProblem(delivery.refusal);
        if (delivery.whatsappMessageId) sentToWhatsApp = delivery;
        const { message } = await addMessage(tx, current, {
          sender: 'api',
          body: body.body,
          emailSubject: outgoing.channel === 'email' ? outgoing.subject : null,
          whatsappMessageId: delivery.whatsappMessageId ?? null,
          whatsappStatus: delivery.whatsappMessageId ? 'sent' : null,
          emailMessageId: delivery.emailMessageId ?? null,
          outboundEmailId: delivery.outboundEmailId ?? null,
        });
        return { status: 201 as const, body: { data: serializeMessage(message) } };
      });
      return c.json(created.body, created.status, created.headers);
    } catch (error) {
      if (sentToWhatsApp?.accepted) {
        // Sent but not stored (the commit failed): the customer has the message, the inbox does not. Said loudly,
        // with WhatsApp's id, so that it can be found; a retry of the request would send it again.
        c.get('deps').log.error(
          {
            err: error,
            requestId: c.get('requestId'),
            conversation,
            whatsappMessageId: sentToWhatsApp.whatsappMessageId,
          },
          'WhatsApp accepted a message that could not be stored',
        );
      }
      throw error;
    }
  },
} satisfies Partial<Handlers>;
