import { sql } from 'drizzle-orm';
import { violatedConstraint } from '../../db/errors.ts';
import { customers } from '../../db/schema/index.ts';
import { inOrder, type Tx } from '../../db/tenant.ts';
import { type EventRecord, recordEvent } from '../../events/record.ts';
import { answerBatch } from '../../http/batch.ts';
import { checkIfMatch, type ExpectedVersions, etagOf, expectedVersion, preconditionFailed } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import { metadataLimit, metadataPatch, newMetadata } from '../../http/metadata.ts';
import { pageOf } from '../../http/pagination.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField, invalidFields } from '../../http/validation.ts';
import { customFieldsCondition } from '../custom-fields/filter.ts';
import { companyFields } from '../custom-fields/schemas.ts';
import { confirmValues, newValues, valuesPatch } from '../custom-fields/values.ts';
import { customerUpsert } from './batch.ts';
import { columnsOf, identifierErrors } from './input.ts';
import { customerMessages } from './messages.ts';
import * as q from './queries.ts';
import { type CustomerRow, serializeCustomer } from './serialize.ts';
import { listTimeline, serializeTimelineEntry } from './timeline.ts';

const notFound = () => new ApiProblem('not_found', customerMessages.message('customer.not_found'));
const emailTaken = () => invalidField('/email', 'already_exists', customerMessages.message('customer.email_taken'));

/** 422 when an identifier of the input breaks its rule (VAT, CoC, Peppol id: src/domain/identifiers.ts). */
const checkIdentifiers = (...args: Parameters<typeof identifierErrors>) => {
  const errors = identifierErrors(...args);
  if (errors.length > 0) throw invalidFields(errors);
};

/** A write that failed on the unique index of emails: the email is another customer's. */
const emailConflict = (error: unknown): never => {
  throw violatedConstraint(error) === 'customers_email' ? emailTaken() : error;
};

const recordCustomerChange = (
  tx: Tx,
  companyId: string,
  type: 'customer.updated' | 'customer.converted',
  customer: CustomerRow,
) =>
  recordEvent(tx, companyId, {
    type,
    scope: 'customers.read',
    customerId: customer.id,
    object: serializeCustomer(customer),
  });

/**
 * A change decided on the locked customer (convert): lock it (404), check If-Match (412), let `decide` return the
 * columns to change (or throw), write them with the next version, and record the event — nothing when nothing
 * changes. A PATCH needs no decision, so it sends its conditional write with the lock (updateCustomer below).
 */
async function changeCustomer(
  tx: Tx,
  companyId: string,
  id: string,
  expected: ExpectedVersions,
  event: 'customer.updated' | 'customer.converted',
  decide: (current: CustomerRow) => Promise<q.CustomerChanges>,
): Promise<CustomerRow> {
  const current = await q.lockCustomer(tx, companyId, id);
  checkIfMatch(current, expected, notFound);
  const changes = await decide(current);
  if (Object.keys(changes).length === 0) return current;
  const updated = await q.updateCustomer(tx, companyId, id, changes, current.version).catch(emailConflict);
  // Cannot happen while the row is locked; kept so a lost update can never pass silently.
  if (!updated) throw preconditionFailed(current.version + 1);
  await recordCustomerChange(tx, companyId, event, updated);
  return updated;
}

export const handlers = {
  listCustomers: async (c) => {
    const query = c.req.valid('query');
    const { companyId } = c.get('tenant');
    const page = { limit: query.limit, cursor: query.cursor, sort: query.sort };
    const filters = {
      q: query.q,
      status: query['filter[status]'],
      type: query['filter[type]'],
      email: query['filter[email]'],
      updatedSince: query['filter[updated_since]'],
      metadata: query.metadata,
      customFields: await customFieldsCondition(c, 'customers', customers, query['filter[custom_fields]']),
      searchFields:
        query.q === undefined ? undefined : (await companyFields(c.get('deps').sql, c.get('tenant'))).customers,
    };
    const tenant = c.get('tenant');
    const { data, meta } =
      filters.q === undefined
        ? await q.readCustomerPage(tenant, page, filters)
        : await tenant.transaction(async (tx) => {
            const { rows, plan } = await q.searchCustomers(tx, companyId, page, filters);
            return pageOf(rows, page, plan);
          });
    return c.json({ data: data.map(serializeCustomer), meta }, 200);
  },

  getCustomer: async (c) => {
    const { customer } = c.req.valid('param');
    // One statement: the tenant read in one round trip (same row-level security as withTenant).
    const row = await q.readCustomer(c.get('tenant'), customer);
    if (!row) throw notFound();
    return c.json({ data: serializeCustomer(row) }, 200, { ETag: etagOf(row.version) });
  },

  createCustomer: async (c) => {
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    const { country } = c.get('auth').key.company;
    checkIdentifiers(body, '', null);
    const customFields = await newValues(c, 'customers', body.custom_fields);
    const created = await runCreation(c, async (tx) => {
      await confirmValues(tx, c, 'customers', body.custom_fields, true);
      const row = await q.insertCustomerUnlessEmailTaken(
        tx,
        companyId,
        { ...columnsOf(body), email: body.email, status: 'lead', metadata: newMetadata(body.metadata), customFields },
        { country },
      );
      if (!row) throw emailTaken();
      const data = serializeCustomer(row);
      // Recorded by runCreation, in one statement with the stored answer of an Idempotency-Key.
      const event: EventRecord = {
        type: 'customer.created',
        scope: 'customers.read',
        customerId: row.id,
        object: data,
      };
      return { status: 201 as const, body: { data }, headers: { ETag: etagOf(row.version) }, event };
    });
    return c.json(created.body, created.status, created.headers);
  },

  upsertCustomers: async (c) => {
    const { atomic } = c.req.valid('query');
    const done = await answerBatch(c, customerUpsert, {
      object: 'customer_batch',
      serialize: serializeCustomer,
      atomic,
    });
    return c.json(done.body, done.status, done.headers);
  },

  updateCustomer: async (c) => {
    const { customer } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    checkIdentifiers(body, '', null);
    const customFields = await valuesPatch(c, 'customers', body.custom_fields);
    const row = await c.get('tenant').transaction(async (tx) => {
      await confirmValues(tx, c, 'customers', body.custom_fields, false);
      // The lock (with the change time) and the conditional write go in one round trip; the locked row then
      // tells what the write did not do: 404, 412, or nothing to change (no new version, no event).
      const [current, updated] = await inOrder(
        () => q.lockCustomer(tx, companyId, customer),
        () =>
          q
            .updateCustomerIfChanged(tx, companyId, customer, columnsOf(body), expected, {
              metadata: metadataPatch(body.metadata),
              customFields,
            })
            .catch(emailConflict)
            .catch(metadataLimit),
      );
      checkIfMatch(current, expected, notFound);
      // A CoC number sent without a country is judged by the stored one (a Belgian customer's is an enterprise
      // number); the write is undone by the throw.
      if (body.country === undefined) checkIdentifiers({ coc_number: body.coc_number }, '', current.country);
      if (!updated) return current;
      await recordCustomerChange(tx, companyId, 'customer.updated', updated);
      return updated;
    });
    return c.json({ data: serializeCustomer(row) }, 200, { ETag: etagOf(row.version) });
  },

  convertCustomer: async (c) => {
    const { customer } = c.req.valid('param');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    const row = await c.get('tenant').transaction((tx) =>
      changeCustomer(tx, companyId, customer, expected, 'customer.converted', async (current) => {
        if (current.status !== 'lead') {
          throw new ApiProblem('conflict', customerMessages.message('customer.not_a_lead'));
        }
        // The change's own time, as updated_at in the same statement: not the server clock.
        return { status: 'customer', convertedAt: sql`app_now()` };
      }),
    );
    return c.json({ data: serializeCustomer(row) }, 200, { ETag: etagOf(row.version) });
  },

  listCustomerTimeline: async (c) => {
    const { customer } = c.req.valid('param');
    const query = c.req.valid('query');
    const auth = c.get('auth');
    const language = c.get('language');
    const page = { limit: query.limit, cursor: query.cursor, sort: '-created_at' };
    const { data, meta } = await c.get('tenant').transaction(async (tx) => {
      if (!(await q.findCustomer(tx, auth.companyId, customer))) throw notFound();
      return listTimeline(tx, auth.companyId, customer, [...auth.scopes], page);
    });
    return c.json({ data: data.map((e) => serializeTimelineEntry(e, language)), meta }, 200, {
      'Content-Language': language,
    });
  },
} satisfies Partial<Handlers>;
