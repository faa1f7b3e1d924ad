// POST /customers/batch: up to 100 customers created, or updated when their id or email (any case) matches, each
// item on its own or all or nothing. The same fields, checks and events as the single operations, written set by
// set: one statement locks the matched customers, one inserts the new ones, one updates the changed ones, one
// records every event with its fan-out job. A new email that a concurrent transaction created meanwhile is
// skipped by the insert (the unique index waits for that transaction) and matched again in the next round.
import { z } from 'zod';
import { CustomerBatchItemSchema, CustomerBatchSchema } from '../../../generated/routes.ts';
import type { Tx } from '../../db/tenant.ts';
import { type EventRecord, recordEvents } from '../../events/record.ts';
import { message } from '../../http/messages.ts';
import { ApiProblem } from '../../http/problems.ts';
import { InvalidInputs, invalidField } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import { columnsOf } from './input.ts';
import { customerMessages } from './messages.ts';
import * as q from './queries.ts';
import { type CustomerRow, serializeCustomer } from './serialize.ts';

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Item = z.output<typeof CustomerBatchItemSchema>;

export type ItemOutcome =
  | { outcome: 'created' | 'updated' | 'unchanged'; row: CustomerRow }
  | { outcome: 'failed'; problem: ApiProblem };

/** A batch has at most 100 items; past this many rounds a concurrent writer keeps winning, which cannot be. */
const MAX_ROUNDS = 3;

const ItemsOnly = z.object({ items: z.array(z.unknown()) });

/**
 * The items of a batch body, each checked against the item schema on its own: an item's invalid inputs become its
 * problem (pointers into the whole body: `/items/7/email`). What is wrong with the body itself (no `items`, more
 * than 100, an unknown field beside `items`) fails the request as a whole.
 */
export function readBatch(body: unknown): (Item | ApiProblem)[] {
  const whole = CustomerBatchSchema.safeParse(body);
  if (whole.success) return whole.data.items;
  const ofItem = new Map<number, z.core.$ZodIssue[]>();
  const ofBody: z.core.$ZodIssue[] = [];
  for (const issue of whole.error.issues) {
    const [first, index] = issue.path;
    if (first === 'items' && typeof index === 'number') ofItem.set(index, [...(ofItem.get(index) ?? []), issue]);
    else ofBody.push(issue);
  }
  if (ofBody.length > 0) throw new InvalidInputs().addIssues(new z.ZodError(ofBody), 'json', body).problem();
  return ItemsOnly.parse(body).items.map((item, index) => {
    const issues = ofItem.get(index);
    if (issues) return new InvalidInputs().addIssues(new z.ZodError(issues), 'json', body).problem();
    return CustomerBatchItemSchema.parse(item);
  });
}

type Decision =
  | { kind: 'failed'; problem: ApiProblem }
  | { kind: 'unchanged'; row: CustomerRow }
  | { kind: 'update' | 'insert'; columns: q.BatchColumns & { id: string } };

const failed = (problem: ApiProblem): Decision => ({ kind: 'failed', problem });

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
  };
}

/** What is claimed by the items decided so far: a later item naming the same customer or email fails. */
type Claims = { customers: Set<string>; emails: Set<string> };

/** The decision for one item against the locked customers (by id, by lowercase email). */
function decide(
  item: Item,
  index: number,
  byId: Map<string, CustomerRow>,
  byEmail: Map<string, CustomerRow>,
  claims: Claims,
): Decision {
  const { id, ...fields } = item;
  const matchPointer = id === undefined ? `/items/${index}/email` : `/items/${index}/id`;
  const duplicate = (pointer: string) =>
    failed(invalidField(pointer, 'duplicate_in_batch', customerMessages.message('customer.duplicate_in_batch')));
  if (id === undefined && fields.email === undefined) {
    return failed(invalidField(`/items/${index}/email`, 'required', message('field.required')));
  }
  const row = id === undefined ? byEmail.get((fields.email ?? '').toLowerCase()) : byId.get(id);
  if (id !== undefined && !row) {
    return failed(
      invalidField(`/items/${index}/id`, 'invalid_reference', customerMessages.message('customer.unknown_reference')),
    );
  }
  const changes = columnsOf(fields);
  const columns = { ...storedColumns(row, fields.email ?? ''), ...changes };
  const email = columns.email.toLowerCase();
  if (row && claims.customers.has(row.id)) return duplicate(matchPointer);
  if (claims.emails.has(email)) return duplicate(`/items/${index}/email`);
  const owner = byEmail.get(email);
  if (row && owner && owner.id !== row.id) {
    return failed(
      invalidField(`/items/${index}/email`, 'already_exists', customerMessages.message('customer.email_taken')),
    );
  }
  if (row) claims.customers.add(row.id);
  claims.emails.add(email);
  if (!row) return { kind: 'insert', columns: { ...columns, id: newId() } };
  const differs = (Object.keys(changes) as (keyof typeof changes)[]).some((key) => changes[key] !== row[key]);
  return differs ? { kind: 'update', columns: { ...columns, id: row.id } } : { kind: 'unchanged', row };
}

/** The invalid inputs of every failed item, as the one problem of an all-or-nothing batch. */
function problemOfAll(problems: ApiProblem[]): ApiProblem {
  const found = new InvalidInputs();
  for (const problem of problems) {
    for (const error of problem.extras.errors ?? []) found.add(error.code, 1, () => error);
  }
  return found.problem();
}

/**
 * Writes the batch in the caller's transaction and answers one outcome per item, in order. `atomic`: one failed
 * item throws the problem of all of them before anything is written. Events are recorded in item order.
 */
export async function runBatch(
  tx: Tx,
  companyId: string,
  items: (Item | ApiProblem)[],
  atomic: boolean,
): Promise<ItemOutcome[]> {
  const outcomes: (ItemOutcome | undefined)[] = items.map((item) =>
    item instanceof ApiProblem ? { outcome: 'failed', problem: item } : undefined,
  );
  const claims: Claims = { customers: new Set(), emails: new Set() };
  for (let round = 0; outcomes.includes(undefined); round++) {
    if (round === MAX_ROUNDS) throw new Error('customer batch: concurrent creations kept winning');
    const pending = items.flatMap((item, index) =>
      item instanceof ApiProblem || outcomes[index] ? [] : [{ item, index }],
    );
    const ids = pending.flatMap(({ item }) => (item.id === undefined ? [] : [item.id]));
    const emails = pending.flatMap(({ item }) => (item.email === undefined ? [] : [item.email.toLowerCase()]));
    const rows = await q.lockCustomersOfBatch(tx, companyId, ids, [...new Set(emails)]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const byEmail = new Map(rows.map((row) => [row.emailLower, row]));
    const decisions = pending.map(({ item, index }) => ({
      index,
      decision: decide(item, index, byId, byEmail, claims),
    }));
    for (const { index, decision } of decisions) {
      if (decision.kind === 'failed') outcomes[index] = { outcome: 'failed', problem: decision.problem };
      if (decision.kind === 'unchanged') outcomes[index] = { outcome: 'unchanged', row: decision.row };
    }
    if (atomic && outcomes.some((o) => o?.outcome === 'failed')) {
      throw problemOfAll(outcomes.flatMap((o) => (o?.outcome === 'failed' ? [o.problem] : [])));
    }
    const toWrite = (kind: 'insert' | 'update') =>
      decisions.flatMap(({ index, decision }) =>
        decision.kind === kind ? [{ index, columns: decision.columns }] : [],
      );
    // In email order: two batches inserting the same new emails wait for each other in one order, never in a cycle.
    const inserts = toWrite('insert').sort((a, b) =>
      compare(a.columns.email.toLowerCase(), b.columns.email.toLowerCase()),
    );
    const updates = toWrite('update');
    const [inserted, updated] = await Promise.all([
      q.insertCustomersUnlessEmailTaken(
        tx,
        companyId,
        inserts.map((w) => w.columns),
      ),
      q.updateCustomersOfBatch(
        tx,
        companyId,
        updates.map((w) => w.columns),
      ),
    ]);
    const written = new Map([...inserted, ...updated].map((row) => [row.id, row]));
    for (const { index, columns } of updates) {
      const row = written.get(columns.id);
      // Locked by this transaction: the update cannot miss it.
      if (!row) throw new Error('customer batch: a locked customer was not updated');
      outcomes[index] = { outcome: 'updated', row };
    }
    for (const { index, columns } of inserts) {
      const row = written.get(columns.id);
      if (row) outcomes[index] = { outcome: 'created', row };
      // Created meanwhile by another transaction: matched again next round, its email no longer claimed here.
      else claims.emails.delete(columns.email.toLowerCase());
    }
  }
  const done = outcomes.flatMap((o) => (o ? [o] : []));
  await recordEvents(tx, companyId, eventsOf(done));
  return done;
}

/** The events of a batch's outcomes, in item order. */
function eventsOf(outcomes: ItemOutcome[]): EventRecord[] {
  return outcomes.flatMap((o) =>
    o.outcome === 'created' || o.outcome === 'updated'
      ? [
          {
            type: o.outcome === 'created' ? ('customer.created' as const) : ('customer.updated' as const),
            scope: 'customers.read',
            customerId: o.row.id,
            object: serializeCustomer(o.row),
          },
        ]
      : [],
  );
}
