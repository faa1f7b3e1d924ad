import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { Handlers } from '../../http/handler.ts';
import { changedMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { contactOf } from '../customers/queries.ts';
import { conversationMessages as texts } from './messages.ts';
import * as q from './queries.ts';
import { sendHandlers } from './send.ts';
import { type ConversationRow, serializeConversation, serializeMessage } from './serialize.ts';
import { conversationNotFound, recordConversationEvent } from './writes.ts';

/** The conversation with its customer's contact details, as the API shows it. */
async function shown(tx: Tx, row: ConversationRow) {
  return serializeConversation(row, await contactOf(tx, row.companyId, row.customerId));
}

/** Runs `work` on the conversation locked in a tenant transaction; 404 when there is none. */
function onLockedConversation(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: ConversationRow) => Promise<ConversationRow>,
) {
  const { companyId } = c.get('tenant');
  return c.get('tenant').transaction(async (tx) => {
    const current = await q.lockConversation(tx, companyId, id);
    if (!current) throw conversationNotFound();
    return shown(tx, await work(tx, current));
  });
}

export const handlers = {
  listConversations: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listConversations(c.get('tenant'), page, {
      status: query['filter[status]'],
      channel: query['filter[channel]'],
      customerId: query['filter[customer_id]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
    });
    return c.json({ data: data.map((row) => serializeConversation(row, row.contact)), meta }, 200);
  },

  getConversation: async (c) => {
    const { conversation } = c.req.valid('param');
    const row = await q.readConversation(c.get('tenant'), conversation);
    if (!row) throw conversationNotFound();
    return c.json({ data: serializeConversation(row, row.contact) }, 200);
  },

  listConversationMessages: async (c) => {
    const { conversation } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.findConversation(tx, companyId, conversation))) throw conversationNotFound();
      return q.listMessages(tx, companyId, conversation, page);
    });
    return c.json({ data: data.map(serializeMessage), meta }, 200);
  },

  updateConversation: async (c) => {
    const { conversation } = c.req.valid('param');
    const { metadata } = c.req.valid('json');
    const data = await onLockedConversation(c, conversation, async (tx, current) => {
      const changes = changedMetadata(current.metadata, metadata);
      // `{}`, or the values it has: no write, `updated_at` stays.
      return changes.metadata ? q.updateConversation(tx, current, changes) : current;
    });
    return c.json({ data }, 200);
  },

  closeConversation: async (c) => {
    const { conversation } = c.req.valid('param');
    const data = await onLockedConversation(c, conversation, async (tx, current) => {
      if (current.status === 'closed') throw new ApiProblem('conflict', texts.message('conversation.already_closed'));
      const closed = await q.updateConversation(tx, current, {
        status: 'closed',
        closedAt: sql`app_now()`,
        aiAgentActive: false,
      });
      await recordConversationEvent(tx, closed, 'conversation.closed');
      return closed;
    });
    return c.json({ data }, 200);
  },

  reopenConversation: async (c) => {
    const { conversation } = c.req.valid('param');
    const data = await onLockedConversation(c, conversation, async (tx, current) => {
      if (current.status !== 'closed')
        throw new ApiProblem('conflict', texts.message('conversation.not_closed', { status: current.status }));
      return q.updateConversation(tx, current, { status: 'open', closedAt: null });
    });
    return c.json({ data }, 200);
  },

  ...sendHandlers,
} satisfies Partial<Handlers>;
