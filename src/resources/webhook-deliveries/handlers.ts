import { EVENT_RETENTION_DAYS } from '../../events/retention.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { ApiProblem } from '../../http/problems.ts';
import { iso } from '../../http/serialize.ts';
import { nextWholeMillisecond } from '../../http/time-filter.ts';
import { invalidField } from '../../http/validation.ts';
import { eventMessages } from '../events/messages.ts';
import { webhookMessages } from '../webhook-endpoints/messages.ts';
import * as q from './queries.ts';
import { serializeAttempt, serializeDelivery, serializeQueuedDelivery } from './serialize.ts';

const endpointNotFound = () => new ApiProblem('not_found', webhookMessages.message('webhook.endpoint_not_found'));
const deliveryNotFound = () => new ApiProblem('not_found', webhookMessages.message('webhook.delivery_not_found'));
const eventNotFound = () => new ApiProblem('not_found', eventMessages.message('event.not_found'));
const endpointDisabled = () => new ApiProblem('conflict', webhookMessages.message('webhook.endpoint_disabled'));
const eventNotReceivable = () => new ApiProblem('conflict', webhookMessages.message('webhook.event_not_receivable'));

const RETENTION_MS = EVENT_RETENTION_DAYS * 24 * 3600 * 1000;

/** The last millisecond PostgreSQL and `toISOString` both write (year 9999); no delivery is created later. */
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A bound of the window, taken to the next whole millisecond (the precision of stored times): created at or
 * after `…00.000500Z` is created at or after `…00.001Z`, and created before `…00.000500Z` includes `…00.000Z`.
 * A bound past year 9999 (`9999-12-31T23:59:59-01:00`) is the last instant, which selects the same deliveries.
 */
const bound = (time: string) => new Date(Math.min(nextWholeMillisecond(time), LAST_INSTANT));

/** The recovery window: `since` at most 30 days ago (older deliveries are gone) and before `until`. */
function recoveryWindow(body: { since: string; until?: string | null }, now: Date) {
  const since = bound(body.since);
  const until = body.until ? bound(body.until) : now;
  if (since.getTime() < now.getTime() - RETENTION_MS) {
    throw invalidField(
      '/since',
      'too_small',
      webhookMessages.message('webhook.since_too_old', { days: EVENT_RETENTION_DAYS }),
    );
  }
  if (until <= since) {
    throw body.until
      ? invalidField('/until', 'too_small', webhookMessages.message('webhook.until_before_since'))
      : invalidField('/since', 'too_big', webhookMessages.message('webhook.since_in_future'));
  }
  return { since, until };
}

export const handlers = {
  listWebhookEndpointDeliveries: async (c) => {
    const { endpoint } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.endpointStatus(tx, companyId, endpoint))) throw endpointNotFound();
      return q.listDeliveries(tx, companyId, page, {
        endpointId: endpoint,
        status: query['filter[status]'],
        eventType: query['filter[event_type]'],
        createdSince: query['filter[created_since]'],
      });
    });
    return c.json({ data: data.map(serializeDelivery), meta }, 200);
  },

  getWebhookDelivery: async (c) => {
    const { endpoint, delivery } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const row = await c.get('tenant').transaction((tx) => q.findDelivery(tx, companyId, endpoint, delivery));
    if (!row) throw deliveryNotFound();
    return c.json({ data: serializeDelivery(row) }, 200);
  },

  listWebhookDeliveryAttempts: async (c) => {
    const { endpoint, delivery } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.findDelivery(tx, companyId, endpoint, delivery))) throw deliveryNotFound();
      return q.listAttempts(tx, companyId, delivery, page);
    });
    return c.json({ data: data.map(serializeAttempt), meta }, 200);
  },

  resendWebhookDelivery: async (c) => {
    const { endpoint, delivery } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    // Idempotent: a client repeating the request after a lost answer gets that answer, not a second attempt.
    const resent = await runCreation(c, async (tx) => {
      // Shared lock: a concurrent disable waits until the attempt is queued (the task then skips it).
      const status = await q.endpointStatus(tx, companyId, endpoint, true);
      if (!status) throw endpointNotFound();
      const found = await q.findDelivery(tx, companyId, endpoint, delivery);
      if (!found) throw deliveryNotFound();
      if (status !== 'active') throw endpointDisabled();
      if (!(await q.isReceivable(tx, companyId, delivery))) throw eventNotReceivable();
      await q.queueResend(tx, companyId, endpoint, delivery);
      return { status: 202 as const, body: { data: serializeQueuedDelivery(found, new Date()) } };
    });
    return c.json(resent.body, resent.status, resent.headers);
  },

  recoverWebhookEndpoint: async (c) => {
    const { endpoint } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    // The window is checked inside the idempotent work: a repeat with the same key replays the first answer,
    // even once its `since` has moved past 30 days ago.
    const recovered = await runCreation(c, async (tx) => {
      const { since, until } = recoveryWindow(body, new Date());
      // The deliveries before the endpoint, in the lock order of the delivery task, DELETE and disabling (the
      // other way round, each waited for the other). A missing or disabled endpoint undoes what was queued.
      const queued = await q.queueRecovery(tx, companyId, endpoint, since, until);
      const status = await q.endpointStatus(tx, companyId, endpoint, true);
      if (!status) throw endpointNotFound();
      if (status !== 'active') throw endpointDisabled();
      const data = {
        object: 'webhook_recovery' as const,
        endpoint_id: endpoint,
        since: iso(since),
        until: iso(until),
        queued,
      };
      return { status: 202 as const, body: { data } };
    });
    return c.json(recovered.body, recovered.status, recovered.headers);
  },

  listEventDeliveries: async (c) => {
    const { event } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.eventExists(tx, companyId, event))) throw eventNotFound();
      return q.listDeliveries(tx, companyId, page, { eventId: event, status: query['filter[status]'] });
    });
    return c.json({ data: data.map(serializeDelivery), meta }, 200);
  },
} satisfies Partial<Handlers>;
