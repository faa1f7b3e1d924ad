// The widget's visitor API: keyless, named by the company's public widget id. A session is one web-chat
// conversation, written and read with its visitor token (kept as SHA-256, like every credential).
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { operations } from '../../../generated/operations.ts';
import { type Tenant, type Tx, tenantOf } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { Handlers } from '../../http/handler.ts';
import { message } from '../../http/messages.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import type { ConversationRow } from '../conversations/serialize.ts';
import { addMessage, startConversation } from '../conversations/writes.ts';
import { insertCustomer } from '../customers/queries.ts';
import { serializeCustomer } from '../customers/serialize.ts';
import { widgetMessages as texts } from './messages.ts';
import * as q from './queries.ts';
import { serializeWidgetMessage, visitorStatus } from './serialize.ts';

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const VISITOR_TOKEN = /^Bearer (vt_[A-Za-z0-9_-]{20,100})$/;

/** The widget the path names, refused (404, 403) unless its company may chat now. */
async function openWidget(c: Context<AppEnv>, widgetId: string) {
  const widget = await q.findWidget(c.get('deps').db, widgetId);
  if (!widget) throw new ApiProblem('not_found', texts.message('widget.not_found'));
  if (widget.suspendedAt !== null) throw new ApiProblem('account_suspended', message('auth.account_suspended'));
  if (!widget.subscriptionActive) {
    throw new ApiProblem('subscription_inactive', message('auth.subscription_inactive'));
  }
  const needed = operations.getWidget.features;
  if (!needed.some((feature) => widget.features.includes(feature))) {
    throw new ApiProblem('feature_not_available', texts.message('widget.unavailable'));
  }
  return { ...widget, tenant: tenantOf(c.get('deps'), widget.companyId) };
}

/** Runs `work` on the conversation of the request's visitor token (401 without one of this widget). */
function asVisitor<T>(
  c: Context<AppEnv>,
  tenant: Tenant,
  lock: boolean,
  work: (tx: Tx, conversation: ConversationRow) => Promise<T>,
): Promise<T> {
  const token = VISITOR_TOKEN.exec(c.req.header('authorization') ?? '')?.[1];
  const invalid = () => new ApiProblem('unauthenticated', texts.message('widget.token_invalid'));
  if (!token) throw invalid();
  return tenant.transaction(async (tx) => {
    const conversation = await q.conversationOfVisitor(tx, tenant.companyId, tokenHash(token), lock);
    if (!conversation) throw invalid();
    return work(tx, conversation);
  });
}

/**
 * The lead a new visitor becomes. Always a new one: the address a visitor types is unverified, so it never
 * attaches the chat to the customer who has it (anyone could claim any customer's address and be shown as her);
 * the conversation keeps it as visitor_email instead. The lead's own address is a placeholder in the reserved
 * domain `.invalid` (the inbox shows none; isPlaceholderEmail).
 */
async function visitorLead(tx: Tx, companyId: string, visitor: { name?: string }) {
  const email = `visitor-${newId()}@widget.invalid`;
  const row = await insertCustomer(tx, companyId, { name: visitor.name ?? null, email, status: 'lead' });
  await recordEvent(tx, companyId, {
    type: 'customer.created',
    scope: 'customers.read',
    customerId: row.id,
    object: serializeCustomer(row),
  });
  return row.id;
}

export const handlers = {
  getWidget: async (c) => {
    const { widget_id } = c.req.valid('param');
    const widget = await openWidget(c, widget_id);
    return c.json({ data: { object: 'widget' as const, id: widget_id, company_name: widget.companyName } }, 200);
  },

  createWidgetSession: async (c) => {
    const { widget_id } = c.req.valid('param');
    const body = c.req.valid('json');
    const { tenant, companyId } = await openWidget(c, widget_id);
    const visitorToken = `vt_${randomBytes(32).toString('base64url')}`;
    const data = await tenant.transaction(async (tx) => {
      const customerId = await visitorLead(tx, companyId, body);
      const started = await startConversation(tx, companyId, {
        customerId,
        channel: 'web',
        pageUrl: body.page_url ?? null,
        visitorEmail: body.email ?? null,
        visitorTokenHash: tokenHash(visitorToken),
      });
      const { message: first, conversation } = await addMessage(tx, started, { sender: 'customer', body: body.body });
      return {
        object: 'widget_session' as const,
        visitor_token: visitorToken,
        conversation_status: visitorStatus(conversation),
        messages: [serializeWidgetMessage(first)],
      };
    });
    return c.json({ data }, 201);
  },

  listWidgetMessages: async (c) => {
    const { widget_id } = c.req.valid('param');
    const { after, limit } = c.req.valid('query');
    const { tenant, companyId } = await openWidget(c, widget_id);
    const page = await asVisitor(c, tenant, false, async (tx, conversation) => {
      const from = after === undefined ? undefined : await q.findMessage(tx, companyId, conversation.id, after);
      if (after !== undefined && !from) {
        const detail = texts.message('widget.after_unknown');
        throw invalidFields([{ pointer: null, parameter: 'after', code: 'invalid_reference', detail }]);
      }
      const rows = await q.messagesAfter(tx, companyId, conversation.id, from, limit + 1);
      return { rows, conversation };
    });
    return c.json(
      {
        data: page.rows.slice(0, limit).map(serializeWidgetMessage),
        meta: { conversation_status: visitorStatus(page.conversation), has_more: page.rows.length > limit },
      },
      200,
    );
  },

  createWidgetMessage: async (c) => {
    const { widget_id } = c.req.valid('param');
    const body = c.req.valid('json');
    const { tenant } = await openWidget(c, widget_id);
    // A closed or snoozed conversation reopens as waiting_on_team (addMessage).
    const data = await asVisitor(c, tenant, true, async (tx, conversation) => {
      const added = await addMessage(tx, conversation, { sender: 'customer', body: body.body });
      return serializeWidgetMessage(added.message);
    });
    return c.json({ data }, 201);
  },
} satisfies Partial<Handlers>;
