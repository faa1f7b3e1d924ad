// `filter[custom_fields.<key>]=value` on the lists of customers and deals: exact (any of a comma list for the selects)
// through the GIN index of the values, and `[gte]`/`[lte]` ranges (their candidates from custom_field_values' ordered indexes) for numbers, money and dates. The parameter's
// values arrive as text; each is read as its field's type says, and refused (422 naming the parameter) when the
// field is unknown, the value cannot be one of the field, or a range is asked of a type without order.
import { type AnyColumn, getTableName, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Context } from 'hono';
import type { Tenant } from '../../db/tenant.ts';
import { type FieldDefinition, valueProblem } from '../../domain/custom-fields.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { customFieldMessages } from './messages.ts';
import type { FieldResource } from './queries.ts';
import { companyFields } from './schemas.ts';
import { valueErrors } from './values.ts';

const dialect = new PgDialect();
/** Up to this many matches a filter reads its records by id (as metadata's filter: src/http/metadata.ts). */
const MAX_CANDIDATES = 500;
const RANGES: ReadonlySet<string> = new Set(['number', 'money', 'date']);

/** A filter's text as a value of the field (a number for number, true/false for boolean), or undefined. */
function parsed(field: FieldDefinition, text: string): unknown {
  if (field.type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
  if (field.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  return text;
}

/**
 * The condition of the filter on `table`'s `custom_fields` (undefined without one), after asking the index for the
 * candidates of its exact pairs; 422 naming the parameter for what cannot match any field's value.
 */
export async function customFieldsCondition(
  c: Context<AppEnv>,
  resource: FieldResource,
  table: PgTable & { id: AnyColumn; customFields: AnyColumn },
  filter: Readonly<Record<string, string>> | undefined,
): Promise<SQL | undefined> {
  if (filter === undefined || Object.keys(filter).length === 0) return undefined;
  const tenant = c.get('tenant');
  const fields = (await companyFields(c.get('deps').sql, tenant))[resource];
  const errors: FieldError[] = [];
  const pairs: Record<string, unknown> = {};
  const conditions: SQL[] = [];
  const ranges = new Map<string, Range>();
  for (const [name, text] of Object.entries(filter)) {
    const [, key = '', op] = /^([^[]+)(?:\[(gte|lte)\])?$/.exec(name) ?? [];
    const parameter = `filter[custom_fields.${key}]${op === undefined ? '' : `[${op}]`}`;
    const field = fields.get(key);
    const refuse = (problem: FieldError) => errors.push({ ...problem, pointer: null, parameter });
    if (!field) {
      refuse({
        pointer: null,
        parameter,
        code: 'unknown_parameter',
        detail: customFieldMessages.message('custom_field.value_unknown'),
      });
      continue;
    }
    if (op !== undefined && !RANGES.has(field.type)) {
      refuse({
        pointer: null,
        parameter,
        code: 'invalid_combination',
        detail: customFieldMessages.message('custom_field.filter_not_range'),
      });
      continue;
    }
    const isSelect = field.type === 'single_select' || field.type === 'multi_select';
    const texts = isSelect ? text.split(',') : [text];
    const values = texts.map((t) => parsed(field, t));
    // A multi-select's single key is checked as a list of one.
    const bad = values
      .map((v) => valueProblem(field, field.type === 'multi_select' ? [v] : v))
      .find((p) => p !== undefined);
    if (bad || values.some((v) => v === undefined)) {
      const [error] = valueErrors(
        bad ? [bad] : [{ key, code: 'invalid_format', kind: field.type, options: [], decimals: field.decimals ?? 0 }],
        '',
      );
      if (error) refuse(error);
      continue;
    }
    const column = table.customFields;
    if (op !== undefined) {
      const operator = op === 'gte' ? sql`>=` : sql`<=`;
      const stored =
        field.type === 'date' ? sql`(${column} ->> ${key}::text)` : sql`(${column} ->> ${key}::text)::numeric`;
      const bound = field.type === 'date' ? sql`${text}::text` : sql`${text}::numeric`;
      conditions.push(sql`(${column} ? ${key}::text and ${stored} ${operator} ${bound})`);
      const range = ranges.get(key) ?? { date: field.type === 'date' };
      if (op === 'gte') range.gte = text;
      else range.lte = text;
      ranges.set(key, range);
      continue;
    }
    const contained = (v: unknown) => JSON.stringify({ [key]: field.type === 'multi_select' ? [v] : v });
    if (values.length === 1) pairs[key] = field.type === 'multi_select' ? [values[0]] : values[0];
    else
      conditions.push(
        sql`(${sql.join(
          values.map((v) => sql`${column} @> ${contained(v)}::text::jsonb`),
          sql` or `,
        )})`,
      );
  }
  if (errors.length > 0) throw invalidFields(errors);
  if (Object.keys(pairs).length > 0) conditions.push(await containment(tenant, table, pairs));
  if (ranges.size > 0) conditions.push(...(await rangeCandidates(tenant, resource, table, ranges)));
  return conditions.length === 0 ? undefined : sql.join(conditions, sql` and `);
}

/** A uuid array read as text (`{…}`) and how many ids it holds. */
function idArray(value: unknown): { ids: string; count: number } {
  const ids = typeof value === 'string' ? value : '{}';
  return { ids, count: ids === '{}' ? 0 : ids.split(',').length };
}

/**
 * The exact pairs as jsonb containment. Containment is not leakproof, so below the row-level policy the index would
 * not serve it: app_custom_field_ids (drizzle/0046) proposes the tenant's candidates through the index, and the page
 * reads them by id with the condition checked again. Past MAX_CANDIDATES matches the page's ordered scan finds them
 * sooner (a common value fills a page within a few rows).
 */
async function containment(
  tenant: Tenant,
  table: PgTable & { id: AnyColumn; customFields: AnyColumn },
  pairs: Record<string, unknown>,
): Promise<SQL> {
  const json = JSON.stringify(pairs);
  const contains = sql`${table.customFields} @> ${json}::text::jsonb`;
  const candidates = sql`select array(select app_custom_field_ids(${getTableName(table)}, ${json}::text::jsonb,
                                                                  ${MAX_CANDIDATES + 1}))::text as ids`;
  const [row] = await tenant.readRows(dialect.sqlToQuery(candidates));
  const { ids, count } = idArray(row?.ids);
  if (count > MAX_CANDIDATES) return contains;
  return sql`(${table.id} = any(${ids}::uuid[]) and ${contains})`;
}

/** A key's range bounds as the parameters gave them; `date` for a date field, else a number or money. */
type Range = { date: boolean; gte?: string; lte?: string };

/**
 * Candidates of the ranges: per key, the ids of the records whose value lies in its bounds, from custom_field_values'
 * btree through app_custom_field_range_ids (drizzle/0051: numeric comparisons are not leakproof, so below the policy
 * the index would not serve them), all keys in one statement. A key with at most MAX_CANDIDATES matches restricts the
 * page to them (its range stays checked on the record, so the results are those of the check alone); a common range
 * fills the page from the ordered scan sooner.
 */
async function rangeCandidates(
  tenant: Tenant,
  resource: FieldResource,
  table: PgTable & { id: AnyColumn },
  ranges: ReadonlyMap<string, Range>,
): Promise<SQL[]> {
  const lookups = [...ranges].map(([key, { date, gte = null, lte = null }], i) => {
    const bounds = date
      ? sql`null, null, ${gte}::date, ${lte}::date`
      : sql`${gte}::numeric, ${lte}::numeric, null, null`;
    return sql`array(select app_custom_field_range_ids(${resource}::text, ${key}::text, ${bounds},
                                                       ${MAX_CANDIDATES + 1}))::text as ${sql.identifier(`k${i}`)}`;
  });
  const [row] = await tenant.readRows(dialect.sqlToQuery(sql`select ${sql.join(lookups, sql`, `)}`));
  const restrictions: SQL[] = [];
  for (let i = 0; i < lookups.length; i++) {
    const { ids, count } = idArray(row?.[`k${i}`]);
    if (count <= MAX_CANDIDATES) restrictions.push(sql`${table.id} = any(${ids}::uuid[])`);
  }
  return restrictions;
}
