// Turns zod validation failures into one 422 problem listing the invalid inputs (at most MAX_LISTED_ERRORS), each
// with a JSON Pointer (body) or parameter name (query, header, path).
import type { z } from 'zod';
import type { Message } from './message-catalogue.ts';
import { message } from './messages.ts';
import { ApiProblem, type FieldError } from './problems.ts';

type Target = 'json' | 'form' | 'query' | 'param' | 'header' | 'cookie' | 'text';

type FieldCode =
  | 'required'
  | 'invalid_type'
  | 'invalid_format'
  | 'invalid_enum'
  | 'too_long'
  | 'too_short'
  | 'too_big'
  | 'too_small'
  | 'unknown_field'
  | 'unknown_parameter'
  | 'invalid_cursor';

// White space and control characters, which parsers tend to drop silently (a URL parser, a trim).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is named
const SPACES_OR_CONTROLS = /[\s\u0000-\u001F\u007F-\u009F]/g;

/**
 * Whether white space or control characters are all that keeps `value` from its pattern (zod reports the pattern
 * as its RegExp's text, `/…/flags`): then the detail says so rather than showing the pattern.
 */
function onlySpacesOrControlsWrong(value: unknown, pattern: string): boolean {
  const end = pattern.lastIndexOf('/');
  if (typeof value !== 'string' || !pattern.startsWith('/') || end < 1) return false;
  const stripped = value.replace(SPACES_OR_CONTROLS, '');
  return stripped !== value && new RegExp(pattern.slice(1, end), pattern.slice(end + 1)).test(stripped);
}

/** What a type expects, in words (zod's type names are no words of a sentence). */
function typeMessage(expected: string): Message {
  switch (expected) {
    case 'string':
      return message('field.type_string');
    case 'number':
      return message('field.type_number');
    case 'int':
    case 'integer':
      return message('field.type_integer');
    case 'boolean':
      return message('field.type_boolean');
    case 'object':
      return message('field.type_object');
    case 'array':
      return message('field.type_array');
    default:
      return message('field.invalid_type');
  }
}

/** What a format expects, in words. */
function formatMessage(format: string): Message {
  switch (format) {
    case 'email':
      return message('field.format_email');
    case 'uuid':
      return message('field.format_uuid');
    case 'url':
      return message('field.format_url');
    case 'date':
      return message('field.format_date');
    case 'datetime':
      return message('field.format_datetime');
    default:
      return message('field.invalid_format');
  }
}

/** What a list of the contract holds, by its field's name: its limits are said as a count of that ("At most 5 addresses"). */
const ARRAY_NOUNS: Record<string, 'items' | 'addresses' | 'events' | 'links' | 'points'> = {
  items: 'items',
  to: 'addresses',
  cc: 'addresses',
  bcc: 'addresses',
  events: 'events',
  links: 'links',
  checklist: 'points',
};
function arrayNoun(path: PropertyKey[]) {
  const field = [...path].reverse().find((key) => typeof key === 'string');
  return typeof field === 'string' && Object.hasOwn(ARRAY_NOUNS, field) ? ARRAY_NOUNS[field] : 'values';
}

/** The per-field `detail` of a validation problem (rendered in the response's language). */
function detailOf(code: FieldCode, issue: z.core.$ZodIssue, value?: unknown): Message {
  switch (code) {
    case 'invalid_type':
      return typeMessage('expected' in issue ? String(issue.expected) : '');
    case 'invalid_format':
      // A map's key that breaks the pattern of keys (metadata): said in words, not as the pattern.
      if (issue.code === 'invalid_key') return message('field.key_characters');
      // A date outside the years 1 to 9999 (generated/routes.ts, scripts/lib/zod-writer.ts IN_CALENDAR).
      if (issue.code === 'custom' && issue.params?.calendar !== undefined) return message('field.calendar_range');
      // A pattern (money amounts, integer strings) is no format to name: "a valid regex" would mislead.
      if ('format' in issue && issue.format === 'regex' && 'pattern' in issue) {
        const pattern = String(issue.pattern);
        if (onlySpacesOrControlsWrong(value, pattern)) return message('field.spaces_or_controls');
        return message('field.pattern', { pattern });
      }
      return formatMessage('format' in issue ? String(issue.format) : '');
    case 'invalid_enum': {
      const values = 'values' in issue ? (issue.values as unknown[]).map((v) => JSON.stringify(v)).join(', ') : '';
      return message('field.invalid_enum', { values });
    }
    case 'too_long':
    case 'too_big': {
      // A map with more keys than its maxProperties (scripts/lib/zod-writer.ts): a check of zod's own.
      if (issue.code === 'custom' && issue.params?.maxProperties !== undefined)
        return message('field.too_many_keys', { max: String(issue.params.maxProperties) });
      // A map's key too long: the key's own issue says by how much.
      if (issue.code === 'invalid_key') return detailOf(code, issue.issues[0] ?? issue, value);
      const max = 'maximum' in issue ? String(issue.maximum) : '';
      if (issue.code === 'too_big' && issue.origin === 'array')
        return message(`field.too_many_${arrayNoun(issue.path)}`, { max });
      return message(`field.${code}`, { max });
    }
    case 'too_short':
    case 'too_small': {
      const min = 'minimum' in issue ? String(issue.minimum) : '';
      if (issue.code === 'too_small' && issue.origin === 'array')
        return message(`field.too_few_${arrayNoun(issue.path)}`, { min });
      return message(`field.${code}`, { min });
    }
    case 'invalid_cursor':
      return message('cursor.invalid');
    default:
      return message(`field.${code}`);
  }
}

/** The input at an issue's path: zod 4 issues do not carry the input itself. */
function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function codeOf(issue: z.core.$ZodIssue, input: unknown): FieldCode {
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
      // zod reports a required enum field that is missing as a value not in the enum: it is missing.
      return valueAt(input, issue.path) === undefined ? 'required' : 'invalid_enum';
    case 'invalid_union':
      return 'invalid_type';
    case 'invalid_key':
      // A map's key (metadata): too long, or not of the key's characters.
      return issue.issues.some((inner) => inner.code === 'too_big') ? 'too_long' : 'invalid_format';
    case 'custom':
      return issue.params?.maxProperties === undefined ? 'invalid_format' : 'too_big';
    default:
      return 'invalid_format';
  }
}

const pointerOf = (path: PropertyKey[]) =>
  `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/**
 * A parameter as the contract names it: headers arrive lower-cased, the contract writes `Idempotency-Key`,
 * `If-Match`.
 */
const parameterName = (name: string, target: Target) =>
  target === 'header'
    ? name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())
    : name;

/** The parameter of an issue: a key of a deepObject parameter as it was sent (`metadata[plan]`). */
const queryParameterOf = (path: PropertyKey[], target: Target) =>
  target === 'query' && path.length === 2 && typeof path[1] === 'string'
    ? `${String(path[0])}[${String(path[1])}]`
    : parameterName(String(path[0] ?? ''), target);

/**
 * How many invalid inputs a problem lists. A 1 MiB body can name some 70 000 unknown fields: listing each made a
 * 7.8 MB answer (and as many objects to build), so past this many they are only counted, and one last entry
 * (`more_errors`) says how many were left out.
 */
export const MAX_LISTED_ERRORS = 50;

/** The invalid inputs of a request as they are found: the first MAX_LISTED_ERRORS built, every one counted. */
export class InvalidInputs {
  readonly listed: FieldError[] = [];
  total = 0;
  private onlyUnknownFields = true;

  /** Counts `count` invalid inputs with this code; `entry(i)` builds the i-th only while there is room to list it. */
  add(code: string, count: number, entry: (index: number) => FieldError): this {
    if (code !== 'unknown_field') this.onlyUnknownFields = false;
    for (let i = 0; i < count && this.listed.length < MAX_LISTED_ERRORS; i++) this.listed.push(entry(i));
    this.total += count;
    return this;
  }

  /** The issues of a failed zod validation of one part of the request. */
  addIssues(error: z.ZodError, target: Target, input: unknown): this {
    const inBody = target === 'json' || target === 'form';
    for (const issue of error.issues) {
      if (issue.code === 'unrecognized_keys') {
        const code = inBody ? 'unknown_field' : 'unknown_parameter';
        this.add(code, issue.keys.length, (i) => ({
          pointer: inBody ? pointerOf([...issue.path, issue.keys[i]]) : null,
          parameter: inBody ? null : parameterName(issue.keys[i], target),
          code,
          detail: detailOf(code, issue),
        }));
        continue;
      }
      // A cursor outside the contract's pattern is one the service did not make: the code of every refused cursor
      // (src/http/pagination.ts), whichever check found it.
      const code =
        target === 'query' && issue.path[0] === 'cursor' && issue.code === 'invalid_format'
          ? 'invalid_cursor'
          : codeOf(issue, input);
      this.add(code, 1, () => ({
        pointer: inBody ? pointerOf(issue.path) : null,
        parameter: inBody ? null : queryParameterOf(issue.path, target),
        code,
        detail: detailOf(code, issue, valueAt(input, issue.path)),
      }));
    }
    return this;
  }

  /** The list to answer: those listed, and when some were left out, an entry that says how many. */
  errors(): FieldError[] {
    const more = this.total - this.listed.length;
    if (more === 0) return this.listed;
    return [
      ...this.listed,
      { pointer: null, parameter: null, code: 'more_errors', detail: message('field.more_errors', { count: more }) },
    ];
  }

  /** `unknown_field` when every input is a field the body may not have, otherwise `validation_failed`. */
  problem(): ApiProblem {
    const errors = this.errors();
    if (this.total > 0 && this.onlyUnknownFields) {
      return new ApiProblem('unknown_field', message('request.unknown_field'), { errors });
    }
    const count =
      this.total === 1
        ? message('request.one_invalid_input')
        : message('request.invalid_inputs', { count: this.total });
    return new ApiProblem('validation_failed', count, { errors });
  }
}

/** A single invalid input found by a handler (a duplicate email, an id of another company). */
export function invalidField(pointer: string, code: string, detail: Message): ApiProblem {
  return invalidFields([{ pointer, parameter: null, code, detail }]);
}

/** Every invalid input a handler found at once (unknown references, amounts with too many decimals). */
export function invalidFields(errors: FieldError[]): ApiProblem {
  const found = new InvalidInputs();
  for (const error of errors) found.add(error.code, 1, () => error);
  return found.problem();
}
