import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  createCustomerNote,
  deleteCustomerNote,
  listCustomerNotes,
  updateCustomerNote,
} from '../../../generated/routes.ts';
import type { Tx } from '../../db/tenant.ts';
import { withTenant } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { runCreation } from '../../http/idempotency.ts';
import { pageOf } from '../../http/pagination.ts';
import { ApiProblem } from '../../http/problems.ts';
import { findCustomer } from '../customers/queries.ts';
import * as q from './queries.ts';
import { serializeNote } from './serialize.ts';

export const customerNoteOperations = [
  'listCustomerNotes',
  'createCustomerNote',
  'updateCustomerNote',
  'deleteCustomerNote',
] as const;

const noteNotFound = () => new ApiProblem('not_found', 'No note with this id exists on this customer.');

async function requireCustomer(tx: Tx, companyId: string, customerId: string) {
  const customer = await findCustomer(tx, companyId, customerId);
  if (!customer) throw new ApiProblem('not_found', 'No customer with this id exists.');
  return customer;
}

export function registerCustomerNotes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCustomerNotes, async (c) => {
    const { customer } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('auth');
    const page = { limit: query.limit, cursor: query.cursor, sort: '-created_at' };
    const { rows, plan } = await withTenant(c.get('deps').db, companyId, async (tx) => {
      await requireCustomer(tx, companyId, customer);
      return q.listNotes(tx, companyId, { type: 'customer', id: customer }, page);
    });
    const { data, meta } = pageOf(rows, page, plan, (r) => [r.createdAt.toISOString(), r.id]);
    return c.json({ data: data.map(serializeNote), meta }, 200);
  });

  app.openapi(createCustomerNote, async (c) => {
    const { customer } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('auth');
    const created = await runCreation(c, async (tx) => {
      await requireCustomer(tx, companyId, customer);
      const note = await q.insertNote(
        tx,
        companyId,
        { type: 'customer', id: customer },
        {
          content: body.content,
          isImportant: body.is_important,
        },
      );
      await q.touchCustomerActivity(tx, companyId, customer);
      const data = serializeNote(note);
      await recordEvent(tx, companyId, {
        type: 'note.created',
        scope: 'customers.read',
        customerId: customer,
        object: data,
      });
      return { status: 201 as const, body: { data } };
    });
    return c.json(created.body, created.status, created.headers);
  });

  app.openapi(updateCustomerNote, async (c) => {
    const { customer, note } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('auth');
    const row = await withTenant(c.get('deps').db, companyId, async (tx) => {
      const current = await q.findNote(tx, companyId, { type: 'customer', id: customer }, note);
      if (!current) throw noteNotFound();
      const changes = {
        ...(body.content !== undefined && body.content !== current.content ? { content: body.content } : {}),
        ...(body.is_important !== undefined && body.is_important !== current.isImportant
          ? { isImportant: body.is_important }
          : {}),
      };
      if (Object.keys(changes).length === 0) return current;
      const updated = await q.updateNote(tx, current, changes);
      await recordEvent(tx, companyId, {
        type: 'note.updated',
        scope: 'customers.read',
        customerId: customer,
        object: serializeNote(updated),
      });
      return updated;
    });
    return c.json({ data: serializeNote(row) }, 200);
  });

  app.openapi(deleteCustomerNote, async (c) => {
    const { customer, note } = c.req.valid('param');
    const { companyId } = c.get('auth');
    await withTenant(c.get('deps').db, companyId, async (tx) => {
      const current = await q.findNote(tx, companyId, { type: 'customer', id: customer }, note);
      if (!current) throw noteNotFound();
      // The event carries the note as it was before the deletion.
      await recordEvent(tx, companyId, {
        type: 'note.deleted',
        scope: 'customers.read',
        customerId: customer,
        object: serializeNote(current),
      });
      await q.deleteNote(tx, current);
    });
    return c.json({ data: { object: 'note', id: note, deleted: true as const } }, 200);
  });
}
