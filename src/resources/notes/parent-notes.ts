// The four note operations under any parent (a customer, a deal; next: an order). A parent gives only how
// to find itself (`home`: 404 of its own, where the note's events belong); the operations are the same.
import type { Context } from 'hono';
import type { Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { etagOf, expectedVersion } from '../../http/etag.ts';
import { runCreation } from '../../http/idempotency.ts';
import type { PageRequest } from '../../http/pagination.ts';
import {
  addNote,
  changeNote,
  deletedNote,
  listNotePage,
  type NoteHome,
  removeNote,
  withCreatedEtag,
} from './note-writes.ts';
import type { Parent } from './queries.ts';
import { serializeNote } from './serialize.ts';

type NoteInput = Parameters<typeof addNote>[4];
type NoteChange = Parameters<typeof changeNote>[5];

export function notesUnder(
  type: Parent['type'],
  home: (tx: Tx, companyId: string, parentId: string) => Promise<NoteHome>,
) {
  return {
    list(
      c: Context<AppEnv>,
      parentId: string,
      query: { limit: number; cursor?: string; metadata?: Record<string, string> },
    ) {
      const page: PageRequest = { limit: query.limit, cursor: query.cursor, sort: '-created_at' };
      const { companyId } = c.get('tenant');
      return c
        .get('tenant')
        .transaction(async (tx) =>
          listNotePage(tx, companyId, await home(tx, companyId, parentId), page, query.metadata),
        );
    },

    async create(c: Context<AppEnv>, parentId: string, body: NoteInput) {
      const { companyId } = c.get('tenant');
      const created = await runCreation(c, async (tx) => {
        const parent = { type, id: parentId };
        const note = await addNote(tx, companyId, parent, () => home(tx, companyId, parentId), body);
        return { status: 201 as const, body: { data: serializeNote(note) }, headers: { ETag: etagOf(note.version) } };
      });
      return { ...created, headers: withCreatedEtag(created.headers) };
    },

    async update(c: Context<AppEnv>, parentId: string, noteId: string, body: NoteChange) {
      const expected = expectedVersion(c);
      const { companyId } = c.get('tenant');
      const row = await c
        .get('tenant')
        .transaction((tx) =>
          changeNote(
            tx,
            companyId,
            { type, id: parentId },
            () => home(tx, companyId, parentId),
            noteId,
            body,
            expected,
          ),
        );
      return { body: { data: serializeNote(row) }, headers: { ETag: etagOf(row.version) } };
    },

    async remove(c: Context<AppEnv>, parentId: string, noteId: string) {
      const expected = expectedVersion(c);
      const { companyId } = c.get('tenant');
      const removed = await c
        .get('tenant')
        .transaction((tx) =>
          removeNote(tx, companyId, { type, id: parentId }, () => home(tx, companyId, parentId), noteId, expected),
        );
      return deletedNote(removed);
    },
  };
}
