import type { OpenAPIHono } from '@hono/zod-openapi';
import { createDealNote, deleteDealNote, listDealNotes, updateDealNote } from '../../../generated/routes.ts';
import { type Tx, withTenant } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { etagOf, expectedVersion } from '../../http/etag.ts';
import { runCreation } from '../../http/idempotency.ts';
import { findDeal } from '../deals/queries.ts';
import { dealNotFound } from '../deals/writes.ts';
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

export const dealNoteOperations = ['listDealNotes', 'createDealNote', 'updateDealNote', 'deleteDealNote'] as const;

/**
 * A deal's notes (archived deals included): their events are seen with deals.read and show on the timeline
 * of the deal's customer, like the deal's own events.
 */
async function dealHome(tx: Tx, companyId: string, dealId: string): Promise<NoteHome> {
  const deal = await findDeal(tx, companyId, dealId);
  if (!deal) throw dealNotFound();
  return { parent: { type: 'deal', id: dealId }, customerId: deal.customerId };
}

export function registerDealNotes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listDealNotes, async (c) => {
    const { deal } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('auth');
    const page = { limit: query.limit, cursor: query.cursor, sort: '-created_at' };
    const body = await withTenant(c.get('deps').db, companyId, async (tx) =>
      listNotePage(tx, companyId, await dealHome(tx, companyId, deal), page),
    );
    return c.json(body, 200);
  });

  app.openapi(createDealNote, async (c) => {
    const { deal } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('auth');
    const created = await runCreation(c, async (tx) => {
      // The deal itself does not change and emits nothing; its customer's last activity does (addNote).
      const note = await addNote(tx, companyId, await dealHome(tx, companyId, deal), body);
      return { status: 201 as const, body: { data: serializeNote(note) }, headers: { ETag: etagOf(note.version) } };
    });
    return c.json(created.body, created.status, withCreatedEtag(created.headers));
  });

  app.openapi(updateDealNote, async (c) => {
    const { deal, note } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('auth');
    const row = await withTenant(c.get('deps').db, companyId, async (tx) =>
      changeNote(tx, companyId, await dealHome(tx, companyId, deal), note, body, expected),
    );
    return c.json({ data: serializeNote(row) }, 200, { ETag: etagOf(row.version) });
  });

  app.openapi(deleteDealNote, async (c) => {
    const { deal, note } = c.req.valid('param');
    const expected = expectedVersion(c);
    const { companyId } = c.get('auth');
    const removed = await withTenant(c.get('deps').db, companyId, async (tx) =>
      removeNote(tx, companyId, await dealHome(tx, companyId, deal), note, expected),
    );
    return c.json(deletedNote(removed), 200);
  });
}
