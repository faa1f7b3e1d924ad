// What every note operation does, whichever record the note hangs on (a customer or a deal): the SQL, the
// 404 of a note of another parent, the no-op update, the note.* event that follows its parent's visibility,
// and a new note's activity with the customer. The handlers only find the parent and say where its events
// belong.
import { inOrder, type Tx } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { checkIfMatch, type ExpectedVersions, etagOf } from '../../http/etag.ts';
import { changedMetadata, type MetadataInput, newMetadata } from '../../http/metadata.ts';
import { type PageRequest, pageOf } from '../../http/pagination.ts';
import { ApiProblem } from '../../http/problems.ts';
import { touchCustomerActivity } from '../customers/queries.ts';
import { noteMessages } from './messages.ts';
import * as q from './queries.ts';
import { type NoteRow, serializeNote } from './serialize.ts';

/**
 * The note's parent and its customer (a deal's customer for a deal): the timeline that shows the note's events
 * and the customer a new note is activity with.
 */
export type NoteHome = { parent: q.Parent; customerId: string };

/** A note's events are seen with its parent's read scope (notes/events.ts). */
export const SCOPE_OF_PARENT = { customer: 'customers.read', deal: 'deals.read' } as const;

const NOT_FOUND = { customer: 'note.not_found_on_customer', deal: 'note.not_found_on_deal' } as const;
const noteNotFound = (home: NoteHome) => new ApiProblem('not_found', noteMessages.message(NOT_FOUND[home.parent.type]));

const noteEvent = (
  tx: Tx,
  companyId: string,
  home: NoteHome,
  type: 'note.created' | 'note.updated' | 'note.deleted',
  note: NoteRow,
) =>
  recordEvent(tx, companyId, {
    type,
    scope: SCOPE_OF_PARENT[home.parent.type],
    customerId: home.customerId,
    object: serializeNote(note),
  });

export async function listNotePage(
  tx: Tx,
  companyId: string,
  home: NoteHome,
  page: PageRequest,
  metadata?: Record<string, string>,
) {
  const { rows, plan } = await q.listNotes(tx, companyId, home.parent, page, metadata);
  const { data, meta } = pageOf(rows, page, plan);
  return { data: data.map(serializeNote), meta };
}

/**
 * Adds the note under `parent`; `home` (the parent's read, its 404) is sent in the same round trip, ahead of the
 * insert, which writes nothing when the parent is not the company's.
 */
export async function addNote(
  tx: Tx,
  companyId: string,
  parent: q.Parent,
  home: () => Promise<NoteHome>,
  body: { content: string; is_important: boolean; metadata?: MetadataInput },
): Promise<NoteRow> {
  const [found, note] = await inOrder(home, () =>
    q.insertNote(tx, companyId, parent, {
      content: body.content,
      isImportant: body.is_important,
      metadata: newMetadata(body.metadata),
    }),
  );
  // The parent was read before the insert checked it: only a parent deleted in between gets here, and a read now
  // answers its 404 (each statement sees what was committed before it).
  if (!note) {
    await home();
    throw new Error('the note was not written, yet its parent exists');
  }
  await noteEvent(tx, companyId, found, 'note.created', note);
  // A new note is activity with the customer: its own, or its deal's.
  await touchCustomerActivity(tx, companyId, found.customerId);
  return note;
}

/** The note locked (lockNote), with `home` (the parent's read, its 404) sent ahead of the lock in its round trip. */
async function lockUnder(tx: Tx, companyId: string, parent: q.Parent, home: () => Promise<NoteHome>, id: string) {
  return inOrder(home, () => q.findNote(tx, companyId, parent, id, true));
}

/** Changes only the fields sent with a new value; a request that changes nothing records nothing. */
export async function changeNote(
  tx: Tx,
  companyId: string,
  parent: q.Parent,
  home: () => Promise<NoteHome>,
  id: string,
  body: { content?: string; is_important?: boolean; metadata?: MetadataInput },
  expected: ExpectedVersions,
): Promise<NoteRow> {
  const [found, current] = await lockUnder(tx, companyId, parent, home, id);
  checkIfMatch(current, expected, () => noteNotFound(found));
  const changes = {
    ...changedMetadata(current.metadata, body.metadata),
    ...(body.content !== undefined && body.content !== current.content ? { content: body.content } : {}),
    ...(body.is_important !== undefined && body.is_important !== current.isImportant
      ? { isImportant: body.is_important }
      : {}),
  };
  if (Object.keys(changes).length === 0) return current;
  const updated = await q.updateNote(tx, current, changes);
  await noteEvent(tx, companyId, found, 'note.updated', updated);
  return updated;
}

/** Deletes the note and answers it as it was. */
export async function removeNote(
  tx: Tx,
  companyId: string,
  parent: q.Parent,
  home: () => Promise<NoteHome>,
  id: string,
  expected: ExpectedVersions,
): Promise<NoteRow> {
  const [found, current] = await lockUnder(tx, companyId, parent, home, id);
  checkIfMatch(current, expected, () => noteNotFound(found));
  // The event carries the note as it was before the deletion.
  await noteEvent(tx, companyId, found, 'note.deleted', current);
  await q.deleteNote(tx, current);
  return current;
}

/** The answer of a deletion, with the stored id (the path's may differ in case, like any UUID). */
export const deletedNote = (note: NoteRow) => ({ data: { object: 'note', id: note.id, deleted: true as const } });

/**
 * A note's creation answer carries its ETag. A replay of a creation stored (with an Idempotency-Key, kept 24 h)
 * by a release from before notes had ETags has none: a created note is at version 1, which is its ETag then.
 */
export const withCreatedEtag = (headers: Record<string, string>) => ({ ETag: etagOf(1), ...headers });
