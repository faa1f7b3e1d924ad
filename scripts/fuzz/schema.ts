// fast-check arbitraries derived from the bundled contract's JSON Schemas: values the contract accepts, with
// the strings a careless server trips over (NUL, lone surrogates, astral characters, SQL and JSON injection)
// mixed in wherever a plain string is accepted.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { contract } from '../../test/harness/contract.ts';

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  default?: unknown;
};

/** A schema with its `$ref` followed (siblings such as `description` are dropped; they do not constrain). */
export function resolveSchema(schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; current.$ref && depth < 10; depth++) {
    const [, section, name] = current.$ref.match(/^#\/components\/([^/]+)\/(.+)$/) ?? [];
    current = contract.components[section][name] as Schema;
  }
  return current;
}

export const typesOf = (schema: Schema): string[] => ([] as string[]).concat(schema.type ?? []);

/** Strings that have broken servers: every one is a valid JSON string, most are valid here within the limits. */
export const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d\ude00',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  'e\u0301\u0301\u0301',
  '\ufeff',
  '\u2028\u2029',
  "' OR '1'='1",
  "'; DROP TABLE customers; --",
  '" OR ""="',
  '1; select pg_sleep(1)',
  '$1',
  '\\',
  '%00',
  '%s%s%n',
  '{"$gt":""}',
  '"},{"company_id":"x',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent literally
  '${7*7}',
  '   ',
  '',
];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Text the service stores: no U+0000, no unpaired surrogate. */
export const storable = (s: string) => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

/** Code points, as JSON Schema's maxLength counts them. */
export const codePoints = (s: string) => [...s].length;

function withinLength(s: string, min: number, max: number) {
  const n = codePoints(s);
  return n >= min && n <= max;
}

function plainString(min: number, max: number, tame: boolean): fc.Arbitrary<string> {
  const cap = Math.min(max, min + 40);
  if (tame) return fc.string({ unit: fc.constantFrom(...'abcXYZ019 .-'), minLength: min, maxLength: cap });
  const arbitraries: fc.Arbitrary<string>[] = [
    fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: cap }),
    fc.string({ unit: 'binary', minLength: min, maxLength: cap }),
    fc.string({ unit: 'grapheme', minLength: min, maxLength: cap }),
    // Right at the limit, in characters outside the BMP (two UTF-16 units each).
    fc
      .constantFrom('x', 'é', '\ud83d\ude00')
      .map((c) => c.repeat(max)),
  ];
  const nasty = NASTY_STRINGS.filter((s) => withinLength(s, min, max) && storable(s));
  if (nasty.length) arbitraries.push(fc.constantFrom(...nasty));
  // U+0000 and unpaired surrogates are refused by the service (PostgreSQL text cannot hold them): mistakes,
  // generated in requests.ts.
  return fc.oneof(...arbitraries).filter((s) => withinLength(s, min, max) && storable(s));
}

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc
    .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,20}[a-z0-9]$/), label, fc.constantFrom('nl', 'com', 'example'))
    .filter(([local]) => !local.includes('..'))
    .map(([local, host, tld]) => `${local}@${host}.${tld}`),
  uri: fc
    .tuple(fc.constantFrom('https', 'http'), label, fc.stringMatching(/^[a-zA-Z0-9/_-]{0,30}$/))
    .map(([scheme, host, path]) => `${scheme}://${host}.example/${path}`),
  'date-time': fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  date: fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
};

function stringArbitrary(schema: Schema, tame: boolean): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 200;
  if (schema.format && FORMATS[schema.format]) {
    const base = FORMATS[schema.format];
    const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
    return base.filter((s) => withinLength(s, min, max) && (!pattern || pattern.test(s)));
  }
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => withinLength(s, min, max));
  }
  return plainString(min, max, tame);
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  // Whole numbers within the bounds (a number's bounds need not be whole: an amount of at least 0.01).
  const min = Math.ceil(schema.minimum ?? -1_000_000);
  const max = Math.floor(schema.maximum ?? 1_000_000);
  return fc.oneof(
    fc.constantFrom(min, max),
    fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) }),
    fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number),
  );
}

function numberArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  return fc.oneof(
    fc.constantFrom(min, max),
    integerArbitrary(schema),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 100) / 100),
  );
}

/**
 * Values the schema accepts. `tame` keeps plain strings to short ASCII (a valid base for one deliberate
 * mistake); `depth` stops recursion in schemas that nest themselves.
 */
export function validValue(input: Schema, tame = false, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolveSchema(input);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => validValue(alt, tame, depth + 1)));
  const types = typesOf(schema);
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => validValue({ ...schema, type }, tame, depth + 1)));
  }
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'string':
      return stringArbitrary(schema, tame);
    case 'array': {
      const items = schema.items ? validValue(schema.items, tame, depth + 1) : fc.string();
      return fc.uniqueArray(items, {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
        selector: (v) => JSON.stringify(v),
      });
    }
    case 'object':
      return objectArbitrary(schema, tame, depth);
    default:
      return fc.constant(null);
  }
}

function objectArbitrary(schema: Schema, tame: boolean, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  if (depth > 4) return fc.constant({});
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) record[name] = validValue(property, tame, depth + 1);
  return fc.record(record, { requiredKeys: schema.required ?? [] });
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addSchema(contract as unknown as Record<string, unknown>, 'contract');
const compiled = new Map<Schema, ValidateFunction>();

/**
 * Whether the contract's own validator accepts the value: generated "valid" values are filtered through it,
 * so a refusal by the service is the service's disagreement with the contract, never the generator's.
 */
export function accepts(schema: Schema, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"contract#/components/'));
    validate = ajv.compile(rebased);
    compiled.set(schema, validate);
  }
  return validate(value);
}

/** `validValue`, checked by the contract's validator. */
export const checkedValue = (schema: Schema, tame = false) =>
  validValue(schema, tame).filter((value) => accepts(schema, value));
