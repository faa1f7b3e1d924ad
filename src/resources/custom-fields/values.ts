// What customers and deals do with `custom_fields`: the request's values checked against the company's fields of
// the resource (422 at `/custom_fields/<key>` in the request's language, naming a select's options), the patch an
// update merges in SQL (as metadata's: src/http/metadata.ts metadataMerge), and a batch item's merge into its row.
import { and, asc, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { CustomFieldValue, CustomFieldValues } from '../../db/schema/columns.ts';
import { customFields } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import { checkValues, type FieldDefinition, mergeValues, type ValueProblem } from '../../domain/custom-fields.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { Message } from '../../http/message-catalogue.ts';
import type { FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { customFieldMessages } from './messages.ts';
import type { FieldResource } from './queries.ts';
import { companyFields } from './schemas.ts';

export type { CustomFieldValues };

/** What a request sends: values by key, `null` to remove one (on an update). */
export type ValuesInput = Readonly<Record<string, CustomFieldValue | null>>;

/** The text of a refused value. */
function problemMessage(problem: ValueProblem): Message {
  const { message } = customFieldMessages;
  switch (problem.kind) {
    case 'unknown':
      return message('custom_field.value_unknown');
    case 'required':
      return message('custom_field.value_required');
    case 'required_kept':
      return message('custom_field.value_required_kept');
    case 'number':
      return message('custom_field.value_number', { decimals: problem.decimals });
    case 'single_select':
      return message('custom_field.value_single_select', { options: problem.options.join(', ') });
    case 'multi_select':
      return message('custom_field.value_multi_select', { options: problem.options.join(', ') });
    default:
      return message(`custom_field.value_${problem.kind}`);
  }
}

/** The problems as 422 field errors at `<prefix>/custom_fields/<key>`. */
export function valueErrors(problems: ValueProblem[], prefix: string): FieldError[] {
  return problems.map((problem) => ({
    pointer: `${prefix}/custom_fields/${problem.key}`,
    parameter: null,
    code: problem.code,
    detail: problemMessage(problem),
  }));
}

/** Checks `input` against `fields`; 422 naming each refused key. The values to write (`null`: remove). */
function checked(
  fields: ReadonlyMap<string, FieldDefinition>,
  input: ValuesInput | undefined,
  creating: boolean,
): Record<string, CustomFieldValue | null> {
  const { values, problems } = checkValues(fields, input, creating);
  if (problems.length > 0) throw invalidFields(valueErrors(problems, ''));
  return values;
}

/** A new record's values (with every required field), checked against the company's fields (cached). */
export async function newValues(
  c: Context<AppEnv>,
  resource: FieldResource,
  input: ValuesInput | undefined,
): Promise<CustomFieldValues> {
  const fields = (await companyFields(c.get('deps').sql, c.get('tenant')))[resource];
  if (fields.size === 0 && (input === undefined || Object.keys(input).length === 0)) return {};
  const values: CustomFieldValues = {};
  for (const [key, value] of Object.entries(checked(fields, input, true))) if (value !== null) values[key] = value;
  return values;
}

/**
 * An update's patch (for metadataMerge over the `custom_fields` column): the keys it sets and, as null, those it
 * removes, as JSON text; undefined when it changes nothing (left out, or `{}`).
 */
export async function valuesPatch(
  c: Context<AppEnv>,
  resource: FieldResource,
  input: ValuesInput | undefined,
): Promise<string | undefined> {
  if (input === undefined || Object.keys(input).length === 0) return undefined;
  const fields = (await companyFields(c.get('deps').sql, c.get('tenant')))[resource];
  return JSON.stringify(checked(fields, input, false));
}

/**
 * The company's fields of the resource, read in the caller's transaction (a batch: once per round) and locked FOR
 * SHARE until it ends: a change of a field's type or options (which locks its row FOR UPDATE, then converts the
 * stored values) waits for the write, or the write for it and then reads the new definition. Without the lock a
 * record written meanwhile could keep a value of the old type.
 */
export async function fieldsIn(
  tx: Tx,
  companyId: string,
  resource: FieldResource,
): Promise<ReadonlyMap<string, FieldDefinition>> {
  const rows = await tx
    .select()
    .from(customFields)
    .where(and(eq(customFields.companyId, companyId), eq(customFields.resource, resource)))
    .orderBy(asc(customFields.position), asc(customFields.id))
    .for('share');
  return new Map(rows.map((row) => [row.key, row]));
}

/**
 * In a write's transaction, when it sends values: its values checked again against the definitions as they are
 * now, locked (fieldsIn). The check before the transaction used the cached definitions, which a concurrent change
 * may have made stale; 422 as there when a value no longer fits.
 */
export async function confirmValues(
  tx: Tx,
  c: Context<AppEnv>,
  resource: FieldResource,
  input: ValuesInput | undefined,
  creating: boolean,
): Promise<void> {
  if (input === undefined || Object.keys(input).length === 0) return;
  checked(await fieldsIn(tx, c.get('tenant').companyId, resource), input, creating);
}

/**
 * A batch item's values merged into its row's (a new record: checked as on creation), or its 422 errors at
 * `/items/<index>/custom_fields/<key>`.
 */
export function batchValues(
  fields: ReadonlyMap<string, FieldDefinition>,
  stored: CustomFieldValues | undefined,
  input: ValuesInput | undefined,
  prefix: string,
): { values: CustomFieldValues; errors: FieldError[] } {
  const creating = stored === undefined;
  const { values, problems } = checkValues(fields, input, creating);
  if (problems.length > 0) return { values: stored ?? {}, errors: valueErrors(problems, prefix) };
  return { values: mergeValues(stored ?? {}, values), errors: [] };
}
