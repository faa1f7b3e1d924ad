// Turns zod validation failures into one 422 problem listing every invalid input, each with a JSON
// Pointer (body) or parameter name (query, header, path).
import type { z } from 'zod';
import { ApiProblem, type FieldError } from './problems.ts';

type Target = 'json' | 'form' | 'query' | 'param' | 'header' | 'cookie' | 'text';

const DETAILS: Record<string, (issue: z.core.$ZodIssue) => string> = {
  required: () => 'This field is required.',
  invalid_type: (i) => `Must be of type ${'expected' in i ? String(i.expected) : 'another type'}.`,
  invalid_format: (i) => `Must be a valid ${'format' in i ? String(i.format) : 'value'}.`,
  invalid_enum: (i) =>
    `Must be one of: ${'values' in i ? (i.values as unknown[]).map((v) => JSON.stringify(v)).join(', ') : ''}.`,
  too_long: (i) => `Must be at most ${'maximum' in i ? String(i.maximum) : ''} characters.`,
  too_short: (i) => `Must be at least ${'minimum' in i ? String(i.minimum) : ''} characters.`,
  too_big: (i) => `Must be at most ${'maximum' in i ? String(i.maximum) : ''}.`,
  too_small: (i) => `Must be at least ${'minimum' in i ? String(i.minimum) : ''}.`,
  unknown_field: () => 'This field is not accepted here.',
  unknown_parameter: () => 'This query parameter is not accepted here.',
};

/** The input at an issue's path: zod 4 issues do not carry the input itself. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function codeOf(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'required' : 'invalid_type';
    case 'too_big':
      return issue.origin === 'string' ? 'too_long' : 'too_big';
    case 'too_small':
      return issue.origin === 'string' ? 'too_short' : 'too_small';
    case 'invalid_format':
      return 'invalid_format';
    case 'invalid_value':
      return 'invalid_enum';
    case 'invalid_union':
      return 'invalid_type';
    default:
      return 'invalid_format';
  }
}

const pointerOf = (path: PropertyKey[]) =>
  `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

export function fieldErrors(error: z.ZodError, target: Target, input: unknown): FieldError[] {
  const inBody = target === 'json' || target === 'form';
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const code = inBody ? 'unknown_field' : 'unknown_parameter';
        out.push({
          pointer: inBody ? pointerOf([...issue.path, key]) : null,
          parameter: inBody ? null : key,
          code,
          detail: DETAILS[code](issue),
        });
      }
      continue;
    }
    const code = codeOf(issue, input);
    out.push({
      pointer: inBody ? pointerOf(issue.path) : null,
      parameter: inBody ? null : String(issue.path[0] ?? ''),
      code,
      detail: (DETAILS[code] ?? DETAILS.invalid_format)(issue),
    });
  }
  return out;
}

export function validationProblem(error: z.ZodError, target: Target, input: unknown): ApiProblem {
  const errors = fieldErrors(error, target, input);
  const onlyUnknown = errors.length > 0 && errors.every((e) => e.code === 'unknown_field');
  const count = `${errors.length} invalid input${errors.length === 1 ? '' : 's'}`;
  return onlyUnknown
    ? new ApiProblem('unknown_field', 'The request body contains a field that this operation does not accept.', {
        errors,
      })
    : new ApiProblem('validation_failed', `The request has ${count}.`, { errors });
}

/** A single invalid input found by a handler (a duplicate email, an id of another company). */
export function invalidField(pointer: string, code: string, detail: string): ApiProblem {
  return new ApiProblem('validation_failed', 'The request has 1 invalid input.', {
    errors: [{ pointer, parameter: null, code, detail }],
  });
}
