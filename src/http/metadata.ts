// `metadata` on every main record (issue 51): an integrator's own string values under its own keys. The contract's
// MetadataInput is checked by the generated routes (keys, values, at most 50 keys sent: 422 naming the key); this
// module holds what every resource does with it, so that each does the same: what a new record stores, how an
// update merges (as SQL, so a PATCH can send its write with its lock and still merge into the latest row), how a
// batch item merges into its locked row, the `metadata[key]=value` filter of lists, and the answer to a merge
// that would leave more than 50 keys (the table's check constraint, drizzle/0045_metadata.sql).
// JSON goes to PostgreSQL as text cast to jsonb (`::text::jsonb`): a parameter the server types as jsonb is passed
// through JSON.stringify by postgres.js, so a prepared statement would receive the JSON text as one JSON string.
import { type AnyColumn, getTableName, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import { violatedConstraint } from '../db/errors.ts';
import type { Metadata } from '../db/schema/columns.ts';
import type { Tenant, Tx } from '../db/tenant.ts';
import { message } from './messages.ts';
import type { FieldError } from './problems.ts';
import { invalidFields } from './validation.ts';

export type { Metadata };

/** Builds the candidates' statement for Tenant.readRows (a statement's text and parameters). */
const dialect = new PgDialect();

/** What a request sends: a key with a string sets it, with `""` or `null` removes it; `null` for all removes all. */
export type MetadataInput = Readonly<Record<string, string | null>> | null;

/** The most keys a record keeps (Stripe's limit; the contract's maxProperties and app_metadata_valid's). */
export const MAX_METADATA_KEYS = 50;

/** The keys an input sets, in its order, and those it removes (`""` or `null`). */
function split(input: Exclude<MetadataInput, null>) {
  const sets: Metadata = {};
  const removes: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === '') removes.push(key);
    else sets[key] = value;
  }
  return { sets, removes };
}

/** A new record's metadata: the keys sent with a string (`""`, `null` and a `null` object store nothing). */
export function newMetadata(input: MetadataInput | undefined): Metadata {
  return input ? split(input).sets : {};
}

/** `stored` with an update's input merged into it, key by key (a batch item, whose row is read and locked). */
export function mergedMetadata(stored: Metadata, input: MetadataInput | undefined): Metadata {
  if (input === undefined) return stored;
  if (input === null) return {};
  const { sets, removes } = split(input);
  const merged: Metadata = { ...stored, ...sets };
  for (const key of removes) delete merged[key];
  return merged;
}

/**
 * An update's new value of `column`, computed from the stored one by the UPDATE itself (metadataMerge). Undefined
 * when the input changes nothing (left out, or `{}`), so that it is not sent as a change at all.
 */
export function metadataUpdate(column: AnyColumn, input: MetadataInput | undefined): SQL | undefined {
  const patch = metadataPatch(input);
  return patch === undefined ? undefined : metadataMerge(column, patch);
}

/**
 * What an update merges (metadataMerge's value): the keys it sets and, as null, those it removes, as JSON text; null
 * to clear every key; undefined when it changes nothing.
 */
export function metadataPatch(input: MetadataInput | undefined): string | null | undefined {
  if (input === undefined) return undefined;
  if (input === null) return null;
  if (Object.keys(input).length === 0) return undefined;
  return JSON.stringify(Object.fromEntries(Object.entries(input).map(([key, value]) => [key, value || null])));
}

/**
 * `column` with a patch (metadataPatch's text, or a statement's placeholder for it) merged in: `||` sets the keys,
 * those with null are then stripped (stored values are never null); a null patch makes `||` null, and so `{}`.
 */
export function metadataMerge(column: AnyColumn, patch: string | null | Placeholder): SQL {
  return sql`coalesce(jsonb_strip_nulls(${column} || ${patch}::text::jsonb), '{}'::jsonb)`;
}

/** An update's metadata column to spread into its columns: none when the input changes nothing. */
export function metadataChange(column: AnyColumn, input: MetadataInput | undefined): { metadata?: SQL } {
  const value = metadataUpdate(column, input);
  return value === undefined ? {} : { metadata: value };
}

/** Whether two metadata objects hold the same keys and values (in any order). */
export function sameMetadata(a: Metadata, b: Metadata): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

const tooManyKeys = (pointer: string): FieldError => ({
  pointer,
  parameter: null,
  code: 'too_big',
  detail: message('field.too_many_keys', { max: String(MAX_METADATA_KEYS) }),
});

/** A batch item's merged metadata that would hold too many keys: its problem at `/items/<index>/metadata`. */
export function metadataErrors(merged: Metadata, prefix: string): FieldError[] {
  return Object.keys(merged).length > MAX_METADATA_KEYS ? [tooManyKeys(`${prefix}/metadata`)] : [];
}

/**
 * An update decided on the locked row (notes, tasks, …): the merged metadata when it differs from the stored, none
 * when the input changes nothing; 422 at `/metadata` when the merge would keep more than 50 keys.
 */
export function changedMetadata(stored: Metadata, input: MetadataInput | undefined): { metadata?: Metadata } {
  const merged = mergedMetadata(stored, input);
  const errors = metadataErrors(merged, '');
  if (errors.length > 0) throw invalidFields(errors);
  return sameMetadata(stored, merged) ? {} : { metadata: merged };
}

/**
 * For a write's `.catch`: a merge that left more keys than a record keeps broke the table's `<table>_metadata` check
 * (every other limit is checked on the input before): 422 at `/metadata`. Any other error is thrown as it is.
 */
export const metadataLimit = (error: unknown): never => {
  throw violatedConstraint(error)?.endsWith('_metadata') ? invalidFields([tooManyKeys('/metadata')]) : error;
};

/** Up to this many matches a filter reads its records by id; past it, the page's ordered scan finds them sooner. */
const MAX_CANDIDATES = 500;

/**
 * The `metadata[key]=value` filter of a list: records whose metadata contains every pair (jsonb containment).
 * Containment is not leakproof, so below the row-level policy PostgreSQL would not use the GIN index for it:
 * app_metadata_ids (drizzle/0045_metadata.sql) first proposes the tenant's matching ids through the index (one
 * statement), and the page then reads those by id, with the condition checked again under the policy. A value with
 * more than MAX_CANDIDATES matches is common: the page's ordered scan evaluates the condition on its rows and fills
 * the page within a few of them. Every path gives the same rows. Undefined without a filter.
 */
export async function metadataCondition(
  reader: Tenant | Tx,
  table: PgTable & { id: AnyColumn; metadata: AnyColumn },
  filter: Readonly<Record<string, string>> | undefined,
): Promise<SQL | undefined> {
  if (filter === undefined || Object.keys(filter).length === 0) return undefined;
  const pairs = JSON.stringify(filter);
  const contains = sql`${table.metadata} @> ${pairs}::text::jsonb`;
  const candidates = sql`select array(select app_metadata_ids(${getTableName(table)}, ${pairs}::text::jsonb,
                                                              ${MAX_CANDIDATES + 1}))::text as ids`;
  const [row] =
    'readRows' in reader ? await reader.readRows(dialect.sqlToQuery(candidates)) : await reader.execute(candidates);
  const ids = typeof row?.ids === 'string' ? row.ids : '{}';
  // The array's text: `{}`, or its ids separated by commas (one comma fewer than ids).
  const count = ids === '{}' ? 0 : ids.split(',').length;
  if (count > MAX_CANDIDATES) return contains;
  return sql`(${table.id} = any(${ids}::uuid[]) and ${contains})`;
}

/** The filter of a table without the index (webhook endpoints: a handful per company), checked on the rows. */
export function metadataFilterOnRows(
  column: AnyColumn,
  filter: Readonly<Record<string, string>> | undefined,
): SQL | undefined {
  if (filter === undefined || Object.keys(filter).length === 0) return undefined;
  return sql`${column} @> ${JSON.stringify(filter)}::text::jsonb`;
}

/**
 * Whether an update's body sends `metadata` (or the resource's other `anyState` fields) and nothing else. Quotes,
 * invoices and work orders accept such a body in every state: the metadata is the integrator's, not part of the
 * document the customer sees (an invoice's `reminders_enabled` neither).
 */
export function onlyMetadata(body: object, anyState: readonly string[] = []): boolean {
  const keys = Object.keys(body);
  return keys.length > 0 && keys.every((key) => key === 'metadata' || anyState.includes(key));
}
