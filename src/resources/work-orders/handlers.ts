import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { nextDocumentNumber } from '../../db/document-numbers.ts';
import type { ChecklistPoint, WorkOrderLine } from '../../db/schema/index.ts';
import { inOrder, sendUntilCommit, type Tx } from '../../db/tenant.ts';
import { recordEvent } from '../../events/record.ts';
import { IMAGE_TYPES } from '../../files/file-types.ts';
import { deleteFile } from '../../files/records.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion, onLocked } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { changedMetadata, type MetadataInput, newMetadata, onlyMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { createWithUpload } from '../../http/upload.ts';
import { invalidField } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import { companyMessages } from '../company/messages.ts';
import { touchCustomerActivity } from '../customers/queries.ts';
import { isActiveUser } from '../deals/queries.ts';
import { attachmentDisposition } from '../files/content-disposition.ts';
import {
  companyDefaults,
  customerCopy,
  DocumentProblems,
  documentAmounts,
  type ItemBody,
  itemsAsInput,
} from '../quotes/documents.ts';
import { lockQuote } from '../quotes/queries.ts';
import { createReviewRequest } from '../reviews/requests.ts';
import { workOrderMessages as texts } from './messages.ts';
import { workOrderPdf } from './pdf.ts';
import { queuePhotoPrint } from './photo-prints.ts';
import * as q from './queries.ts';
import { canMove, DELETABLE, EDITABLE, MAX_PHOTOS, PHOTOS_OPEN, SIGNABLE, type WorkOrderStatus } from './rules.ts';
import { serializePhoto, serializeWorkOrder } from './serialize.ts';

const PHOTO_KINDS = ['before', 'after', 'other'] as const;

const workOrderNotFound = () => new ApiProblem('not_found', texts.message('work_order.not_found'));

type ItemInput = ItemBody & { minutes?: number | null };
type PointInput = { label: string; checked?: boolean; required?: boolean; note?: string | null };

type WorkOrderFields = {
  customer_id?: string;
  title?: string | null;
  type?: string | null;
  location?: string | null;
  description?: string | null;
  work_performed?: string | null;
  customer_notes?: string | null;
  scheduled_at?: string | null;
  assigned_user_id?: string | null;
  appointment_id?: string | null;
  quote_id?: string | null;
  language?: 'nl' | 'en' | 'de' | 'fr';
  items?: ItemInput[];
  checklist?: PointInput[];
  metadata?: MetadataInput;
};

const checklistOf = (points: readonly PointInput[]): ChecklistPoint[] =>
  points.map((p) => ({
    id: newId(),
    label: p.label,
    checked: p.checked ?? false,
    required: p.required ?? false,
    note: p.note ?? null,
  }));

/**
 * The columns of a work order from the request's fields over the current one (none for a creation): customer
 * copied, references checked against the customer, totals calculated by the invoices' engine; every invalid input
 * reported at once.
 */
/**
 * The reads a work order's columns need, all handed to the connection at once (behind the work order's lock for
 * an update): the company's defaults, the customer to copy (on creation), the appointment, quote (locked) and user
 * (held FOR SHARE) the request names. One round trip.
 */
function workOrderReads(tx: Tx, companyId: string, body: WorkOrderFields, update: boolean) {
  const problems = new DocumentProblems();
  // The customer is chosen on creation only (the update's body has no customer_id).
  if (!update && body.customer_id === undefined)
    throw new Error('a new work order names its customer (the contract requires it)');
  const userId = body.assigned_user_id ? Number(body.assigned_user_id) : null;
  const { customer_id: customerId, appointment_id: appointmentId, quote_id: quoteId } = body;
  const all = inOrder(
    () => companyDefaults(tx, companyId),
    () => (!update && customerId ? customerCopy(tx, companyId, customerId, problems) : Promise.resolve(undefined)),
    () => (appointmentId ? q.appointmentOf(tx, companyId, appointmentId) : Promise.resolve(undefined)),
    () => (quoteId ? lockQuote(tx, companyId, quoteId) : Promise.resolve(undefined)),
    () =>
      userId !== null && Number.isSafeInteger(userId) ? isActiveUser(tx, companyId, userId) : Promise.resolve(false),
  );
  // Awaited by workOrderColumns; a request answered before (404, 412, 409) must not leave it unhandled.
  all.catch(() => {});
  return { problems, all };
}

async function workOrderColumns(
  body: WorkOrderFields,
  reads: ReturnType<typeof workOrderReads>,
  current?: q.WorkOrderRow,
) {
  const { problems } = reads;
  const [company, copy, appointment, quote, userActive] = await reads.all;
  const customerId = current?.customerId ?? body.customer_id;
  if (customerId === undefined) throw new Error('a new work order names its customer (the contract requires it)');
  const customer = current ? current.customer : copy;

  let scheduledAt =
    body.scheduled_at !== undefined
      ? body.scheduled_at === null
        ? null
        : new Date(body.scheduled_at)
      : (current?.scheduledAt ?? null);
  const appointmentId = body.appointment_id !== undefined ? body.appointment_id : (current?.appointmentId ?? null);
  if (body.appointment_id) {
    if (appointment?.customerId !== customerId)
      problems.add('/appointment_id', 'invalid_reference', texts.message('work_order.appointment_unknown_reference'));
    // Without a time of its own, the work starts when the appointment does.
    else if (body.scheduled_at === undefined && !current) scheduledAt = appointment.startsAt;
  }
  const quoteId = body.quote_id !== undefined ? body.quote_id : (current?.quoteId ?? null);
  let dealId = current?.dealId ?? null;
  if (body.quote_id) {
    if (quote?.customerId !== customerId)
      problems.add('/quote_id', 'invalid_reference', texts.message('work_order.quote_unknown_reference'));
    else dealId = quote.dealId;
  } else if (body.quote_id === null) dealId = null;

  let assignedUserId = current?.assignedUserId ?? null;
  if (body.assigned_user_id !== undefined) {
    assignedUserId = body.assigned_user_id === null ? null : Number(body.assigned_user_id);
    if (assignedUserId !== null && !(Number.isSafeInteger(assignedUserId) && userActive))
      problems.add('/assigned_user_id', 'invalid_reference', companyMessages.message('user.unknown_reference'));
  }

  const itemInputs: ItemInput[] = body.items ?? itemsAsInput(current?.items ?? []);
  const amounts = documentAmounts(itemInputs, { percentage: 0, amount: 0 }, company.defaultTaxRate, problems);
  problems.done();
  if (!customer || !amounts) throw new Error('unreachable: problems were reported');
  const items: WorkOrderLine[] = amounts.items.map((line, index) => ({
    ...line,
    minutes: itemInputs[index].minutes ?? null,
  }));
  const text = <K extends keyof WorkOrderFields>(key: K, fallback: WorkOrderFields[K]) =>
    body[key] !== undefined ? body[key] : fallback;
  return {
    title: text('title', current?.title ?? null) ?? null,
    type: text('type', current?.type ?? null) ?? null,
    location: text('location', current?.location ?? null) ?? null,
    description: text('description', current?.description ?? null) ?? null,
    workPerformed: text('work_performed', current?.workPerformed ?? null) ?? null,
    customerNotes: text('customer_notes', current?.customerNotes ?? null) ?? null,
    customerId,
    customer,
    dealId,
    appointmentId,
    quoteId,
    assignedUserId,
    scheduledAt,
    language: body.language ?? current?.language ?? company.language,
    currency: current?.currency ?? company.currency,
    items,
    checklist: body.checklist ? checklistOf(body.checklist) : (current?.checklist ?? []),
    subtotal: amounts.subtotal,
    taxAmount: amounts.taxAmount,
    total: amounts.total,
  };
}

async function respondWith(c: Context<AppEnv>, tx: Tx, row: q.WorkOrderRow | q.WorkOrderWithPhotos) {
  const withPhotos = 'photos' in row ? row : await q.withPhotos(tx, row);
  return { data: serializeWorkOrder(withPhotos, c.get('deps').fileLinks), version: row.version };
}

/**
 * A work order's event, with the work order as it is now (seen with work_orders.read, on its customer's
 * timeline). Its photos' links are signed when the event is recorded and expire like any link: the event is
 * read later, so the photos are fetched again for fresh links.
 */
async function recordWorkOrderEvent(
  c: Context<AppEnv>,
  tx: Tx,
  row: q.WorkOrderRow | q.WorkOrderWithPhotos,
  type: 'work_order.created' | 'work_order.status_changed',
) {
  const object = serializeWorkOrder('photos' in row ? row : await q.withPhotos(tx, row), c.get('deps').fileLinks);
  await recordEvent(tx, row.companyId, { type, scope: 'work_orders.read', customerId: row.customerId, object });
  await touchCustomerActivity(tx, row.companyId, row.customerId);
}

/** Runs `work` on the work order locked in a tenant transaction, after the If-Match check; answers it. */
async function onLockedWorkOrder(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: q.WorkOrderRow, companyId: string) => Promise<q.WorkOrderRow>,
) {
  const lockable = { lock: q.lockWorkOrder, notFound: workOrderNotFound };
  const { data, version } = await onLocked(c, lockable, id, async (tx, current, companyId) =>
    respondWith(c, tx, await work(tx, current, companyId)),
  );
  return c.json({ data }, 200, { ETag: etagOf(version) });
}

type StatusBody = { status: WorkOrderStatus; invoice_id?: string | null; send_review_request?: boolean };

/** The fields that go only with one target status, refused with another (422 naming the field). */
function checkStatusFields(body: StatusBody) {
  const problems = new DocumentProblems();
  if (body.invoice_id !== undefined && body.status !== 'invoiced')
    problems.add('/invoice_id', 'invalid_value', texts.message('work_order.only_with_status', { status: 'invoiced' }));
  if (body.send_review_request !== undefined && body.status !== 'completed')
    problems.add(
      '/send_review_request',
      'invalid_value',
      texts.message('work_order.only_with_status', { status: 'completed' }),
    );
  problems.done();
}

/**
 * The review request a completion asks for. This installation holds no review settings of its own (they live in
 * the web application), so the automatic request is off and only `send_review_request: true` creates one. When
 * the rules of review requests refuse it (open request, cooldown, unsubscribed, no email address, the outgoing
 * limit), the work order is still completed: those refusals are checked before anything is written.
 */
async function requestReview(c: Context<AppEnv>, tx: Tx, row: q.WorkOrderRow) {
  const { company } = c.get('auth').key;
  try {
    await createReviewRequest(
      tx,
      {
        companyId: row.companyId,
        shop: company.name,
        companyLanguage: row.language,
        publicUrl: c.get('deps').config.publicUrl,
        now: new Date(),
        trigger: 'work_order',
      },
      { customer_id: row.customerId, channel: 'email', language: row.language },
    );
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
  }
}

export const handlers = {
  listWorkOrders: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const assigned = query['filter[assigned_user_id]'];
    const { data, meta } = await q.listWorkOrders(c.get('tenant'), page, {
      status: query['filter[status]'],
      customerId: query['filter[customer_id]'],
      assignedUserId: assigned === undefined ? undefined : Number(assigned),
      appointmentId: query['filter[appointment_id]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
    });
    const links = c.get('deps').fileLinks;
    return c.json({ data: data.map((row) => serializeWorkOrder(row, links)), meta }, 200);
  },

  getWorkOrder: async (c) => {
    const { work_order } = c.req.valid('param');
    const row = await q.readWorkOrder(c.get('tenant'), work_order);
    if (!row) throw workOrderNotFound();
    return c.json({ data: serializeWorkOrder(row, c.get('deps').fileLinks) }, 200, { ETag: etagOf(row.version) });
  },

  createWorkOrder: async (c) => {
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      // The number is taken with the reads, the counter locked after the quote and user as always: one round trip.
      const reads = workOrderReads(tx, companyId, body, false);
      const [columns, number] = await Promise.all([
        workOrderColumns(body, reads),
        nextDocumentNumber(tx, companyId, 'work_order'),
      ]);
      const inserted = await q.insertWorkOrder(tx, companyId, {
        ...columns,
        metadata: newMetadata(body.metadata),
        id: newId(),
        number,
        status: body.status ?? 'draft',
      });
      // A new work order has no photos: nothing to read for its event and answer.
      const row = { ...inserted, photos: [] };
      await recordWorkOrderEvent(c, tx, row, 'work_order.created');
      const { data, version } = await respondWith(c, tx, row);
      return { status: 201 as const, body: { data }, headers: { ETag: etagOf(version) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateWorkOrder: async (c) => {
    const { work_order } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    const { updating, photos } = await c.get('tenant').transaction(async (tx) => {
      // One round trip: the lock, then the reads of the new columns and the photos the answer shows (added and
      // removed only under the lock).
      const locking = q.lockWorkOrder(tx, companyId, work_order);
      // Metadata alone needs no reads, and any state takes it.
      const reads = onlyMetadata(body) ? undefined : workOrderReads(tx, companyId, body, true);
      const [current, photos] = await Promise.all([locking, q.photosOfOne(tx, companyId, work_order)]);
      checkIfMatch(current, expected, workOrderNotFound);
      const metadata = changedMetadata(current.metadata, body.metadata);
      if (!reads) {
        // `{}` changes nothing: no write, and the version stays.
        const updating = metadata.metadata ? q.updateWorkOrder(tx, current, metadata) : Promise.resolve(current);
        await sendUntilCommit(tx, updating);
        return { updating, photos };
      }
      if (!EDITABLE.includes(current.status))
        throw new ApiProblem('conflict', texts.message('work_order.not_editable', { status: current.status }));
      const columns = { ...(await workOrderColumns(body, reads, current)), ...metadata };
      // Nothing in the transaction waits for the updated row, only the answer: the update goes with COMMIT, and
      // its row (or its error, the transaction's) is taken once committed.
      const updating = q.updateWorkOrder(tx, current, columns);
      await sendUntilCommit(tx, updating);
      return { updating, photos };
    });
    const row = { ...(await updating), photos };
    return c.json({ data: serializeWorkOrder(row, c.get('deps').fileLinks) }, 200, { ETag: etagOf(row.version) });
  },

  deleteWorkOrder: async (c) => {
    const { work_order } = c.req.valid('param');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    const storage = c.get('deps').fileStorages;
    await c.get('tenant').transaction(async (tx) => {
      const current = await q.lockWorkOrder(tx, companyId, work_order);
      checkIfMatch(current, expected, workOrderNotFound);
      if (!DELETABLE.includes(current.status))
        throw new ApiProblem('conflict', texts.message('work_order.cannot_delete', { status: current.status }));
      for (const fileId of await q.deleteWorkOrder(tx, current)) await deleteFile(tx, storage, companyId, fileId);
    });
    return c.json({ data: { object: 'work_order' as const, id: work_order, deleted: true as const } }, 200);
  },

  changeWorkOrderStatus: async (c) => {
    const { work_order } = c.req.valid('param');
    const body = c.req.valid('json');
    checkStatusFields(body);
    return onLockedWorkOrder(c, work_order, async (tx, current, companyId) => {
      const to = body.status;
      if (!canMove(current.status, to))
        throw new ApiProblem('conflict', texts.message('work_order.transition_refused', { from: current.status, to }));
      const now = sql`app_now()`;
      if (to === 'completed') {
        const open = current.checklist.filter((p) => p.required && !p.checked);
        if (open.length > 0)
          throw new ApiProblem(
            'conflict',
            texts.message('work_order.required_unchecked', { labels: open.map((p) => `“${p.label}”`).join(', ') }),
          );
      }
      if (to === 'invoiced' && body.invoice_id) {
        if ((await q.invoiceCustomerOf(tx, companyId, body.invoice_id)) !== current.customerId)
          throw invalidField('/invoice_id', 'invalid_reference', texts.message('work_order.invoice_unknown_reference'));
      }
      const reopening = current.status === 'completed' && to === 'in_progress';
      const updated = await q.updateWorkOrder(tx, current, {
        status: to,
        ...(to === 'in_progress' && current.startedAt === null ? { startedAt: now } : {}),
        ...(to === 'completed' ? { completedAt: now, ...(current.startedAt === null ? { startedAt: now } : {}) } : {}),
        // Reopened work changes: the signature given for the completed work no longer holds.
        ...(reopening ? { completedAt: null, signedByName: null, signedAt: null } : {}),
        ...(to === 'invoiced' && body.invoice_id ? { invoiceId: body.invoice_id } : {}),
      });
      if (to === 'completed' && body.send_review_request === true) await requestReview(c, tx, updated);
      await recordWorkOrderEvent(c, tx, updated, 'work_order.status_changed');
      return updated;
    });
  },

  signWorkOrder: async (c) => {
    const { work_order } = c.req.valid('param');
    const body = c.req.valid('json');
    const signedAt = body.signed_at ? new Date(body.signed_at) : undefined;
    if (signedAt && signedAt.getTime() > Date.now())
      throw invalidField('/signed_at', 'too_big', texts.message('work_order.signed_in_future'));
    return onLockedWorkOrder(c, work_order, async (tx, current) => {
      if (!SIGNABLE.includes(current.status))
        throw new ApiProblem('conflict', texts.message('work_order.cannot_sign', { status: current.status }));
      if (current.signedAt !== null) throw new ApiProblem('conflict', texts.message('work_order.already_signed'));
      return q.updateWorkOrder(tx, current, {
        signedByName: body.signed_by_name,
        signedAt: signedAt ?? sql`app_now()`,
      });
    });
  },

  getWorkOrderPdf: async (c) => {
    const { work_order } = c.req.valid('param');
    const tenant = c.get('tenant');
    const { row, company } = await tenant.transaction(async (tx) => ({
      row: await q.findWorkOrder(tx, tenant.companyId, work_order),
      company: await companyDefaults(tx, tenant.companyId),
    }));
    if (!row) throw workOrderNotFound();
    const deps = c.get('deps');
    const pdf = await workOrderPdf(row, company, tenant, deps.pdfRenderer);
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Length': String(pdf.byteLength),
      'Content-Disposition': attachmentDisposition(`${row.number}.pdf`),
      'Cache-Control': 'private, no-store',
    });
  },

  listWorkOrderPhotos: async (c) => {
    const { work_order } = c.req.valid('param');
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.findWorkOrder(tx, companyId, work_order))) throw workOrderNotFound();
      return q.listPhotos(
        tx,
        companyId,
        work_order,
        { limit: query.limit, cursor: query.cursor, sort: query.sort },
        { kind: query['filter[kind]'] },
      );
    });
    const links = c.get('deps').fileLinks;
    return c.json({ data: page.data.map((row) => serializePhoto(row, links)), meta: page.meta }, 200);
  },

  createWorkOrderPhoto: async (c) => {
    const { work_order } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const deps = c.get('deps');
    // The form is received first (its file streamed into the storage), then the work order is locked and checked.
    const created = await createWithUpload(
      c,
      {
        types: IMAGE_TYPES,
        typeNames: 'JPEG, PNG, GIF, WebP',
        fields: { kind: { kind: 'text', maxLength: 16 }, caption: { kind: 'text', maxLength: 255 } },
      },
      async (tx, upload, file) => {
        const kind = PHOTO_KINDS.find((k) => k === (upload.fields.kind ?? 'other'));
        if (!kind) throw invalidField('/kind', 'invalid_enum', texts.message('work_order.photo_kind'));
        // The work order stays locked until the end: two uploads at once cannot both be the 30th.
        const current = await q.lockWorkOrder(tx, companyId, work_order);
        if (!current) throw workOrderNotFound();
        if (!PHOTOS_OPEN.includes(current.status))
          throw new ApiProblem('conflict', texts.message('work_order_photo.closed', { status: current.status }));
        if ((await q.countPhotos(tx, companyId, work_order)) >= MAX_PHOTOS)
          throw new ApiProblem('limit_reached', texts.message('work_order_photo.limit_reached', { max: MAX_PHOTOS }));
        const caption = upload.fields.caption;
        const row = await q.insertPhoto(tx, {
          companyId,
          workOrderId: work_order,
          file,
          kind,
          caption: typeof caption === 'string' ? caption : null,
        });
        // Its print version is made once, by a job, when this commits (the PDF reads only print versions).
        await queuePhotoPrint(tx, companyId, row.id);
        // The work order changed (its photos): a new version and update time.
        await q.updateWorkOrder(tx, current, {});
        return { status: 201 as const, body: { data: serializePhoto(row, deps.fileLinks) } };
      },
    );
    return c.json(created.body, created.status, created.headers);
  },

  deleteWorkOrderPhoto: async (c) => {
    const { work_order, photo } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    const deps = c.get('deps');
    await c.get('tenant').transaction(async (tx) => {
      const current = await q.lockWorkOrder(tx, companyId, work_order);
      if (!current) throw workOrderNotFound();
      const row = await q.findPhoto(tx, companyId, work_order, photo);
      if (!row) throw new ApiProblem('not_found', texts.message('work_order_photo.not_found'));
      if (!PHOTOS_OPEN.includes(current.status))
        throw new ApiProblem('conflict', texts.message('work_order_photo.closed', { status: current.status }));
      await q.deletePhotoRow(tx, companyId, row.id);
      await deleteFile(tx, deps.fileStorages, companyId, row.fileId);
      await q.updateWorkOrder(tx, current, {});
    });
    return c.json({ data: { object: 'work_order_photo' as const, id: photo, deleted: true as const } }, 200);
  },
} satisfies Partial<Handlers>;
