import { type AnyColumn, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { nextDocumentNumber } from '../../db/document-numbers.ts';
import { quotes } from '../../db/schema/index.ts';
import { inOrder, sendUntilCommit, type Tx } from '../../db/tenant.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion, onLocked } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { changedMetadata, type MetadataInput, newMetadata, onlyMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { newId } from '../../ids.ts';
import { dealFollowsQuotes } from '../deals/from-quotes.ts';
import { stageMessages } from '../pipeline-stages/messages.ts';
import { findActiveStage } from '../pipeline-stages/queries.ts';
import { acceptQuote, recordQuoteEvent, rejectQuote } from './decisions.ts';
import { documentPdfDownload, publicLink, type SalesDocumentResource, sendDocument } from './document-actions.ts';
import {
  addDays,
  companyDefaults,
  customerCopy,
  DocumentProblems,
  dealProblem,
  documentAmounts,
  documentTexts,
  documentValue,
  type ItemBody,
  isCustomersDeal,
  itemsAsInput,
} from './documents.ts';
import { quoteMessages } from './messages.ts';
import { quotePdf } from './pdf.ts';
import * as q from './queries.ts';
import { type QuoteRow, serializeQuote } from './serialize.ts';

const quoteDocuments: SalesDocumentResource<QuoteRow> = {
  kind: 'quote',
  writeScope: 'quotes.write',
  notFound: () => new ApiProblem('not_found', quoteMessages.message('quote.not_found')),
  find: q.findQuote,
  lock: q.lockQuote,
  pdf: quotePdf,
};
/** The online quote's address for this key: null without `quotes.write` (see serializeQuote). */
const quoteUrl = (c: Context<AppEnv>) => publicLink(c, quoteDocuments);
const respond = (c: Context<AppEnv>, row: QuoteRow) =>
  [{ data: serializeQuote(row, quoteUrl(c)(row)) }, 200, { ETag: etagOf(row.version) }] as const;

type QuoteFields = {
  customer_id?: string;
  title?: string;
  items?: ItemBody[];
  deal_id?: string | null;
  pipeline_stage_id?: number | null;
  description?: string | null;
  language?: 'nl' | 'en' | 'de' | 'fr';
  quote_date?: string;
  valid_until?: string;
  intro_text?: string | null;
  outro_text?: string | null;
  terms_conditions?: string | null;
  notes?: string | null;
  hide_line_amounts?: boolean;
  discount_percentage?: number;
  discount_amount?: number;
  discount_description?: string | null;
  metadata?: MetadataInput;
};

/**
 * The reads a quote's columns need, all handed to the connection at once (behind the quote's lock for an update,
 * `quoteId`: they see the locked quote as it is, its customer and deal read from its row): the company's defaults,
 * the customer to copy, whether the deal is the customer's, the stage named (held FOR SHARE). One round trip.
 */
function quoteReads(tx: Tx, companyId: string, body: QuoteFields, quoteId?: string) {
  const problems = new DocumentProblems();
  const current = (column: AnyColumn) =>
    quoteId === undefined ? undefined : documentValue(quotes, column, companyId, quoteId);
  const customerId = body.customer_id ?? current(quotes.customerId);
  if (customerId === undefined) throw new Error('a new quote names its customer (the contract requires it)');
  const dealId = body.deal_id !== undefined ? body.deal_id : current(quotes.dealId);
  const stageId = body.pipeline_stage_id;
  const all = inOrder(
    () => companyDefaults(tx, companyId),
    () => customerCopy(tx, companyId, customerId, problems),
    () => (dealId ? isCustomersDeal(tx, companyId, dealId, customerId) : Promise.resolve(true)),
    () =>
      stageId !== undefined && stageId !== null ? findActiveStage(tx, companyId, stageId) : Promise.resolve(undefined),
  );
  // Awaited by quoteColumns; a request answered before (404, 412, 409) must not leave it unhandled.
  all.catch(() => {});
  return { problems, all };
}

/**
 * The columns of a quote from the request's fields over the current quote (none for a creation): references,
 * dates and amounts checked, every invalid input reported at once, the customer copied again and totals
 * recalculated.
 */
async function quoteColumns(body: QuoteFields, reads: ReturnType<typeof quoteReads>, current?: QuoteRow) {
  const { problems } = reads;
  const [company, customer, customersDeal, stage] = await reads.all;
  const customerId = body.customer_id ?? (current?.customerId as string);
  const dealId = body.deal_id !== undefined ? body.deal_id : (current?.dealId ?? null);
  if (dealId !== null && customer && !customersDeal) dealProblem(problems);
  const stageId = body.pipeline_stage_id !== undefined ? body.pipeline_stage_id : (current?.pipelineStageId ?? null);
  if (body.pipeline_stage_id !== undefined && body.pipeline_stage_id !== null && !stage)
    problems.add('/pipeline_stage_id', 'invalid_reference', stageMessages.message('stage.unknown_reference'));
  const quoteDate = body.quote_date ?? current?.quoteDate ?? company.today;
  const validUntil =
    body.valid_until ??
    (current && body.quote_date === undefined ? current.validUntil : undefined) ??
    addDays(quoteDate, company.quoteValidityDays);
  if (validUntil < quoteDate)
    problems.add(
      body.valid_until !== undefined ? '/valid_until' : '/quote_date',
      'too_small',
      quoteMessages.message('document.date_before', { field: 'quote_date' }),
    );
  const items = body.items ?? itemsAsInput(current?.items ?? []);
  const amounts = documentAmounts(
    items,
    {
      percentage: body.discount_percentage ?? current?.discountPercentage ?? 0,
      amount: body.discount_amount ?? current?.discountAmount ?? 0,
    },
    company.defaultTaxRate,
    problems,
  );
  problems.done();
  if (!customer || !amounts) throw new Error('unreachable: problems were reported');
  return {
    ...documentTexts(body, current),
    customerId,
    customer,
    dealId,
    pipelineStageId: stageId,
    language: body.language ?? current?.language ?? company.language,
    currency: current?.currency ?? company.currency,
    quoteDate,
    validUntil,
    introText: body.intro_text !== undefined ? body.intro_text : (current?.introText ?? null),
    ...amounts,
  };
}

/** The deals whose value may change when this quote changes: the one it had and the one it has. */
async function followDeals(tx: Tx, companyId: string, ...dealIds: (string | null | undefined)[]) {
  for (const dealId of new Set(dealIds)) if (dealId) await dealFollowsQuotes(tx, companyId, dealId);
}

export const handlers = {
  listQuotes: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const { data, meta } = await q.listQuotes(c.get('tenant'), page, {
      status: query['filter[status]'],
      customerId: query['filter[customer_id]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
    });
    const url = quoteUrl(c);
    return c.json({ data: data.map((row) => serializeQuote(row, url(row))), meta }, 200);
  },

  getQuote: async (c) => {
    const { quote } = c.req.valid('param');
    const row = await q.readQuote(c.get('tenant'), quote);
    if (!row) throw quoteDocuments.notFound();
    return c.json(...respond(c, row));
  },

  getQuotePdf: async (c) => {
    const { quote } = c.req.valid('param');
    const download = await documentPdfDownload(c, quoteDocuments, quote);
    return c.body(download.pdf, 200, download.headers);
  },

  createQuote: async (c) => {
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const created = await runCreation(c, async (tx) => {
      // The number is taken with the reads, the counter locked after the stage as always: one round trip.
      const reads = quoteReads(tx, companyId, body);
      const [columns, number] = await Promise.all([
        quoteColumns(body, reads),
        nextDocumentNumber(tx, companyId, 'quote'),
      ]);
      const row = await q.insertQuote(tx, companyId, {
        ...columns,
        metadata: newMetadata(body.metadata),
        id: newId(),
        number,
        status: 'draft',
      });
      await recordQuoteEvent(tx, row, 'quote.created');
      await followDeals(tx, companyId, row.dealId);
      return {
        status: 201 as const,
        body: { data: serializeQuote(row, quoteUrl(c)(row)) },
        headers: { ETag: etagOf(row.version) },
      };
    });
    return c.json(created.body, created.status, created.headers);
  },

  updateQuote: async (c) => {
    const { quote } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    const { updating } = await c.get('tenant').transaction(async (tx) => {
      // One round trip: the lock, then the reads of the new columns (none for metadata alone, which any state takes).
      const metadataAlone = onlyMetadata(body);
      const locking = q.lockQuote(tx, companyId, quote);
      const reads = metadataAlone ? undefined : quoteReads(tx, companyId, body, quote);
      const current = await locking;
      checkIfMatch(current, expected, quoteDocuments.notFound);
      const metadata = changedMetadata(current.metadata, body.metadata);
      if (!reads) {
        // `{}` changes nothing: no write, and the version stays.
        const updating = metadata.metadata ? q.updateQuote(tx, current, metadata) : Promise.resolve(current);
        await sendUntilCommit(tx, updating);
        return { updating };
      }
      if (current.status !== 'draft')
        throw new ApiProblem('conflict', quoteMessages.message('quote.not_draft', { status: current.status }));
      const columns = { ...(await quoteColumns(body, reads, current)), ...metadata };
      // Nothing in the transaction waits for the updated row, only the answer: the update goes with COMMIT (the
      // deals' reads follow it on the connection), and its row (or its error, the transaction's) is taken once
      // committed.
      const updating = q.updateQuote(tx, current, columns);
      await sendUntilCommit(tx, updating);
      await followDeals(tx, companyId, current.dealId, columns.dealId);
      return { updating };
    });
    return c.json(...respond(c, await updating));
  },

  sendQuote: async (c) => {
    const { quote } = c.req.valid('param');
    const sent = await sendDocument(c, quoteDocuments, quote, c.req.valid('json') ?? {}, {
      refusal: (current) =>
        ['draft', 'pending_review', 'sent', 'viewed'].includes(current.status)
          ? undefined
          : new ApiProblem('conflict', quoteMessages.message('quote.cannot_send', { status: current.status })),
      // A quote's email carries its PDF alone.
      extra: async () => ({ attachments: [] }),
      markSent: async (tx, current) => {
        if (current.status !== 'draft' && current.status !== 'pending_review') return current;
        const row = await q.updateQuote(tx, current, { status: 'sent', sentAt: sql`app_now()` });
        await recordQuoteEvent(tx, row, 'quote.sent');
        return row;
      },
      answer: async (_tx, row) => ({ data: serializeQuote(row, quoteUrl(c)(row)) }),
    });
    return c.json(sent.body, sent.status, sent.headers);
  },

  acceptQuote: async (c) => {
    const { quote } = c.req.valid('param');
    const row = await onLocked(c, quoteDocuments, quote, (tx, current) => acceptQuote(tx, current));
    return c.json(...respond(c, row));
  },

  rejectQuote: async (c) => {
    const { quote } = c.req.valid('param');
    const body = c.req.valid('json') ?? {};
    const row = await onLocked(c, quoteDocuments, quote, (tx, current) => rejectQuote(tx, current, body.reason));
    return c.json(...respond(c, row));
  },
} satisfies Partial<Handlers>;
