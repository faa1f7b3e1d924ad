import type { Context } from 'hono';
import type { z } from 'zod';
import type { CustomFieldCreateSchema, CustomFieldUpdateSchema } from '../../../generated/routes.ts';
import { violatedConstraint } from '../../db/errors.ts';
import {
  type CustomFieldLabels,
  type CustomFieldOption,
  type CustomFieldType,
  convertValue,
  MAX_FIELDS_PER_RESOURCE,
  sameValue,
} from '../../domain/custom-fields.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { checkIfMatch, etagOf, expectedVersion } from '../../http/etag.ts';
import type { Handlers } from '../../http/handler.ts';
import { runCreation } from '../../http/idempotency.ts';
import type { Message } from '../../http/message-catalogue.ts';
import { ApiProblem, type FieldError } from '../../http/problems.ts';
import { invalidField, invalidFields } from '../../http/validation.ts';
import { customFieldMessages } from './messages.ts';
import * as q from './queries.ts';
import { forgetCompanyFields } from './schemas.ts';
import { type CustomFieldRow, serializeCustomField } from './serialize.ts';

type CreateBody = z.output<typeof CustomFieldCreateSchema>;
type UpdateBody = z.output<typeof CustomFieldUpdateSchema>;
type OptionsInput = NonNullable<CreateBody['options']>;

const notFound = () => new ApiProblem('not_found', customFieldMessages.message('custom_field.not_found'));

const SELECTS: ReadonlySet<CustomFieldType> = new Set(['single_select', 'multi_select']);

/** Labels as stored: only the languages that have one. */
const labelsOf = (input: CustomFieldLabels): CustomFieldLabels =>
  Object.fromEntries(Object.entries(input).filter(([, label]) => typeof label === 'string'));

const hasLabel = (labels: CustomFieldLabels) => Object.keys(labelsOf(labels)).length > 0;

/** The options' problems (a repeated key, an option without a label) and the options as stored. */
function optionsOf(input: OptionsInput): { options: CustomFieldOption[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  input.forEach((option, i) => {
    if (seen.has(option.key)) {
      errors.push({
        pointer: `/options/${i}/key`,
        parameter: null,
        code: 'already_exists',
        detail: customFieldMessages.message('custom_field.option_repeated'),
      });
    }
    seen.add(option.key);
    if (!hasLabel(option.labels)) {
      errors.push({
        pointer: `/options/${i}/labels`,
        parameter: null,
        code: 'required',
        detail: customFieldMessages.message('custom_field.label_needed'),
      });
    }
  });
  return { options: input.map((o) => ({ key: o.key, labels: labelsOf(o.labels) })), errors };
}

/**
 * The type, decimals and options a field has after a request: `decimals` only for `number` (0 unless sent or kept),
 * `options` only for the selects, and then needed. 422 naming the property otherwise.
 */
function shapeOf(
  type: CustomFieldType,
  sent: { decimals?: number; options?: OptionsInput },
  kept: { decimals: number | null; options: CustomFieldOption[] | null },
): { decimals: number | null; options: CustomFieldOption[] | null } {
  const errors: FieldError[] = [];
  const problem = (pointer: string, code: string, detail: Message) =>
    errors.push({ pointer, parameter: null, code, detail });
  const { message } = customFieldMessages;
  if (type !== 'number' && sent.decimals !== undefined) {
    problem('/decimals', 'invalid_combination', message('custom_field.decimals_not_allowed'));
  }
  let options: CustomFieldOption[] | null = null;
  if (SELECTS.has(type)) {
    if (sent.options !== undefined) {
      const checked = optionsOf(sent.options);
      errors.push(...checked.errors);
      options = checked.options;
    } else if (kept.options !== null) options = kept.options;
    else problem('/options', 'required', message('custom_field.options_needed'));
  } else if (sent.options !== undefined) {
    problem('/options', 'invalid_combination', message('custom_field.options_not_allowed'));
  }
  if (errors.length > 0) throw invalidFields(errors);
  const decimals = type === 'number' ? (sent.decimals ?? kept.decimals ?? 0) : null;
  return { decimals, options };
}

/** A write that broke the unique key of (company, resource, key): 422 at /key. */
const keyTaken = (error: unknown): never => {
  throw violatedConstraint(error) === 'custom_fields_resource_key'
    ? invalidField('/key', 'already_exists', customFieldMessages.message('custom_field.key_taken'))
    : error;
};

const serializer = (c: Context<AppEnv>) => {
  const language = c.get('language');
  const companyLanguage = c.get('auth').key.company.language;
  return (row: CustomFieldRow) => serializeCustomField(row, language, companyLanguage);
};

/**
 * The stored values converted to the field's new shape (type, decimals, options), those that change by record id;
 * 409 when one does not convert. Dropping an option that records hold is named as such.
 */
async function convertStoredValues(
  tx: Parameters<typeof q.lockValuesOf>[0],
  current: CustomFieldRow,
  next: CustomFieldRow,
) {
  const stored = await q.lockValuesOf(tx, current.companyId, current);
  const changed = new Map<string, unknown>();
  const failed: unknown[] = [];
  for (const [id, value] of stored) {
    const converted = convertValue(next, value);
    if (converted === undefined) failed.push(value);
    else if (!sameValue(converted.value, value)) changed.set(id, converted.value);
  }
  if (failed.length > 0) {
    if (next.type === current.type && SELECTS.has(next.type)) {
      const kept = new Set((next.options ?? []).map((o) => o.key));
      const missing = [...new Set(failed.flatMap((v) => (Array.isArray(v) ? v : [v])))].filter(
        (v): v is string => typeof v === 'string' && !kept.has(v),
      );
      throw new ApiProblem(
        'conflict',
        customFieldMessages.message('custom_field.option_in_use', { options: missing.join(', ') }),
      );
    }
    throw new ApiProblem(
      'conflict',
      customFieldMessages.message('custom_field.values_do_not_convert', { count: failed.length }),
    );
  }
  await q.writeValuesOf(tx, current.companyId, current, changed);
}

/** The columns a PATCH changes (none: nothing to change). */
function changesOf(current: CustomFieldRow, body: UpdateBody): q.FieldChanges {
  const changes: q.FieldChanges = {};
  if (body.labels !== undefined) {
    const labels = { ...current.labels, ...labelsOf(body.labels) };
    if (!sameValue(labels, current.labels)) changes.labels = labels;
  }
  if (body.required !== undefined && body.required !== current.required) changes.required = body.required;
  if (body.position !== undefined && body.position !== current.position) changes.position = body.position;
  const type = body.type ?? current.type;
  const kept =
    type === current.type
      ? { decimals: current.decimals, options: current.options }
      : { decimals: null, options: SELECTS.has(current.type) && SELECTS.has(type) ? current.options : null };
  const shape = shapeOf(type, { decimals: body.decimals, options: body.options }, kept);
  if (type !== current.type) changes.type = type;
  if (shape.decimals !== current.decimals) changes.decimals = shape.decimals;
  if (!sameValue(shape.options, current.options)) changes.options = shape.options;
  return changes;
}

export const handlers = {
  listCustomFields: async (c) => {
    const query = c.req.valid('query');
    const page = { limit: query.limit, cursor: query.cursor, sort: 'position' };
    const { data, meta } = await q.listFields(c.get('tenant'), page, query['filter[resource]']);
    return c.json({ data: data.map(serializer(c)), meta }, 200, { 'Content-Language': c.get('language') });
  },

  getCustomField: async (c) => {
    const { field } = c.req.valid('param');
    const row = await q.readField(c.get('tenant'), field);
    if (!row) throw notFound();
    return c.json({ data: serializer(c)(row) }, 200, {
      ETag: etagOf(row.version),
      'Content-Language': c.get('language'),
    });
  },

  createCustomField: async (c) => {
    const body = c.req.valid('json');
    const { companyId } = c.get('tenant');
    if (!hasLabel(body.labels)) {
      throw invalidField('/labels', 'required', customFieldMessages.message('custom_field.label_needed'));
    }
    const shape = shapeOf(body.type, body, { decimals: null, options: null });
    const serialize = serializer(c);
    const created = await runCreation(c, async (tx) => {
      const { before, row } = await q
        .insertFieldCounted(tx, companyId, {
          resource: body.resource,
          key: body.key,
          type: body.type,
          labels: labelsOf(body.labels),
          ...shape,
          required: body.required,
          position: body.position,
        })
        .catch(keyTaken);
      // Past the limit, the insert is undone with the transaction (or the idempotent work's savepoint).
      if (before >= MAX_FIELDS_PER_RESOURCE) {
        throw invalidField(
          '/resource',
          'too_big',
          customFieldMessages.message('custom_field.too_many', { max: MAX_FIELDS_PER_RESOURCE }),
        );
      }
      return {
        status: 201 as const,
        body: { data: serialize(row) },
        headers: { ETag: etagOf(row.version), 'Content-Language': c.get('language') },
      };
    });
    forgetCompanyFields(c.get('deps').sql, companyId);
    return c.json(created.body, created.status, created.headers);
  },

  updateCustomField: async (c) => {
    const { field } = c.req.valid('param');
    const body = c.req.valid('json');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    if (body.labels !== undefined && !hasLabel(body.labels)) {
      throw invalidField('/labels', 'required', customFieldMessages.message('custom_field.label_needed'));
    }
    const row = await c.get('tenant').transaction(async (tx) => {
      const current = await q.lockField(tx, companyId, field);
      checkIfMatch(current, expected, notFound);
      const changes = changesOf(current, body);
      if (Object.keys(changes).length === 0) return current;
      if (changes.type !== undefined || changes.decimals !== undefined || changes.options !== undefined) {
        await convertStoredValues(tx, current, { ...current, ...changes });
      }
      const updated = await q.updateField(tx, companyId, field, changes);
      if (!updated) throw notFound();
      return updated;
    });
    forgetCompanyFields(c.get('deps').sql, companyId);
    return c.json({ data: serializer(c)(row) }, 200, {
      ETag: etagOf(row.version),
      'Content-Language': c.get('language'),
    });
  },

  deleteCustomField: async (c) => {
    const { field } = c.req.valid('param');
    const expected = expectedVersion(c);
    const { companyId } = c.get('tenant');
    await c.get('tenant').transaction(async (tx) => {
      const current = await q.lockField(tx, companyId, field);
      checkIfMatch(current, expected, notFound);
      await q.deleteField(tx, companyId, current);
    });
    forgetCompanyFields(c.get('deps').sql, companyId);
    return c.json({ data: { object: 'custom_field', id: field, deleted: true as const } }, 200);
  },
} satisfies Partial<Handlers>;
