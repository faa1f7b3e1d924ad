// Batch upserts (POST /customers/batch, POST /deals/batch): up to 100 items, each matched on its `id` or on a
// natural key (a customer's email, a deal's external_ref), then created, updated, left unchanged or failed on its own,
// or all or nothing (`?atomic=true`). A resource says how to lock, plan, insert, update and record its rows; this
// module holds what every batch shares: reading the body item by item, the rounds against concurrent creations,
// duplicates inside the batch, the atomic refusal, and the answer (replayed by an Idempotency-Key like any creation).
//
// Written set by set: one statement locks the matched rows, one inserts the new ones, one updates the changed ones,
// then the events in item order. A new key that a concurrent transaction created meanwhile is skipped by the insert
// (its unique index waits for that transaction) and matched again in the next round.
import type { Context } from 'hono';
import { z } from 'zod';
import type { Tx } from '../db/tenant.ts';
import { newId } from '../ids.ts';
import type { AppEnv } from './app-env.ts';
import { runCreation } from './idempotency.ts';
import type { Message } from './message-catalogue.ts';
import { message } from './messages.ts';
import { ApiProblem, problemBody } from './problems.ts';
import { InvalidInputs, invalidField } from './validation.ts';

/** An item of the batch with the row it matched (by id or key), before it is planned. */
export type Matched<Item, Row> = { item: Item; index: number; row: Row | undefined };

/**
 * What a resource makes of a matched item: a problem, or the columns the row has after it (and whether they differ),
 * or `again` when a read after the lock saw the item's row created meanwhile (matched in the next round).
 */
export type Plan<Columns> = { problem: ApiProblem } | { columns: Columns; changed: boolean } | { again: true };

export type Written<Row> = { outcome: 'created' | 'updated'; row: Row };

export type BatchOutcome<Row> =
  | { outcome: 'created' | 'updated' | 'unchanged'; row: Row }
  | { outcome: 'failed'; problem: ApiProblem };

/** How one resource takes part in a batch. */
export type Upsert<Item extends { id?: string }, Row extends { id: string }, Columns> = {
  schemas: { batch: z.ZodType<{ items: Item[] }>; item: z.ZodType<Item> };
  /** The natural key: its field in an item, its value as compared (an email in lower case), and a row's. */
  key: { field: string; ofItem: (item: Item) => string | undefined; ofRow: (row: Row) => string | null };
  messages: { duplicate: Message; unknownId: Message; keyTaken: Message };
  /** The rows with these ids or keys, locked until the transaction ends (in id order: batches queue, never deadlock). */
  lock(tx: Tx, companyId: string, ids: string[], keys: string[]): Promise<Row[]>;
  /** Reads what this round's items need (their references) and returns how to plan each of them. */
  planner(
    tx: Tx,
    companyId: string,
    items: Matched<Item, Row>[],
  ): Promise<(matched: Matched<Item, Row>) => Plan<Columns>>;
  /** New rows in one statement; a row whose key (or other unique index) is taken meanwhile is skipped, not returned. */
  insert(tx: Tx, companyId: string, rows: (Columns & { id: string })[]): Promise<Row[]>;
  /** Changed rows (locked) in one statement, each with the next version. */
  update(tx: Tx, companyId: string, rows: (Columns & { id: string })[]): Promise<Row[]>;
  /** The events of the written rows, in item order, in the batch's transaction. */
  record(tx: Tx, companyId: string, written: Written<Row>[]): Promise<void>;
};

/** A batch has at most 100 items; past this many rounds a concurrent writer keeps winning, which cannot be. */
const MAX_ROUNDS = 3;

const ItemsOnly = z.object({ items: z.array(z.unknown()) });

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The items of a batch body, each checked against the item schema on its own: an item's invalid inputs become its
 * problem (pointers into the whole body: `/items/7/email`). What is wrong with the body itself (no `items`, more
 * than 100, an unknown field beside `items`) fails the request as a whole.
 */
export function readBatch<Item>(
  schemas: { batch: z.ZodType<{ items: Item[] }>; item: z.ZodType<Item> },
  body: unknown,
) {
  const whole = schemas.batch.safeParse(body);
  if (whole.success) return whole.data.items;
  const ofItem = new Map<number, z.core.$ZodIssue[]>();
  const ofBody: z.core.$ZodIssue[] = [];
  for (const issue of whole.error.issues) {
    const [first, index] = issue.path;
    if (first === 'items' && typeof index === 'number') ofItem.set(index, [...(ofItem.get(index) ?? []), issue]);
    else ofBody.push(issue);
  }
  if (ofBody.length > 0) throw new InvalidInputs().addIssues(new z.ZodError(ofBody), 'json', body).problem();
  return ItemsOnly.parse(body).items.map((item, index): Item | ApiProblem => {
    const issues = ofItem.get(index);
    if (issues) return new InvalidInputs().addIssues(new z.ZodError(issues), 'json', body).problem();
    return schemas.item.parse(item);
  });
}

/** The invalid inputs of every failed item, as the one problem of an all-or-nothing batch. */
function problemOfAll(problems: ApiProblem[]): ApiProblem {
  const found = new InvalidInputs();
  for (const problem of problems) {
    for (const error of problem.extras.errors ?? []) found.add(error.code, 1, () => error);
  }
  return found.problem();
}

type Decision<Row, Columns> =
  | { kind: 'failed'; problem: ApiProblem }
  | { kind: 'unchanged'; row: Row }
  | { kind: 'again' }
  | { kind: 'insert' | 'update'; columns: Columns & { id: string }; key: string | null };

/** What is claimed by the items decided so far: a later item naming the same row or key fails. */
type Claims = { rows: Set<string>; keys: Set<string>; earlier: EarlierClaims };

/**
 * Rows and keys claimed before this batch by the same run: `customers import` sends a file in batches, and a line
 * naming what an earlier line of the file named fails as a duplicate in a batch does, wherever it stands.
 */
export type EarlierClaims = { rows: ReadonlySet<string>; keys: ReadonlySet<string> };
const NONE: EarlierClaims = { rows: new Set(), keys: new Set() };

/**
 * Writes the batch in the caller's transaction and answers one outcome per item, in order. `atomic`: one failed
 * item throws the problem of all of them before anything is written. Events are recorded in item order.
 */
export async function runBatch<Item extends { id?: string }, Row extends { id: string }, Columns>(
  tx: Tx,
  companyId: string,
  upsert: Upsert<Item, Row, Columns>,
  items: (Item | ApiProblem)[],
  atomic: boolean,
  earlier: EarlierClaims = NONE,
): Promise<BatchOutcome<Row>[]> {
  const { key } = upsert;
  const outcomes: (BatchOutcome<Row> | undefined)[] = items.map((item) =>
    item instanceof ApiProblem ? { outcome: 'failed', problem: item } : undefined,
  );
  const claims: Claims = { rows: new Set(), keys: new Set(), earlier };
  for (let round = 0; outcomes.includes(undefined); round++) {
    if (round === MAX_ROUNDS) throw new Error(`${key.field} batch: concurrent creations kept winning`);
    const pending = items.flatMap((item, index) =>
      item instanceof ApiProblem || outcomes[index] ? [] : [{ item, index }],
    );
    const ids = pending.flatMap(({ item }) => (item.id === undefined ? [] : [item.id]));
    const keys = pending.flatMap(({ item }) => key.ofItem(item) ?? []);
    const rows = await upsert.lock(tx, companyId, [...new Set(ids)], [...new Set(keys)]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const byKey = new Map(
      rows.flatMap((row) => {
        const rowKey = key.ofRow(row);
        return rowKey === null ? [] : [[rowKey, row] as const];
      }),
    );
    const failed = (index: number, problem: ApiProblem) => {
      outcomes[index] = { outcome: 'failed', problem };
    };
    const matched: Matched<Item, Row>[] = [];
    for (const { item, index } of pending) {
      const itemKey = key.ofItem(item);
      if (item.id === undefined && itemKey === undefined) {
        failed(index, invalidField(`/items/${index}/${key.field}`, 'required', message('field.required')));
      } else if (item.id !== undefined && !byId.has(item.id)) {
        failed(index, invalidField(`/items/${index}/id`, 'invalid_reference', upsert.messages.unknownId));
      } else {
        matched.push({ item, index, row: item.id === undefined ? byKey.get(itemKey ?? '') : byId.get(item.id) });
      }
    }
    const plan = await upsert.planner(tx, companyId, matched);
    const decisions = matched.flatMap((m) => {
      const decision = decide(m, upsert, byKey, claims, plan);
      if (decision.kind === 'failed') failed(m.index, decision.problem);
      if (decision.kind === 'unchanged') outcomes[m.index] = { outcome: 'unchanged', row: decision.row };
      return decision.kind === 'insert' || decision.kind === 'update' ? [{ index: m.index, decision }] : [];
    });
    if (atomic && outcomes.some((o) => o?.outcome === 'failed')) {
      throw problemOfAll(outcomes.flatMap((o) => (o?.outcome === 'failed' ? [o.problem] : [])));
    }
    const toWrite = (kind: 'insert' | 'update') => decisions.filter(({ decision }) => decision.kind === kind);
    // In key order: two batches inserting the same new keys wait for each other in one order, never in a cycle.
    const inserts = toWrite('insert').sort((a, b) => compare(a.decision.key ?? '', b.decision.key ?? ''));
    const updates = toWrite('update');
    const [inserted, updated] = await Promise.all([
      upsert.insert(
        tx,
        companyId,
        inserts.map((w) => w.decision.columns),
      ),
      upsert.update(
        tx,
        companyId,
        updates.map((w) => w.decision.columns),
      ),
    ]);
    const written = new Map([...inserted, ...updated].map((row) => [row.id, row]));
    for (const { index, decision } of updates) {
      const row = written.get(decision.columns.id);
      // Locked by this transaction: the update cannot miss it.
      if (!row) throw new Error(`${key.field} batch: a locked row was not updated`);
      outcomes[index] = { outcome: 'updated', row };
    }
    for (const { index, decision } of inserts) {
      const row = written.get(decision.columns.id);
      if (row) outcomes[index] = { outcome: 'created', row };
      // Created meanwhile by another transaction: matched again next round, its key no longer claimed here.
      else if (decision.key !== null) claims.keys.delete(decision.key);
    }
  }
  const done = outcomes.flatMap((o) => (o ? [o] : []));
  await upsert.record(
    tx,
    companyId,
    done.flatMap((o) =>
      o.outcome === 'created' || o.outcome === 'updated' ? [{ outcome: o.outcome, row: o.row }] : [],
    ),
  );
  return done;
}

/** The decision for one matched item: duplicates in the batch and keys of other rows first, then the resource's plan. */
function decide<Item extends { id?: string }, Row extends { id: string }, Columns>(
  { item, index, row }: Matched<Item, Row>,
  upsert: Upsert<Item, Row, Columns>,
  byKey: Map<string, Row>,
  claims: Claims,
  plan: (matched: Matched<Item, Row>) => Plan<Columns>,
): Decision<Row, Columns> {
  const { field } = upsert.key;
  const sentKey = upsert.key.ofItem(item);
  const finalKey = sentKey ?? (row ? upsert.key.ofRow(row) : null);
  const matchPointer = item.id === undefined ? `/items/${index}/${field}` : `/items/${index}/id`;
  const fail = (pointer: string, code: string, detail: Message) => ({
    kind: 'failed' as const,
    problem: invalidField(pointer, code, detail),
  });
  if (row && (claims.rows.has(row.id) || claims.earlier.rows.has(row.id)))
    return fail(matchPointer, 'duplicate_in_batch', upsert.messages.duplicate);
  if (finalKey !== null && (claims.keys.has(finalKey) || claims.earlier.keys.has(finalKey))) {
    return fail(`/items/${index}/${field}`, 'duplicate_in_batch', upsert.messages.duplicate);
  }
  const owner = finalKey === null ? undefined : byKey.get(finalKey);
  if (row && owner && owner.id !== row.id) {
    return fail(`/items/${index}/${field}`, 'already_exists', upsert.messages.keyTaken);
  }
  if (row) claims.rows.add(row.id);
  if (finalKey !== null) claims.keys.add(finalKey);
  const planned = plan({ item, index, row });
  if ('problem' in planned) return { kind: 'failed', problem: planned.problem };
  if ('again' in planned) {
    if (finalKey !== null) claims.keys.delete(finalKey);
    return { kind: 'again' };
  }
  if (!row) return { kind: 'insert', columns: { ...planned.columns, id: newId() }, key: finalKey };
  return planned.changed
    ? { kind: 'update', columns: { ...planned.columns, id: row.id }, key: finalKey }
    : { kind: 'unchanged', row };
}

/**
 * The whole operation: the body read item by item (the route does not validate it: x-validated-per-item), the batch
 * run as a creation (an Idempotency-Key replays its answer), and the answer with every item's outcome in order.
 */
export async function answerBatch<
  Item extends { id?: string },
  Row extends { id: string },
  Columns,
  O extends string,
  D,
>(
  c: Context<AppEnv>,
  upsert: Upsert<Item, Row, Columns>,
  answer: { object: O; serialize: (row: Row) => D; atomic: boolean },
) {
  const { atomic } = answer;
  const { companyId } = c.get('tenant');
  const items = readBatch(upsert.schemas, await c.req.json());
  const context = {
    errorsUrl: c.get('errorsUrl'),
    language: c.get('language'),
    requestId: c.get('requestId'),
    instance: new URL(c.req.url).pathname,
  };
  return runCreation(c, async (tx) => {
    const outcomes = await runBatch(tx, companyId, upsert, items, atomic);
    const counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
    for (const { outcome } of outcomes) counts[outcome]++;
    const body = {
      object: answer.object,
      atomic,
      counts,
      items: outcomes.map((o, index) =>
        o.outcome === 'failed'
          ? { index, outcome: o.outcome, problem: problemBody(o.problem, context) }
          : { index, outcome: o.outcome, data: answer.serialize(o.row) },
      ),
    };
    // The problems of failed items are in the request's language (a replay sends them as they were).
    return { status: 200 as const, body, headers: { 'Content-Language': context.language } };
  });
}
