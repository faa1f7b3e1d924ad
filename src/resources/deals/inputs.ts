// Request bodies of deals → columns, with the checks the contract puts on their references (a customer,
// stage or user of the company: 422 invalid_reference) and amounts (at most two decimals). Every invalid
// input of a request is reported at once.
import type { Tx } from '../../db/tenant.ts';
import { MAX_DEAL_VALUE, valueFromQuotes } from '../../domain/deals.ts';
import { parseAmount } from '../../domain/money.ts';
import { type Message, message } from '../../http/messages.ts';
import { ApiProblem, type FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { companyMessages } from '../company/messages.ts';
import { customerMessages } from '../customers/messages.ts';
import { findCustomer } from '../customers/queries.ts';
import { stageMessages } from '../pipeline-stages/messages.ts';
import { findActiveStage, findDefaultStage } from '../pipeline-stages/queries.ts';
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
};

type UpdateBody = {
  title?: string | null;
  description?: string | null;
  value?: number | string | null;
  assigned_user_id?: number | null;
  external_ref?: string | null;
};

export const reference = (pointer: string, detail: Message): FieldError => ({
  pointer,
  parameter: null,
  code: 'invalid_reference',
  detail,
});

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
    if (!(await q.isActiveUser(tx, companyId, id)))
      this.add(reference('/assigned_user_id', companyMessages.message('user.unknown_reference')));
  }
  done() {
    if (this.errors.length > 0) throw invalidFields(this.errors);
  }
}

/** The columns of a new deal, after checking its customer, stage, user and value. */
export async function newDealColumns(tx: Tx, companyId: string, body: CreateBody): Promise<q.NewDeal> {
  const problems = new Problems();
  const value = body.value === undefined || body.value === null ? null : problems.amount('/value', body.value);
  if (!(await findCustomer(tx, companyId, body.customer_id)))
    problems.add(reference('/customer_id', customerMessages.message('customer.unknown_reference')));
  let stageId: number | undefined;
  if (body.stage_id !== undefined && body.stage_id !== null) {
    const stage = await findActiveStage(tx, companyId, body.stage_id);
    if (stage?.type === 'open') stageId = stage.id;
    else
      problems.add(reference('/stage_id', stageMessages.message('stage.unknown_reference_of_type', { type: 'open' })));
  }
  if (body.assigned_user_id !== undefined && body.assigned_user_id !== null)
    await problems.user(tx, companyId, body.assigned_user_id);
  problems.done();
  if (stageId === undefined) {
    const stage = await findDefaultStage(tx, companyId);
    if (!stage) throw new ApiProblem('conflict', stageMessages.message('stage.no_default'));
    stageId = stage.id;
  }
  const amount = value ?? null;
  return {
    customerId: body.customer_id,
    title: body.title ?? null,
    description: body.description ?? null,
    // Without an amount the value follows the deal's quotes; a new deal has none yet.
    value: amount,
    valueSource: amount === null ? 'quotes' : 'manual',
    stageId,
    assignedUserId: body.assigned_user_id ?? null,
    externalRef: body.external_ref ?? null,
    source: 'api',
  };
}

/** The columns an update changes (only fields sent with a different value), after checking user and value. */
export async function dealUpdateColumns(
  tx: Tx,
  companyId: string,
  current: DealRow,
  body: UpdateBody,
): Promise<q.DealChanges> {
  const problems = new Problems();
  const changes: q.DealChanges = {};
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
