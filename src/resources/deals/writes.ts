// The steps every deal change shares: working on the locked deal (404, If-Match), saving a new version,
// keeping one open deal per customer, and recording the deal's events and its customer's activity in the same
// transaction.
import type { Context } from 'hono';
import { violatedConstraint } from '../../db/errors.ts';
import { inOrder, type Tx } from '../../db/tenant.ts';
import type { EventType } from '../../events/catalogue.ts';
import { recordEvent } from '../../events/record.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, expectedVersion, onLocked, preconditionFailed } from '../../http/etag.ts';
import { metadataLimit } from '../../http/metadata.ts';
import { ApiProblem } from '../../http/problems.ts';
import { invalidField } from '../../http/validation.ts';
import { confirmValues, type ValuesInput } from '../custom-fields/values.ts';
import { touchCustomerActivity } from '../customers/queries.ts';
import { dealUpdateCandidates, ownerProblem, Problems } from './inputs.ts';
import { dealMessages } from './messages.ts';
import * as q from './queries.ts';
import { type DealRow, serializeDeal } from './serialize.ts';

export const dealNotFound = () => new ApiProblem('not_found', dealMessages.message('deal.not_found'));

/** A write that failed on the unique index of external references: the reference is another deal's. */
export const externalRefConflict = (error: unknown): never => {
  throw violatedConstraint(error) === 'deals_external_ref'
    ? invalidField('/external_ref', 'already_exists', dealMessages.message('deal.external_ref_taken'))
    : error;
};

/** Runs `work` on the deal locked in a tenant transaction, after the If-Match check. */
export function onLockedDeal(
  c: Context<AppEnv>,
  id: string,
  work: (tx: Tx, current: DealRow, companyId: string) => Promise<DealRow>,
): Promise<DealRow> {
  return onLocked(c, { lock: q.lockDeal, notFound: dealNotFound }, id, work);
}

/** The PATCH's columns, and the values it sent (checked again in the transaction: confirmValues). */
type PatchBody = Parameters<typeof dealUpdateCandidates>[0] & { custom_fields?: ValuesInput };

/**
 * A PATCH that needs no decision on the locked deal (any but `value: null`): the lock (with the change time), the
 * check of the owner sent and the conditional write (updateDealIfChanged) go in one round trip. The locked row then
 * tells what the write did not do (404, 412, nothing to change: no new version, no event); a refused owner or amount
 * (422) undoes it with the transaction.
 */
export function patchDeal(c: Context<AppEnv>, id: string, body: PatchBody): Promise<DealRow> {
  const expected = expectedVersion(c);
  const { companyId } = c.get('tenant');
  return c.get('tenant').transaction(async (tx) => {
    await confirmValues(tx, c, 'deals', body.custom_fields, false);
    const amount = new Problems();
    const fields = dealUpdateCandidates(body, amount);
    const owner = body.assigned_user_id ?? undefined;
    const [current, ownerActive, written] = await inOrder(
      () => q.lockDeal(tx, companyId, id),
      () => (owner === undefined ? Promise.resolve(true) : q.isActiveUser(tx, companyId, owner)),
      () =>
        q.updateDealIfChanged(tx, companyId, id, fields, expected).then(
          (row) => ({ row }),
          (error: unknown) => ({ error }),
        ),
    );
    checkIfMatch(current, expected, dealNotFound);
    // In the order dealUpdateColumns reports them: the owner, then the amount.
    const problems = new Problems();
    const refused = ownerProblem(body, current, ownerActive);
    if (refused) problems.add(refused);
    for (const error of amount.errors) problems.add(error);
    problems.done();
    if ('error' in written) return Promise.reject(written.error).catch(externalRefConflict).catch(metadataLimit);
    if (!written.row) return current;
    await recordDealChange(tx, written.row, 'deal.updated');
    return written.row;
  });
}

/** The next version of the locked deal. */
export async function saveDeal(tx: Tx, current: DealRow, changes: q.DealChanges): Promise<DealRow> {
  const updated = await q.updateDeal(tx, current, changes);
  // Cannot happen while the row is locked; kept so a lost update can never pass silently.
  if (!updated) throw preconditionFailed(current.version + 1);
  return updated;
}

/**
 * Runs a write that may give the customer an open deal (create, reopen). The unique index
 * deals_one_open_per_customer decides, also between concurrent requests; its violation becomes 409 conflict
 * with the id of the open deal. The write runs in a savepoint so the transaction can still look that deal up.
 */
export async function keepingOneOpenDeal(
  tx: Tx,
  companyId: string,
  customerId: string,
  write: (tx: Tx) => Promise<DealRow>,
): Promise<DealRow> {
  try {
    return await tx.transaction(write);
  } catch (error) {
    if (violatedConstraint(error) !== 'deals_one_open_per_customer') throw error;
  }
  const open = await q.findOpenDeal(tx, companyId, customerId);
  throw new ApiProblem('conflict', dealMessages.message('deal.open_deal_exists'), open ? { deal_id: open.id } : {});
}

/**
 * What follows every change of a deal (creation included): its events, in order, each with the deal as it is
 * now (seen with deals.read, on its customer's timeline), and the activity with its customer.
 */
export async function recordDealChange(tx: Tx, deal: DealRow, ...types: EventType[]): Promise<void> {
  const object = serializeDeal(deal);
  for (const type of types) {
    await recordEvent(tx, deal.companyId, { type, scope: 'deals.read', customerId: deal.customerId, object });
  }
  await touchCustomerActivity(tx, deal.companyId, deal.customerId);
}
