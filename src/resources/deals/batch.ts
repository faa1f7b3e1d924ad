// POST /deals/batch through the shared batch upsert (src/http/batch.ts): deals matched on their id or external
// reference (exactly), created as Create a deal creates them and updated as Update a deal updates them, with the
// same checks: the customer, stage and user must be the company's, one open deal per customer, amounts of two
// decimals. The references of a round are read set by set (customers locked for their activity, stages and users
// held FOR SHARE like the single writes do).
import type { z } from 'zod';
import { DealBatchItemSchema, DealBatchSchema } from '../../../generated/routes.ts';
import type { Tx } from '../../db/tenant.ts';
import { sameValue } from '../../domain/custom-fields.ts';
import { valueFromQuotes } from '../../domain/deals.ts';
import { recordEvents } from '../../events/record.ts';
import type { Matched, Plan, Upsert } from '../../http/batch.ts';
import { message } from '../../http/messages.ts';
import { mergedMetadata, metadataErrors, newMetadata, sameMetadata } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { companyMessages } from '../company/messages.ts';
import { batchValues, fieldsIn } from '../custom-fields/values.ts';
import { customerMessages } from '../customers/messages.ts';
import { lockCustomersForActivity, touchCustomersActivity } from '../customers/queries.ts';
import { stageMessages } from '../pipeline-stages/messages.ts';
import { findActiveOpenStages, findDefaultStage } from '../pipeline-stages/queries.ts';
import { Problems, reference } from './inputs.ts';
import { dealMessages } from './messages.ts';
import * as q from './queries.ts';
import { type DealRow, serializeDeal } from './serialize.ts';

type Item = z.output<typeof DealBatchItemSchema>;
type Columns = q.BatchColumns;
type Round = Awaited<ReturnType<typeof readReferences>>;

const unique = <T>(values: (T | null | undefined)[]) => [...new Set(values.filter((v): v is T => v != null))];

/** What this round's items refer to, read in a few statements. */
async function readReferences(tx: Tx, companyId: string, items: Matched<Item, DealRow>[]) {
  const created = items.filter((m) => !m.row);
  const customerIds = unique([...created.map((m) => m.item.customer_id), ...items.map((m) => m.row?.customerId)]);
  // Quotes only for the deals whose manual amount goes back to the calculated one (value: null).
  const toQuotes = items.flatMap(({ item, row }) =>
    row && item.value === null && row.valueSource !== 'quotes' ? [row] : [],
  );
  const [customers, openDeals, stages, users, defaultStage, quotes, fields] = await Promise.all([
    lockCustomersForActivity(tx, companyId, customerIds),
    q.openDealsOf(tx, companyId, unique(created.map((m) => m.item.customer_id))),
    findActiveOpenStages(tx, companyId, unique(created.map((m) => m.item.stage_id))),
    q.activeUsersOf(tx, companyId, unique(items.map((m) => m.item.assigned_user_id))),
    created.some((m) => m.item.stage_id == null) ? findDefaultStage(tx, companyId) : undefined,
    Promise.all(toQuotes.map(async (row) => [row.id, await q.quotesOfDeal(tx, companyId, row.id)] as const)),
    fieldsIn(tx, companyId, 'deals'),
  ]);
  return {
    customers,
    openDeals,
    stages: new Set(stages.map((s) => s.id)),
    users,
    defaultStage,
    quotes: new Map(quotes),
    /** The company's custom fields of deals. */
    fields,
    /** Customers given a new open deal by an earlier item of this round. */
    claimed: new Set<string>(),
  };
}

/** A new deal, checked like Create a deal. */
function planCreation({ item, index }: Matched<Item, DealRow>, round: Round): Plan<Columns> {
  const at = (field: string) => `/items/${index}/${field}`;
  const problems = new Problems();
  const value = item.value === undefined || item.value === null ? null : problems.amount(at('value'), item.value);
  if (item.customer_id === undefined) {
    problems.add({ pointer: at('customer_id'), parameter: null, code: 'required', detail: message('field.required') });
  } else if (!round.customers.has(item.customer_id)) {
    problems.add(reference(at('customer_id'), customerMessages.message('customer.unknown_reference')));
  }
  if (item.stage_id != null && !round.stages.has(item.stage_id)) {
    problems.add(reference(at('stage_id'), stageMessages.message('stage.unknown_reference_of_type', { type: 'open' })));
  }
  if (item.assigned_user_id != null && !round.users.has(item.assigned_user_id)) {
    problems.add(reference(at('assigned_user_id'), companyMessages.message('user.unknown_reference')));
  }
  const custom = batchValues(round.fields, undefined, item.custom_fields, `/items/${index}`);
  for (const error of custom.errors) problems.add(error);
  if (problems.errors.length > 0 || item.customer_id === undefined) return { problem: invalidFields(problems.errors) };
  const stageId = item.stage_id ?? round.defaultStage?.id;
  if (stageId === undefined) return { problem: new ApiProblem('conflict', stageMessages.message('stage.no_default')) };
  const open = round.openDeals.get(item.customer_id);
  // This very deal, committed by a concurrent batch after this round's lock read: matched in the next round.
  if (open !== undefined && item.external_ref !== undefined && open.externalRef === item.external_ref) {
    return { again: true };
  }
  if (open !== undefined || round.claimed.has(item.customer_id)) {
    // Its pointer says which item, also among the invalid inputs of an all-or-nothing batch.
    const detail = dealMessages.message('deal.open_deal_exists');
    const errors = [{ pointer: at('customer_id'), parameter: null, code: 'already_exists', detail }];
    return {
      problem: new ApiProblem('conflict', detail, open === undefined ? { errors } : { deal_id: open.id, errors }),
    };
  }
  round.claimed.add(item.customer_id);
  const columns: Columns = {
    customerId: item.customer_id,
    stageId,
    title: item.title ?? null,
    description: item.description ?? null,
    // Without an amount the value follows the deal's quotes; a new deal has none yet.
    value: value ?? null,
    valueSource: value == null ? 'quotes' : 'manual',
    assignedUserId: item.assigned_user_id ?? null,
    externalRef: item.external_ref ?? null,
    metadata: newMetadata(item.metadata),
    customFields: custom.values,
  };
  return { columns, changed: true };
}

/** A matched deal, changed like Update a deal; its customer and stage stay. */
function planUpdate({ item, index }: Matched<Item, DealRow>, row: DealRow, round: Round): Plan<Columns> {
  const at = (field: string) => `/items/${index}/${field}`;
  const problems = new Problems();
  const fixed = (field: string, detail: ReturnType<typeof dealMessages.message>) =>
    problems.add({ pointer: at(field), parameter: null, code: 'invalid_combination', detail });
  if (item.customer_id !== undefined && item.customer_id !== row.customerId) {
    fixed('customer_id', dealMessages.message('deal.customer_fixed'));
  }
  if (item.stage_id != null && item.stage_id !== row.stageId)
    fixed('stage_id', dealMessages.message('deal.stage_by_move'));
  const columns: Columns = {
    customerId: row.customerId,
    stageId: row.stageId,
    title: item.title === undefined ? row.title : item.title,
    description: item.description === undefined ? row.description : item.description,
    value: row.value,
    valueSource: row.valueSource,
    assignedUserId: item.assigned_user_id === undefined ? row.assignedUserId : item.assigned_user_id,
    externalRef: item.external_ref ?? row.externalRef,
    // Merged into the deal's as Update a deal merges it.
    metadata: mergedMetadata(row.metadata, item.metadata),
    customFields: row.customFields,
  };
  for (const error of metadataErrors(columns.metadata, `/items/${index}`)) problems.add(error);
  const custom = batchValues(round.fields, row.customFields, item.custom_fields, `/items/${index}`);
  for (const error of custom.errors) problems.add(error);
  columns.customFields = custom.values;
  // Only a new owner is checked: resending the current owner, since deactivated, changes nothing.
  const owner = columns.assignedUserId;
  if (owner !== null && owner !== row.assignedUserId && !round.users.has(owner)) {
    problems.add(reference(at('assigned_user_id'), companyMessages.message('user.unknown_reference')));
  }
  if (item.value === null && row.valueSource !== 'quotes') {
    columns.valueSource = 'quotes';
    columns.value = valueFromQuotes(round.quotes.get(row.id) ?? [], row.currency);
  } else if (item.value !== undefined && item.value !== null) {
    const value = problems.amount(at('value'), item.value);
    if (value !== undefined) [columns.value, columns.valueSource] = [value, 'manual'];
  }
  if (problems.errors.length > 0) return { problem: invalidFields(problems.errors) };
  const changed =
    (Object.keys(columns) as (keyof Columns)[]).some(
      (key) => key !== 'metadata' && key !== 'customFields' && columns[key] !== row[key],
    ) ||
    !sameMetadata(columns.metadata, row.metadata) ||
    !sameValue(columns.customFields, row.customFields);
  return { columns, changed };
}

export const dealUpsert: Upsert<Item, DealRow, Columns> = {
  schemas: { batch: DealBatchSchema, item: DealBatchItemSchema },
  key: { field: 'external_ref', ofItem: (item) => item.external_ref, ofRow: (row) => row.externalRef },
  messages: {
    duplicate: dealMessages.message('deal.duplicate_in_batch'),
    unknownId: dealMessages.message('deal.unknown_reference'),
    keyTaken: dealMessages.message('deal.external_ref_taken'),
  },
  lock: q.lockDealsOfBatch,
  planner: async (tx, companyId, items) => {
    const round = await readReferences(tx, companyId, items);
    return (matched) => (matched.row ? planUpdate(matched, matched.row, round) : planCreation(matched, round));
  },
  insert: q.insertDealsOfBatch,
  update: q.updateDealsOfBatch,
  // As recordDealChange does for one deal: its event with the deal as it is now, and the activity with its customer.
  record: async (tx, companyId, written) => {
    await recordEvents(
      tx,
      companyId,
      written.map((o) => ({
        type: o.outcome === 'created' ? ('deal.created' as const) : ('deal.updated' as const),
        scope: 'deals.read',
        customerId: o.row.customerId,
        object: serializeDeal(o.row),
      })),
    );
    await touchCustomersActivity(tx, companyId, unique(written.map((o) => o.row.customerId)));
  },
};
