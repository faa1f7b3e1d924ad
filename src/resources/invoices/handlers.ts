import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { nextDocumentNumber } from '../../db/document-numbers.ts';
import { paymentProviders } from '../../db/schema/index.ts';
import { sendUntilCommit, type Tx, withTenant } from '../../db/tenant.ts';
import { toCents } from '../../domain/money.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion, onLocked } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { changedMetadata, newMetadata, onlyMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import { hasPaymentProvider } from '../../payments/accounts.ts';
import { ProviderUnavailable } from '../../payments/provider.ts';
import { UnreadableSecret } from '../../payments/secret-box.ts';
import { companyOfWebhookToken, sameWebhookToken } from '../../payments/webhook-token.ts';
import {
  documentPdfDownload,
  publicLink,
  type SalesDocumentResource,
  sendDocument,
} from '../quotes/document-actions.ts';
import { completeQuote, invoiceColumns, invoiceReads, releaseQuote } from './columns.ts';
import { emailedUbl, invoiceDocumentPdf, invoiceUbl, ublHeaders } from './einvoice.ts';
import { invoiceMessages } from './messages.ts';
import { recordInvoicePayment } from './payments.ts';
import { invoicePdf } from './pdf.ts';
import { queuePaymentSync, type SyncOutcome, syncProviderPayment } from './provider-payments.ts';
import { queuePendingRefundsOf } from './provider-refunds.ts';
import * as q from './queries.ts';
import { recordInvoiceEvent } from './record-event.ts';
import { type InvoiceRow, type InvoiceWithPayments, PAYABLE, payUrlOf, serializeInvoice } from './serialize.ts';

const invoiceDocuments: SalesDocumentResource<InvoiceRow> = {
  kind: 'invoice',
  writeScope: 'invoices.write',
  notFound: () => new ApiProblem('not_found', invoiceMessages.message('invoice.not_found')),
  find: q.findInvoice,
  lock: q.lockInvoice,
  pdf: invoicePdf,
};
const invoiceNotFound = invoiceDocuments.notFound;
/** Besides metadata, what an update may change in every state: whether the company's reminders apply. */
const ANY_STATE = ['reminders_enabled'];
type StatusKey =
  | 'invoice.not_draft'
  | 'invoice.cannot_send'
  | 'invoice.cannot_cancel'
  | 'invoice.cannot_pay'
  | 'invoice.cannot_refund';
const conflict = (key: StatusKey, status: string) =>
  new ApiProblem('conflict', invoiceMessages.message(key, { status }));

/** The online invoice's address for this key: null without `invoices.write` (see serializeInvoice). */
const invoiceUrl = (c: Context<AppEnv>) => publicLink(c, invoiceDocuments);

const serviceUrl = (c: Context<AppEnv>) => c.get('deps').config.publicUrl;

async function respondWith(c: Context<AppEnv>, tx: Tx, row: InvoiceRow | InvoiceWithPayments) {
  const data = serializeInvoice(
    'payments' in row ? row : await q.withPayments(tx, row),
    invoiceUrl(c)(row),
    serviceUrl(c),
  );
  return { data, version: row.version };
}

/** Runs `work` on the invoice locked behind If-Match, and answers the invoice it gives with its payments. */
async function onLockedInvoice(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: InvoiceRow, companyId: string) => Promise<InvoiceRow>,
) {
  const { data, version } = await onLocked(c, invoiceDocuments, id, async (tx, current, companyId) =>
    respondWith(c, tx, await work(tx, current, companyId)),
  );
  return c.json({ data }, 200, { ETag: etagOf(version) });
}

export const handlers = {
  listInvoices: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listInvoices(c.get('tenant'), page, {
      status: query['filter[status]'],
      customerId: query['filter[customer_id]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
    });
    const url = invoiceUrl(c);
    return c.json({ data: data.map((row) => serializeInvoice(row, url(row), serviceUrl(c))), meta }, 200);
  },

  getInvoice: async (c) => {
    const { invoice } = c.req.valid('param');
    const row = await q.readInvoice(c.get('tenant'), invoice);
    if (!row) throw invoiceNotFound();
    const data = serializeInvoice(row, invoiceUrl(c)(row), serviceUrl(c));
    return c.json({ data }, 200, { ETag: etagOf(row.version) });
  },

  getInvoicePdf: async (c) => {
    const { invoice } = c.req.valid('param');
    const tenant = c.get('tenant');
    const query = c.req.valid('query');
    const request = { format: query.format ?? 'pdf', document: query.document ?? 'invoice' };
    // The Factur-X file and the credit note's page (einvoice.ts); the invoice's own page as always.
    if (request.format === 'facturx' || request.document === 'credit_note') {
      const file = await invoiceDocumentPdf(tenant, invoice, request, invoicePdf, c.get('deps').pdfRenderer);
      if (!file) throw invoiceNotFound();
      return c.body(file.pdf, 200, file.headers);
    }
    const download = await documentPdfDownload(c, invoiceDocuments, invoice);
    return c.body(download.pdf, 200, download.headers);
  },

  getInvoiceUbl: async (c) => {
    const { invoice } = c.req.valid('param');
    const query = c.req.valid('query');
    const request = { document: query.document ?? 'invoice', embedPdf: query.embed_pdf === true };
    const found = await invoiceUbl(c.get('tenant'), invoice, request, invoicePdf, c.get('deps').pdfRenderer);
    if (!found) throw invoiceNotFound();
    return c.body(found.xml, 200, ublHeaders(found.filename, found.xml));
  },

  createInvoice: async (c) => {
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      const reads = invoiceReads(tx, companyId, body);
      // The number is taken with the reads (the counter locked after the quote, as always), but after a term
      // invoice's lines, which lock their quote (termItems).
      const numbering =
        body.term_percentage === undefined ? nextDocumentNumber(tx, companyId, 'invoice') : Promise.resolve(undefined);
      const [columns, number] = await Promise.all([invoiceColumns(tx, companyId, body, reads), numbering]);
      const row = await q.insertInvoice(tx, companyId, {
        ...columns,
        metadata: newMetadata(body.metadata),
        id: newId(),
        number: number ?? (await nextDocumentNumber(tx, companyId, 'invoice')),
        status: 'draft',
      });
      await completeQuote(tx, row);
      // A new invoice has no payments: nothing to read for its event and answer.
      const answered = { ...row, payments: [], reminders: [] };
      await recordInvoiceEvent(tx, answered, 'invoice.created', serviceUrl(c));
      const { data, version } = await respondWith(c, tx, answered);
      return { status: 201 as const, body: { data }, headers: { ETag: etagOf(version) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateInvoice: async (c) => {
    const { invoice } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    const { updating, payments, reminders } = await c.get('tenant').transaction(async (tx) => {
      // One round trip: the lock, then the reads of the new columns (none for metadata alone, which any state
      // takes) and the payments the answer shows.
      const locking = q.lockInvoice(tx, companyId, invoice);
      const reads = onlyMetadata(body, ANY_STATE) ? undefined : invoiceReads(tx, companyId, body, invoice);
      const [current, payments, reminders] = await Promise.all([
        locking,
        q.paymentsOf(tx, companyId, invoice),
        q.remindersOf(tx, companyId, invoice),
      ]);
      checkIfMatch(current, expected, invoiceNotFound);
      const metadata = changedMetadata(current.metadata, body.metadata);
      if (!reads) {
        const changes = {
          ...metadata,
          ...(body.reminders_enabled === undefined || body.reminders_enabled === current.remindersEnabled
            ? {}
            : { remindersEnabled: body.reminders_enabled }),
        };
        // Nothing that differs changes nothing: no write, and the version stays.
        const updating =
          Object.keys(changes).length > 0 ? q.updateInvoice(tx, current, changes) : Promise.resolve(current);
        await sendUntilCommit(tx, updating);
        return { updating, payments, reminders };
      }
      if (current.status !== 'draft') throw conflict('invoice.not_draft', current.status);
      const columns = { ...(await invoiceColumns(tx, companyId, body, reads, current)), ...metadata };
      const updating = q.updateInvoice(tx, current, columns);
      if (columns.quoteId !== current.quoteId) {
        const updated = await updating;
        await releaseQuote(tx, current);
        await completeQuote(tx, updated);
      }
      // Nothing in the transaction waits for the updated row, only the answer: the update goes with COMMIT, and
      // its row (or its error, the transaction's) is taken once committed.
      else await sendUntilCommit(tx, updating);
      return { updating, payments, reminders };
    });
    const row = { ...(await updating), payments, reminders };
    const data = serializeInvoice(row, invoiceUrl(c)(row), serviceUrl(c));
    return c.json({ data }, 200, { ETag: etagOf(row.version) });
  },

  deleteInvoice: async (c) => {
    const { invoice } = c.req.valid('param');
    const { companyId } = c.get('tenant');
    await c.get('tenant').transaction(async (tx) => {
      const current = await q.lockInvoice(tx, companyId, invoice);
      if (!current) throw invoiceNotFound();
      if (current.status !== 'draft') throw conflict('invoice.not_draft', current.status);
      await releaseQuote(tx, current);
      await q.deleteInvoice(tx, current);
    });
    return c.json({ data: { object: 'invoice', id: invoice, deleted: true as const } }, 200);
  },

  sendInvoice: async (c) => {
    const { invoice } = c.req.valid('param');
    const sent = await sendDocument(c, invoiceDocuments, invoice, c.req.valid('json') ?? {}, {
      refusal: (current) =>
        ['draft', ...PAYABLE].includes(current.status) ? undefined : conflict('invoice.cannot_send', current.status),
      // The UBL is composed in the transaction, like the PDF, so the email that commits with the send is complete.
      extra: async (tx, current) => {
        const ubl = await emailedUbl(tx, current, c.get('language'));
        return { attachments: ubl.attachment ? [ubl.attachment] : [], einvoice: ubl.einvoice };
      },
      // "Pay now" in the email when the company has a provider and something is due (a draft becomes sent now).
      payUrl: async (tx, current, publicUrl) =>
        ['draft', ...PAYABLE].includes(current.status) &&
        toCents(current.total) > toCents(current.amountPaid) &&
        (await hasPaymentProvider(tx, current.companyId))
          ? payUrlOf(publicUrl)
          : null,
      markSent: async (tx, current) => {
        if (current.status !== 'draft') return current;
        const row = await q.updateInvoice(tx, current, { status: 'sent', sentAt: sql`app_now()` });
        await recordInvoiceEvent(tx, row, 'invoice.sent', serviceUrl(c));
        return row;
      },
      answer: async (tx, row, { attachments, extra }) => {
        const { data } = await respondWith(c, tx, row);
        return { data, meta: { attachments, einvoice: extra.einvoice } };
      },
    });
    return c.json(sent.body, sent.status, sent.headers);
  },

  cancelInvoice: async (c) => {
    const { invoice } = c.req.valid('param');
    return onLockedInvoice(c, invoice, async (tx, current) => {
      if (!['draft', 'sent', 'viewed', 'overdue'].includes(current.status) || toCents(current.amountPaid) !== 0n)
        throw conflict('invoice.cannot_cancel', current.status);
      const updated = await q.updateInvoice(tx, current, { status: 'cancelled', cancelledAt: sql`app_now()` });
      await recordInvoiceEvent(tx, updated, 'invoice.cancelled', serviceUrl(c));
      return updated;
    });
  },

  createInvoicePayment: async (c) => {
    const { invoice } = c.req.valid('param');
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      const current = await q.lockInvoice(tx, companyId, invoice);
      if (!current) throw invoiceNotFound();
      const paidAt = body.paid_at ? new Date(body.paid_at) : undefined;
      const { invoice: updated } = await recordInvoicePayment(
        tx,
        current,
        {
          amount: body.amount,
          type: body.type,
          paymentMethod: body.payment_method,
          description: body.description ?? null,
          paidAt,
          notes: body.notes ?? null,
          provider: null,
          refundedPaymentId: body.refunded_payment_id,
        },
        serviceUrl(c),
      );
      const { data, version } = await respondWith(c, tx, updated);
      return { status: 201 as const, body: { data }, headers: { ETag: etagOf(version) } };
    });
    return c.json(created.body, created.status, created.headers);
  },

  receiveMollieWebhook: async (c) => {
    const deps = c.get('deps');
    const { webhook_token: token } = c.req.valid('param');
    const unknownToken = () => new ApiProblem('not_found', invoiceMessages.message('invoice.payment_webhook_unknown'));
    const companyId = companyOfWebhookToken(token);
    if (!companyId) throw unknownToken();
    const stored = await withTenant(deps.db, companyId, async (tx) => {
      const [row] = await tx
        .select({ token: paymentProviders.webhookToken })
        .from(paymentProviders)
        .where(eq(paymentProviders.companyId, companyId));
      return row?.token;
    });
    if (!stored || !sameWebhookToken(token, stored)) throw unknownToken();
    // The body is only an id, and only a hint: the provider is asked what the payment is now.
    const id = new URLSearchParams(await c.req.text()).get('id')?.trim() ?? '';
    if (id === '' || id.length > 100)
      throw invalidField('/id', 'required', invoiceMessages.message('invoice.payment_webhook_without_id'));
    const payments = { db: deps.db, paymentKeys: deps.paymentKeys, serviceUrl: deps.config.publicUrl, log: deps.log };
    let outcome: SyncOutcome | 'queued';
    try {
      outcome = await syncProviderPayment(payments, companyId, id);
    } catch (error) {
      // Either is worth asking again later (the job retries for about three days), never a 5xx for Mollie.
      if (error instanceof UnreadableSecret)
        deps.log.error({ companyId, err: error.message }, 'payment webhook: the provider key cannot be opened, queued');
      else if (error instanceof ProviderUnavailable)
        deps.log.warn(
          { companyId, providerPaymentId: id, err: error.message },
          'payment webhook: provider unavailable, queued',
        );
      else throw error;
      await queuePaymentSync(deps.db, companyId, id);
      outcome = 'queued';
    }
    // A payment's webhook may be about its refunds: those still pending are asked about now (by their job).
    if (outcome !== 'unknown') await queuePendingRefundsOf(deps, companyId, id);
    return c.json({ data: { object: 'payment_webhook_receipt' as const, outcome } }, 200);
  },
} satisfies Partial<Handlers>;
