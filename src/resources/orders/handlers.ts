import { sql } from 'drizzle-orm';
import { inOrder } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { etagOf } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { changedMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField } from '../../http/validation.ts';
import { customerNoteEmail, noteText, statusEmail, statusName, trackingEmail } from './emails.ts';
import { orderMessages } from './messages.ts';
import * as q from './queries.ts';
import { ALLOWED_FROM, mayMove, TIME_OF, TRACKING_STATUSES, trackingUrlAllowed } from './rules.ts';
import { serializeOrder, serializeOrderNote } from './serialize.ts';
import { emailBuyer, onLockedOrder, orderNotFound, shopOf } from './writes.ts';

export const handlers = {
  listOrders: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listOrders(c.get('tenant'), page, {
      status: query['filter[status]'],
      customerId: query['filter[customer_id]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
    });
    return c.json({ data: data.map(serializeOrder), meta }, 200);
  },

  getOrder: async (c) => {
    const { order } = c.req.valid('param');
    const found = await q.readOrder(c.get('tenant'), order);
    if (!found) throw orderNotFound();
    return c.json({ data: serializeOrder(found) }, 200, { ETag: etagOf(found.order.version) });
  },

  updateOrder: async (c) => {
    const { order } = c.req.valid('param');
    const { metadata } = c.req.valid('json');
    const done = await onLockedOrder(c, order, async (tx, current) => {
      const changes = changedMetadata(current.metadata, metadata);
      // `{}`, or the values it has: no write, and the version stays.
      if (changes.metadata) await q.updateOrder(tx, current, changes);
    });
    return c.json(done.body, done.status, done.headers);
  },

  changeOrderStatus: async (c) => {
    const { order } = c.req.valid('param');
    const { status } = c.req.valid('json');
    const shop = shopOf(c);
    const done = await onLockedOrder(c, order, async (tx, current) => {
      if (!mayMove(current.status, status))
        throw new ApiProblem(
          'conflict',
          orderMessages.message('order.status_not_allowed', {
            from: current.status,
            to: status,
            allowed: ALLOWED_FROM[status],
          }),
        );
      const time = status === 'processing' ? {} : { [TIME_OF[status]]: sql`app_now()` };
      const updated = await q.updateOrder(tx, current, { status, ...time });
      await emailBuyer(tx, updated, `order_${status}`, statusEmail(updated, status, shop.name));
      await q.insertNote(tx, current.companyId, current.id, {
        type: 'status_change',
        isInternal: true,
        content: noteText('status', shop.language, {
          from: statusName(current.status, shop.language),
          to: statusName(status, shop.language),
        }),
      });
      const after = await q.findOrder(tx, current.companyId, current.id);
      if (!after) throw orderNotFound();
      await recordEvent(tx, current.companyId, {
        type: 'order.status_changed',
        scope: 'orders.read',
        customerId: current.customerId,
        object: serializeOrder(after),
      });
    });
    return c.json(done.body, done.status, done.headers);
  },

  updateOrderTracking: async (c) => {
    const { order } = c.req.valid('param');
    const body = c.req.valid('json');
    const shop = shopOf(c);
    const trackingUrl = body.tracking_url ?? null;
    if (trackingUrl !== null && !trackingUrlAllowed(trackingUrl))
      throw invalidField('/tracking_url', 'invalid_format', orderMessages.message('order.tracking_url_scheme'));
    const done = await onLockedOrder(c, order, async (tx, current) => {
      if (!TRACKING_STATUSES.includes(current.status))
        throw new ApiProblem(
          'conflict',
          orderMessages.message('order.tracking_not_allowed', { status: current.status }),
        );
      // The same values again change nothing: no note, no second email.
      if (current.trackingCode === body.tracking_code && current.trackingUrl === trackingUrl) return;
      const updated = await q.updateOrder(tx, current, { trackingCode: body.tracking_code, trackingUrl });
      await q.insertNote(tx, current.companyId, current.id, {
        type: 'tracking',
        isInternal: true,
        content: noteText('tracking', shop.language, { code: body.tracking_code }),
      });
      if (body.notify_customer !== false) {
        await emailBuyer(tx, updated, 'order_tracking', trackingEmail(updated, shop.name));
        await q.insertNote(tx, current.companyId, current.id, {
          type: 'email',
          isInternal: true,
          content: noteText('trackingEmailed', shop.language, { code: body.tracking_code, email: updated.buyerEmail }),
        });
      }
    });
    return c.json(done.body, done.status, done.headers);
  },

  listOrderNotes: async (c) => {
    const { order } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.orderExists(tx, companyId, order))) throw orderNotFound();
      return q.listNotes(tx, companyId, order, page);
    });
    return c.json({ data: data.map(serializeOrderNote), meta }, 200);
  },

  createOrderNote: async (c) => {
    const { order } = c.req.valid('param');
    const body = c.req.valid('json');
    const shop = shopOf(c);
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      const isInternal = body.is_internal !== false;
      // The note is sent right behind the lock (one round trip, in that order: its time is the lock's change time);
      // when the lock finds no order, the 404 undoes it.
      const [current, inserted] = await inOrder(
        () => q.lockOrder(tx, companyId, order),
        () =>
          q.insertNote(tx, companyId, order, { type: 'note', content: body.content, isInternal }).then(
            (row) => ({ row }),
            (error: unknown) => ({ error }),
          ),
      );
      if (!current) throw orderNotFound();
      if ('error' in inserted) throw inserted.error;
      const note = inserted.row;
      if (!isInternal) {
        await emailBuyer(tx, current, 'order_note', customerNoteEmail(current, body.content, shop.name));
        await q.insertNote(tx, companyId, order, {
          type: 'email',
          isInternal: true,
          content: noteText('noteEmailed', shop.language, { email: current.buyerEmail }),
        });
      }
      await q.touchLockedOrder(tx, companyId, order);
      return { status: 201 as const, body: { data: serializeOrderNote(note) } };
    });
    return c.json(created.body, created.status, created.headers);
  },
} satisfies Partial<Handlers>;
