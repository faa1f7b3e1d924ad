import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  createCustomerNote,
  deleteCustomerNote,
  listCustomerNotes,
  updateCustomerNote,
} from '../../../generated/routes.ts';
import type { Tx } from '../../db/tenant.ts';
import { withTenant } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { etagOf, expectedVersion } from '../../http/etag.ts';
import { runCreation } from '../../http/idempotency.ts';
import { message } from '../../http/messages.ts';
import { ApiProblem } from '../../http/problems.ts';
import { findCustomer } from '../customers/queries.ts';
import {
  addNote,
  changeNote,
  deletedNote,
  listNotePage,
  type NoteHome,
  removeNote,
  withCreatedEtag,
} from './note-writes.ts';
import { serializeNote } from './serialize.ts';

export const customerNoteOperations = [
  'listCustomerNotes',
  'createCustomerNote',
  'updateCustomerNote',
  'deleteCustomerNote',
] as const;

/** A customer's notes: their events are seen with customers.read, on the customer's own timeline. */
async function customerHome(tx: Tx, companyId: string, customerId: string): Promise<NoteHome> {
  const customer = await findCustomer(tx, companyId, customerId);
  if (!customer) throw new ApiProblem('not_found', message('customer.not_found'));
  return { parent: { type: 'customer', id: customerId }, customerId };
}

export function registerCustomerNotes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listCustomerNotes, async (c) => {
    const { customer } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('auth');
    const page = { limit: query.limit, cursor: query.cursor, sort: '-created_at' };
    const body = await withTenant(c.get('deps').db, companyId, async (tx) =>
      listNotePage(tx, companyId, await customerHome(tx, companyId, customer), page),
    );
    return c.json(body, 200);
  });

  app.openapi(createCustomerNote, async (c) => {
    const { customer } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('auth');
    const created = await runCreation(c, async (tx) => {
      const note = await addNote(tx, companyId, await customerHome(tx, companyId, customer), body);
      return { status: 201 as const, body: { data: serializeNote(note) }, headers: { ETag: etagOf(note.version) } };
    });
    return c.json(created.body, created.status, withCreatedEtag(created.headers));
  });

  app.openapi(updateCustomerNote, async (c) => {
    const { customer, note } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('auth');
    const row = await withTenant(c.get('deps').db, companyId, (tx) =>
      changeNote(
        tx,
        companyId,
        { parent: { type: 'customer', id: customer }, customerId: customer },
        note,
        body,
        expected,
      ),
    );
    return c.json({ data: serializeNote(row) }, 200, { ETag: etagOf(row.version) });
  });

  app.openapi(deleteCustomerNote, async (c) => {
    const { customer, note } = c.req.valid('param');
    const expected = expectedVersion(c);
    const { companyId } = c.get('auth');
    const removed = await withTenant(c.get('deps').db, companyId, (tx) =>
      removeNote(tx, companyId, { parent: { type: 'customer', id: customer }, customerId: customer }, note, expected),
    );
    return c.json(deletedNote(removed), 200);
  });
}
