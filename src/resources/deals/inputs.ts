// Request bodies of deals → columns, with the checks the contract puts on their references (a customer,
// stage or user of the company: 422 invalid_reference) and amounts (at most two decimals). Every invalid
// input of a request is reported at once.
import type { SQL } from 'drizzle-orm';
import { hasErrorCode } from '../../db/errors.ts';
import type { CustomFieldValues } from '../../db/schema/columns.ts';
import { deals } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { MAX_DEAL_VALUE, valueFromQuotes } from '../../domain/deals.ts';
import { parseAmount } from '../../domain/money.ts';
import type { Message } from '../../http/message-catalogue.ts';
import { message } from '../../http/messages.ts';
import { type MetadataInput, metadataChange, metadataMerge, newMetadata } from '../../http/metadata.ts';
import { ApiProblem, type FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { companyMessages } from '../company/messages.ts';
import { customerMessages } from '../customers/messages.ts';
import { findCustomer } from '../customers/queries.ts';
import { stageMessages } from '../pipeline-stages/messages.ts';
import { defaultStageId, findActiveStage, findDefaultStage } from '../pipeline-stages/queries.ts';
import * as q from './queries.ts';
import type { DealRow } from './serialize.ts';

type CreateBody = {
  customer_id: string;
  title?: string | null;
  description?: string | null;
  value?: number | string | null;
  stage_id?: number | null;
  assigned_user_id?: number | null;
  external_ref?: string | null;
  metadata?: MetadataInput;
  /** The custom fields' values, checked against the company's fields (custom-fields/values.ts newValues). */
  customFields?: CustomFieldValues;
};

type UpdateBody = {
  title?: string | null;
  description?: string | null;
  value?: number | string | null;
  assigned_user_id?: number | null;
  external_ref?: string | null;
  metadata?: MetadataInput;
  /** The custom fields' patch, checked against the company's fields (custom-fields/values.ts valuesPatch). */
  customFieldsPatch?: string;
};

/** The merge of a PATCH's custom fields into the stored ones (as metadata's), when it sends any. */
const customFieldsChange = (body: UpdateBody): { customFields?: SQL } =>
  body.customFieldsPatch === undefined
    ? {}
    : { customFields: metadataMerge(deals.customFields, body.customFieldsPatch) };

export const reference = (pointer: string, detail: Message): FieldError => ({
  pointer,
  parameter: null,
  code: 'invalid_reference',
  detail,
});

const unknownUser = () => reference('/assigned_user_id', companyMessages.message('user.unknown_reference'));

/** Collects invalid inputs; `done` throws them as one 422. */
export class Problems {
  readonly errors: FieldError[] = [];
  add(error: FieldError) {
    this.errors.push(error);
  }
  /** The amount with two decimals, or a recorded error. */
  amount(pointer: string, input: number | string): string | undefined {
    const parsed = parseAmount(input, MAX_DEAL_VALUE);
    if (parsed.ok) return parsed.amount;
    this.add(
      parsed.reason === 'format'
        ? { pointer, parameter: null, code: 'invalid_format', detail: message('field.amount_format') }
        : { pointer, parameter: null, code: 'too_big', detail: message('field.too_big', { max: '99999999' }) },
    );
    return undefined;
  }
  async user(tx: Tx, companyId: string, id: number) {
    if (!(await q.isActiveUser(tx, companyId, id))) this.add(unknownUser());
  }
  done() {
    if (this.errors.length > 0) throw invalidFields(this.errors);
  }
}

/**
 * The checks of a new deal's customer, stage and owner, all sent at once (one round trip, with what follows them on
 * the connection); their problems in that order. `stageId` is the stage named, when it is active and open.
 */
async function newDealChecks(
  tx: Tx,
  companyId: string,
  body: CreateBody,
): Promise<{ errors: FieldError[]; stageId?: number }> {
  const named = body.stage_id ?? undefined;
  const owner = body.assigned_user_id ?? undefined;
  const [customer, stage, ownerActive] = await Promise.all([
    findCustomer(tx, companyId, body.customer_id),
    named === undefined ? undefined : findActiveStage(tx, companyId, named),
    owner === undefined ? true : q.isActiveUser(tx, companyId, owner),
  ]);
  const errors: FieldError[] = [];
  if (!customer) errors.push(reference('/customer_id', customerMessages.message('customer.unknown_reference')));
  if (named !== undefined && stage?.type !== 'open')
    errors.push(reference('/stage_id', stageMessages.message('stage.unknown_reference_of_type', { type: 'open' })));
  if (!ownerActive) errors.push(unknownUser());
  return { errors, stageId: stage?.type === 'open' ? stage.id : undefined };
}

/** A new deal's columns from its body; its stage the one named or `stage` (the default's look-up). */
const newDeal = (body: CreateBody, value: string | null, stage: number | SQL): q.NewDealColumns => ({
  customerId: body.customer_id,
  title: body.title ?? null,
  description: body.description ?? null,
  // Without an amount the value follows the deal's quotes; a new deal has none yet.
  value,
  valueSource: value === null ? 'quotes' : 'manual',
  stageId: body.stage_id ?? stage,
  assignedUserId: body.assigned_user_id ?? null,
  externalRef: body.external_ref ?? null,
  metadata: newMetadata(body.metadata),
  customFields: body.customFields ?? {},
  source: 'api',
});

/** A failed insert of a new deal whose default stage the insert's own look-up did not find (stage_id null). */
const NOT_NULL = new Set(['23502']);

/**
 * A new deal in one round trip (before its events): the checks of its customer, stage and owner and its insert (by
 * `insert`, in a savepoint; its stage the default's look-up unless one is named) are sent together; the checks decide
 * first (422, the insert undone with the transaction), then the insert's outcome. Only when the insert's look-up
 * found no default stage is it looked up again as findDefaultStage does (409 stage.no_default), and the deal
 * inserted then.
 */
export async function insertNewDeal(
  tx: Tx,
  companyId: string,
  body: CreateBody,
  insert: (tx: Tx, columns: q.NewDealColumns) => Promise<DealRow>,
): Promise<DealRow> {
  const problems = new Problems();
  const value = body.value === undefined || body.value === null ? null : problems.amount('/value', body.value);
  const checking = newDealChecks(tx, companyId, body);
  // Not sent with an amount that does not parse: there is nothing to insert.
  const inserting =
    value === undefined
      ? undefined
      : insert(tx, newDeal(body, value, defaultStageId(companyId))).then(
          (row) => ({ row }),
          (error: unknown) => ({ error }),
        );
  const [checks, inserted] = await Promise.all([checking, inserting]);
  for (const error of checks.errors) problems.add(error);
  problems.done();
  if (inserted === undefined) throw new Error('unreachable: a deal without a valid amount');
  if ('row' in inserted) return inserted.row;
  if (!((body.stage_id === undefined || body.stage_id === null) && hasErrorCode(inserted.error, NOT_NULL)))
    throw inserted.error;
  // The insert's savepoint was rolled back, and with it the locks of the checks sent after the savepoint (their
  // order on the connection is the driver's): checked, and held, again.
  const again = await newDealChecks(tx, companyId, body);
  for (const error of again.errors) problems.add(error);
  problems.done();
  const stage = await findDefaultStage(tx, companyId);
  if (!stage) throw new ApiProblem('conflict', stageMessages.message('stage.no_default'));
  return insert(tx, newDeal(body, value ?? null, stage.id));
}

/** The columns an update changes (only fields sent with a different value), after checking user and value. */
export async function dealUpdateColumns(
  tx: Tx,
  companyId: string,
  current: DealRow,
  body: UpdateBody,
): Promise<q.DealChanges> {
  const problems = new Problems();
  const changes: q.DealChanges = { ...metadataChange(deals.metadata, body.metadata), ...customFieldsChange(body) };
  if (body.title !== undefined && body.title !== current.title) changes.title = body.title;
  if (body.description !== undefined && body.description !== current.description)
    changes.description = body.description;
  if (body.external_ref !== undefined && body.external_ref !== current.externalRef)
    changes.externalRef = body.external_ref;
  if (body.assigned_user_id !== undefined && body.assigned_user_id !== current.assignedUserId) {
    // Only a new owner is checked: resending the current owner, since deactivated, changes nothing.
    if (body.assigned_user_id !== null) await problems.user(tx, companyId, body.assigned_user_id);
    changes.assignedUserId = body.assigned_user_id;
  }
  if (body.value === null && current.valueSource !== 'quotes') {
    changes.valueSource = 'quotes';
    changes.value = valueFromQuotes(await q.quotesOfDeal(tx, companyId, current.id), current.currency);
  } else if (body.value !== undefined && body.value !== null) {
    const value = problems.amount('/value', body.value);
    if (value !== undefined && (value !== current.value || current.valueSource !== 'manual')) {
      changes.value = value;
      changes.valueSource = 'manual';
    }
  }
  problems.done();
  return changes;
}

/**
 * A PATCH's candidate columns for updateDealIfChanged: every field sent (a manual amount with its source), written
 * only if one differs from what is stored. An amount that does not parse is recorded in `problems` and leaves
 * nothing to write. Not for `value: null`, which needs the deal's quotes: dealUpdateColumns.
 */
export function dealUpdateCandidates(body: UpdateBody, problems: Problems): q.DealFields {
  const fields: q.DealFields = {};
  if (body.title !== undefined) fields.title = body.title;
  if (body.description !== undefined) fields.description = body.description;
  if (body.external_ref !== undefined) fields.externalRef = body.external_ref;
  if (body.assigned_user_id !== undefined) fields.assignedUserId = body.assigned_user_id;
  Object.assign(fields, metadataChange(deals.metadata, body.metadata), customFieldsChange(body));
  if (body.value !== undefined && body.value !== null) {
    const value = problems.amount('/value', body.value);
    if (value === undefined) return {};
    fields.value = value;
    fields.valueSource = 'manual';
  }
  return fields;
}

/** A new owner (not the deal's current one, which may have been deactivated since) who is not an active user. */
export const ownerProblem = (body: UpdateBody, current: DealRow, ownerActive: boolean): FieldError | undefined =>
  body.assigned_user_id !== undefined &&
  body.assigned_user_id !== null &&
  body.assigned_user_id !== current.assignedUserId &&
  !ownerActive
    ? unknownUser()
    : undefined;
