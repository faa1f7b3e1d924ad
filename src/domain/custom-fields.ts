// The rules of custom fields' values (issue 51), without the database or HTTP: what a value of each type looks like,
// which of a record's values a request may set or remove, and how a stored value converts when its field changes
// type. The texts of the problems are the resource's (src/resources/custom-fields/messages.ts); a problem here
// names the field, the field-error code and the kind of text.
import type { CustomFieldValue, CustomFieldValues } from '../db/schema/columns.ts';
import type { CustomFieldLabels, CustomFieldOption, CustomFieldType } from '../db/schema/crm.ts';

export type { CustomFieldLabels, CustomFieldOption, CustomFieldType, CustomFieldValue, CustomFieldValues };

/** The JSON shapes a value can have (each type then allows one of them). */
export function asValue(value: unknown): CustomFieldValue | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map(String);
  return undefined;
}

/** What validation needs of a definition. */
export type FieldDefinition = {
  readonly key: string;
  readonly type: CustomFieldType;
  readonly decimals: number | null;
  readonly options: readonly CustomFieldOption[] | null;
  readonly required: boolean;
};

/** The most fields a company defines per resource. */
export const MAX_FIELDS_PER_RESOURCE = 100;

export const MAX_TEXT = 255;
export const MAX_LONG_TEXT = 10_000;
export const MAX_URL = 2_000;
export const MAX_EMAIL = 254;
/** A number's magnitude stays below this, so that every allowed number is exact as a double and as JSON. */
export const NUMBER_LIMIT = 1e15;

const MONEY = /^-?\d{1,13}\.\d{2}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PHONE = /^\+[1-9]\d{6,14}$/;
// The shape the contract's `format: email` takes elsewhere: something, @, a domain with a dot; no spaces.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Which text explains a refused value (the resource's messages: `custom_field.value_<kind>`). */
export type ValueKind = CustomFieldType | 'unknown' | 'required' | 'required_kept';

export type ValueProblem = {
  key: string;
  /** The field-error code of the contract's FieldError. */
  code: 'invalid_type' | 'invalid_format' | 'too_long' | 'too_big' | 'invalid_enum' | 'unknown_field' | 'required';
  kind: ValueKind;
  /** For the texts: the allowed option keys, the decimals. */
  options: readonly string[];
  decimals: number;
};

const isCalendarDate = (value: string): boolean => {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

const isWebAddress = (value: string): boolean => {
  if (value.length > MAX_URL || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const hasDecimals = (value: number, decimals: number): boolean => Number(value.toFixed(decimals)) === value;

const optionKeys = (field: FieldDefinition): string[] => (field.options ?? []).map((o) => o.key);

/** The problem with `value` as a value of `field`, or undefined when it is one. */
export function valueProblem(field: FieldDefinition, value: unknown): ValueProblem | undefined {
  const problem = (code: ValueProblem['code']): ValueProblem => ({
    key: field.key,
    code,
    kind: field.type,
    options: optionKeys(field),
    decimals: field.decimals ?? 0,
  });
  switch (field.type) {
    case 'text':
    case 'long_text': {
      if (typeof value !== 'string' || value.length === 0) return problem('invalid_type');
      return value.length > (field.type === 'text' ? MAX_TEXT : MAX_LONG_TEXT) ? problem('too_long') : undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return problem('invalid_type');
      if (Math.abs(value) >= NUMBER_LIMIT) return problem('too_big');
      return hasDecimals(value, field.decimals ?? 0) ? undefined : problem('invalid_format');
    }
    case 'money':
      if (typeof value !== 'string') return problem('invalid_type');
      return MONEY.test(value) ? undefined : problem('invalid_format');
    case 'date':
      if (typeof value !== 'string') return problem('invalid_type');
      return isCalendarDate(value) ? undefined : problem('invalid_format');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : problem('invalid_type');
    case 'single_select':
      if (typeof value !== 'string') return problem('invalid_type');
      return optionKeys(field).includes(value) ? undefined : problem('invalid_enum');
    case 'multi_select': {
      if (!Array.isArray(value)) return problem('invalid_type');
      const keys = optionKeys(field);
      const valid = value.every((v) => typeof v === 'string' && keys.includes(v));
      return valid && new Set(value).size === value.length ? undefined : problem('invalid_enum');
    }
    case 'url':
      if (typeof value !== 'string') return problem('invalid_type');
      return isWebAddress(value) ? undefined : problem('invalid_format');
    case 'email':
      if (typeof value !== 'string') return problem('invalid_type');
      return value.length <= MAX_EMAIL && EMAIL.test(value) ? undefined : problem('invalid_format');
    case 'phone':
      if (typeof value !== 'string') return problem('invalid_type');
      return PHONE.test(value) ? undefined : problem('invalid_format');
  }
}

const bare = (key: string, code: ValueProblem['code'], kind: ValueKind): ValueProblem => ({
  key,
  code,
  kind,
  options: [],
  decimals: 0,
});

/**
 * A request's `custom_fields` checked against the company's fields of the resource: the values to set (`null`
 * removes a key on an update; on a creation a `null` is no value), and the problems, each naming its key: an unknown
 * key, a value of the wrong kind, a required field left without a value (on a creation) or emptied (on an update).
 */
export function checkValues(
  fields: ReadonlyMap<string, FieldDefinition>,
  input: Readonly<Record<string, unknown>> | undefined,
  creating: boolean,
): { values: Record<string, CustomFieldValue | null>; problems: ValueProblem[] } {
  const values: Record<string, CustomFieldValue | null> = {};
  const problems: ValueProblem[] = [];
  for (const [key, value] of Object.entries(input ?? {})) {
    const field = fields.get(key);
    if (!field) {
      problems.push(bare(key, 'unknown_field', 'unknown'));
      continue;
    }
    if (value === null) {
      if (field.required && !creating) problems.push(bare(key, 'required', 'required_kept'));
      else if (!creating) values[key] = null;
      continue;
    }
    const problem = valueProblem(field, value);
    const checked = asValue(value);
    if (problem) problems.push(problem);
    else if (checked !== undefined) values[key] = checked;
  }
  if (creating) {
    for (const field of fields.values()) {
      if (field.required && values[field.key] === undefined && !problems.some((p) => p.key === field.key)) {
        problems.push(bare(field.key, 'required', 'required'));
      }
    }
  }
  return { values, problems };
}

/** Stored values with an update's merged in: a key with `null` removed, the others set. */
export function mergeValues(
  stored: Readonly<CustomFieldValues>,
  changes: Readonly<Record<string, CustomFieldValue | null>>,
): CustomFieldValues {
  const merged: CustomFieldValues = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The value with its objects' keys in one order, so that equal JSON is equal text. */
const canonical = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
      )
    : Array.isArray(value)
      ? value.map(canonical)
      : value;

/** Whether two values (or sets of values, labels, options) are the same JSON, whatever the order of keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

const STRINGS: ReadonlySet<CustomFieldType> = new Set(['text', 'long_text', 'url', 'email', 'phone']);

/**
 * A stored value as a value of `field` after its type (or decimals, or options) changed: the value itself when it
 * already is one; a number as text; a text holding a number as a number or money; a single choice as a one-item
 * multiple choice and back. Undefined when it does not convert (the change is then refused).
 */
export function convertValue(field: FieldDefinition, value: unknown): { value: CustomFieldValue } | undefined {
  const candidates: unknown[] = [value];
  if (typeof value === 'number' && STRINGS.has(field.type)) candidates.push(String(value));
  if (typeof value === 'number' && field.type === 'money') candidates.push(value.toFixed(2));
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) {
    if (field.type === 'number') candidates.push(Number(value));
    if (field.type === 'money' && /^-?\d+(\.\d{1,2})?$/.test(value)) candidates.push(Number(value).toFixed(2));
  }
  if (typeof value === 'string' && field.type === 'multi_select') candidates.push([value]);
  if (Array.isArray(value) && value.length === 1 && field.type === 'single_select') candidates.push(value[0]);
  const found = asValue(candidates.find((candidate) => valueProblem(field, candidate) === undefined));
  return found === undefined ? undefined : { value: found };
}

export const LABEL_LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

/** The label in `language`; without one, in the company's language, else the first set in nl, en, de, fr. */
export function labelIn(labels: CustomFieldLabels, language: LabelLanguage, companyLanguage: string): string {
  const company = LABEL_LANGUAGES.find((l) => l === companyLanguage);
  return (
    labels[language] ??
    (company ? labels[company] : undefined) ??
    LABEL_LANGUAGES.map((l) => labels[l]).find((l) => l !== undefined) ??
    ''
  );
}
