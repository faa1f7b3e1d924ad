// POST /customers/batch through the shared batch upsert (src/http/batch.ts): customers matched on their id or email
// (any case), with the same fields, checks and events as the single operations. A new email a concurrent
// transaction created meanwhile is skipped by the insert (the unique index customers_email) and matched again.
import type { z } from 'zod';
import { CustomerBatchItemSchema, CustomerBatchSchema } from '../../../generated/routes.ts';
import { sameValue } from '../../domain/custom-fields.ts';
import { recordEvents } from '../../events/record.ts';
import type { Upsert } from '../../http/batch.ts';
import { mergedMetadata, metadataErrors, sameMetadata } from '../../http/metadata.ts';
import { invalidFields } from '../../http/validation.ts';
import { batchValues, fieldsIn } from '../custom-fields/values.ts';
import { columnsOf, identifierErrors } from './input.ts';
import { customerMessages } from './messages.ts';
import * as q from './queries.ts';
import { type CustomerRow, serializeCustomer } from './serialize.ts';

type Item = z.output<typeof CustomerBatchItemSchema>;

/** The columns a batch writes, as stored in `row` (or a new lead's defaults). */
function storedColumns(row: CustomerRow | undefined, email: string): q.BatchColumns {
  return {
    email: row?.email ?? email,
    type: row?.type ?? 'individual',
    name: row?.name ?? null,
    phone: row?.phone ?? null,
    address: row?.address ?? null,
    city: row?.city ?? null,
    postalCode: row?.postalCode ?? null,
    country: row?.country ?? null,
    companyName: row?.companyName ?? null,
    vatNumber: row?.vatNumber ?? null,
    cocNumber: row?.cocNumber ?? null,
    peppolId: row?.peppolId ?? null,
    metadata: row?.metadata ?? {},
    customFields: row?.customFields ?? {},
  };
}

export const customerUpsert: Upsert<Item, CustomerRow, q.BatchColumns> = {
  schemas: { batch: CustomerBatchSchema, item: CustomerBatchItemSchema },
  key: { field: 'email', ofItem: (item) => item.email?.toLowerCase(), ofRow: (row) => row.emailLower },
  messages: {
    duplicate: customerMessages.message('customer.duplicate_in_batch'),
    unknownId: customerMessages.message('customer.unknown_reference'),
    keyTaken: customerMessages.message('customer.email_taken'),
  },
  lock: q.lockCustomersOfBatch,
  // The company's custom fields, read once per round: a customer's other fields refer to nothing else.
  planner: async (tx, companyId) => {
    const fields = await fieldsIn(tx, companyId, 'customers');
    return ({ item, index, row }) => {
      const { id: _id, ...input } = item;
      // An item's metadata and custom fields merge into the row's as a PATCH's do; on a new customer they are
      // stored (and checked) as on creation.
      const metadata = mergedMetadata(row?.metadata ?? {}, input.metadata);
      const custom = batchValues(fields, row?.customFields, input.custom_fields, `/items/${index}`);
      const errors = [
        ...identifierErrors(input, `/items/${index}`, row?.country ?? null),
        ...metadataErrors(metadata, `/items/${index}`),
        ...custom.errors,
      ];
      if (errors.length > 0) return { problem: invalidFields(errors) };
      const changes = columnsOf(input);
      const columns = { ...storedColumns(row, input.email ?? ''), ...changes, metadata, customFields: custom.values };
      const changed =
        (Object.keys(changes) as (keyof typeof changes)[]).some((key) => changes[key] !== row?.[key]) ||
        !sameMetadata(metadata, row?.metadata ?? {}) ||
        !sameValue(custom.values, row?.customFields ?? {});
      return { columns, changed };
    };
  },
  insert: q.insertCustomersUnlessEmailTaken,
  update: q.updateCustomersOfBatch,
  record: async (tx, companyId, written) => {
    await recordEvents(
      tx,
      companyId,
      written.map((o) => ({
        type: o.outcome === 'created' ? ('customer.created' as const) : ('customer.updated' as const),
        scope: 'customers.read',
        customerId: o.row.id,
        object: serializeCustomer(o.row),
      })),
    );
  },
};
