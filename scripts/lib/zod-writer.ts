// Writes zod 4 source code for the JSON Schema subset the contract uses (see openapi/README.md).
// Anything outside the subset is an error, so a new keyword cannot be silently ignored.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
  oneOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  [key: string]: unknown;
};

/** Keywords that carry no validation and are left to the OpenAPI document. */
const ANNOTATIONS = new Set([
  'description',
  'example',
  'examples',
  'title',
  'summary',
  'readOnly',
  'writeOnly',
  'deprecated',
  'externalDocs',
]);
const SUPPORTED = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'additionalProperties',
  // A map's keys and their number (metadata): only with `additionalProperties` and no `properties`.
  'propertyNames',
  'maxProperties',
  'oneOf',
  'default',
  // Checked by the handler, which names the field in its own words: duplicate webhook events
  // (webhook-endpoints/rules.ts). No `multipleOf`: a fractional one is judged in floating point by common
  // validators (Prism's ajv refuses 0.07 as a multiple of 0.01), so the contract never uses it.
  'uniqueItems',
]);

export type ZodWriterOptions = {
  /** Name of the generated constant for a `#/components/schemas/<name>` reference. */
  refName: (name: string) => string;
  /** Query and path parameters arrive as strings: numbers and booleans are coerced. */
  coerce?: boolean;
  /** Where the schema sits, for error messages. */
  at: string;
};

const lit = (value: unknown) => JSON.stringify(value);

/**
 * What the service takes as an email address: ajv-formats' `email` (full mode, the definition the contract's
 * validation uses) written without its `i` flag, since a JSON Schema pattern has none. Every `format: email` of the
 * contract carries exactly this pattern, so generators and fuzzers see the service's rule (a@com is refused).
 */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$";

/**
 * Every date and date-time lies in the years 1 to 9999, in UTC: PostgreSQL has no year 0 (SQLSTATE 22008) and a
 * later year would be written back with five digits, against the contract's own Timestamp. The ISO formats allow
 * `0000-01-01`, and an offset moves `0001-01-01T00:30:00+01:00` into year 0, so the instant itself is checked. The
 * issue carries `params.calendar`, which names the range in the field's detail (src/http/validation.ts).
 * `IN_CALENDAR_DEFINITION` is written once at the top of generated/routes.ts; each date format refers to it.
 */
export const IN_CALENDAR_DEFINITION = [
  '/** A date or date-time in the years 1 to 9999 (UTC): what PostgreSQL stores and the contract writes back. */',
  'const inCalendar = (value: string) => {',
  '  const year = new Date(value).getUTCFullYear();',
  '  return year >= 1 && year <= 9999;',
  '};',
  "const IN_CALENDAR = { params: { calendar: 'years 1-9999' } };",
].join('\n');
const IN_CALENDAR = '.refine(inCalendar, IN_CALENDAR)';

/**
 * A query parameter of style deepObject (`metadata[plan]=pro&metadata[shop]=1`) reaches the route as one parameter
 * per key, named with brackets: `deepObjects(names)` gathers those of `names` into their object
 * (`{ metadata: { plan: 'pro', shop: '1' } }`) before the query is validated. A parameter sent under its bare name
 * stays as it is, for the validation to refuse. Written once at the top of generated/routes.ts.
 */
export const DEEP_OBJECTS_DEFINITION = [
  '/** Query parameters `name[key]=value` of the deepObject parameters `names`, gathered into `name: { key: value }`. */',
  'const deepObjects = (names: string[]) => (query: unknown) => {',
  "  if (typeof query !== 'object' || query === null) return query;",
  '  const gathered: Record<string, unknown> = {};',
  '  const objects = new Map<string, [string, unknown][]>();',
  '  for (const [name, value] of Object.entries(query)) {',
  '    const deep = /^([^[\\]]+)\\[([^[\\]]*)\\]$/.exec(name);',
  '    if (deep && names.includes(deep[1]) && !Object.hasOwn(query, deep[1])) {',
  '      objects.set(deep[1], [...(objects.get(deep[1]) ?? []), [deep[2], value]]);',
  '      continue;',
  '    }',
  '    // A deepObject named `a[b]` (filter[custom_fields]): `a[b.key]` and `a[b][key]`, each with an optional `[op]`.',
  '    const nested = /^([^[\\]]+)\\[([^[\\].]+)(?:\\.|\\]\\[)([^[\\]]+)\\](\\[[^[\\]]+\\])?$/.exec(name);',
  "    const owner = nested ? nested[1] + '[' + nested[2] + ']' : undefined;",
  '    if (nested && owner && names.includes(owner) && !Object.hasOwn(query, owner)) {',
  "      objects.set(owner, [...(objects.get(owner) ?? []), [nested[3] + (nested[4] ?? ''), value]]);",
  '    } else gathered[name] = value;',
  '  }',
  "  // fromEntries: a key such as `__proto__` becomes a key, not the object's prototype.",
  '  for (const [name, entries] of objects) gathered[name] = Object.fromEntries(entries);',
  '  return gathered;',
  '};',
].join('\n');

export function zodFor(schema: JsonSchema, opts: ZodWriterOptions): string {
  for (const key of Object.keys(schema)) {
    if (!SUPPORTED.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) {
      throw new Error(`${opts.at}: keyword "${key}" is outside the contract's schema subset`);
    }
  }
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return opts.refName(name);
  }
  if (schema.oneOf) return oneOf(schema.oneOf, opts);

  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nullable = types.includes('null');
  const nonNull = types.filter((t) => t !== 'null');
  if (nonNull.length > 1) throw new Error(`${opts.at}: only one non-null type is supported`);
  let code = base(nonNull[0], schema, opts);
  if (nullable) code += '.nullable()';
  if (schema.default !== undefined) code += `.default(${lit(schema.default)})`;
  return code;
}

function oneOf(alternatives: JsonSchema[], opts: ZodWriterOptions): string {
  const isNull = (s: JsonSchema) => s.type === 'null';
  const rest = alternatives.filter((s) => !isNull(s));
  const nullable = rest.length < alternatives.length;
  const parts = rest.map((s, i) => zodFor(s, { ...opts, at: `${opts.at}/oneOf/${i}` }));
  let code: string;
  if (parts.length === 1) code = parts[0];
  else if (rest.every((s) => s.const !== undefined)) code = `z.enum([${rest.map((s) => lit(s.const)).join(', ')}])`;
  else code = `z.union([${parts.join(', ')}])`;
  return nullable ? `${code}.nullable()` : code;
}

function base(type: string | undefined, schema: JsonSchema, opts: ZodWriterOptions): string {
  if (schema.const !== undefined) return `z.literal(${lit(schema.const)})`;
  if (schema.enum) {
    const values = schema.enum.filter((v) => v !== null);
    if (values.every((v) => typeof v === 'string')) return `z.enum([${values.map(lit).join(', ')}])`;
    return `z.union([${values.map((v) => `z.literal(${lit(v)})`).join(', ')}])`;
  }
  switch (type) {
    case 'string':
      return stringSchema(schema, opts.at);
    case 'integer':
    case 'number': {
      let code = 'z.number()';
      if (type === 'integer') code += '.int()';
      if (schema.minimum !== undefined) code += `.min(${schema.minimum})`;
      if (schema.maximum !== undefined) code += `.max(${schema.maximum})`;
      if (!opts.coerce) return code;
      // Query and path values are text: only plain decimal numerals count (not "0x10", "1e3" or " 7 ").
      const numeral = type === 'integer' ? '/^-?[0-9]+$/' : '/^-?[0-9]+(\\.[0-9]+)?$/';
      return `z.string().regex(${numeral}).transform(Number).pipe(${code})`;
    }
    case 'boolean':
      return opts.coerce ? 'z.enum(["true", "false"]).transform((v) => v === "true")' : 'z.boolean()';
    case 'array': {
      if (!schema.items) throw new Error(`${opts.at}: array without items`);
      let code = `z.array(${zodFor(schema.items, { ...opts, at: `${opts.at}/items` })})`;
      if (schema.minItems !== undefined) code += `.min(${schema.minItems})`;
      if (schema.maxItems !== undefined) code += `.max(${schema.maxItems})`;
      return code;
    }
    case 'object':
      return objectSchema(schema, opts);
    case undefined:
      return 'z.unknown()';
    default:
      throw new Error(`${opts.at}: unsupported type ${type}`);
  }
}

function stringSchema(schema: JsonSchema, at: string): string {
  let code: string;
  switch (schema.format) {
    case 'email':
      // zod's own email pattern differs from the contract's (it accepts `x@a-.nl`, which responses would then
      // carry against the contract): the contract's pattern is the definition, and it must be the one rule.
      if (schema.pattern !== EMAIL_PATTERN) throw new Error(`${at}: an email's pattern must be EMAIL_PATTERN`);
      code = `z.email({ pattern: new RegExp(${lit(EMAIL_PATTERN)}) })`;
      break;
    case 'uuid':
      code = 'z.uuid()';
      break;
    case 'date':
      code = `z.iso.date()${IN_CALENDAR}`;
      break;
    case 'date-time':
      // Input date-times must carry a time zone; `Z` or an offset.
      code = `z.iso.datetime({ offset: true })${IN_CALENDAR}`;
      break;
    case 'uri':
      // z.url() passes on the value trimmed and without tabs or newlines, so a pattern checked after it would
      // judge that value instead of the one sent: with a pattern, the pattern comes first.
      code = schema.pattern === undefined ? 'z.url()' : `z.string()${regexOf(schema.pattern)}.check(z.url())`;
      break;
    case 'binary':
      return 'z.union([z.instanceof(Blob), z.string()])';
    case undefined:
      code = 'z.string()';
      break;
    default:
      code = 'z.string()';
  }
  if (schema.minLength !== undefined) code += `.min(${schema.minLength})`;
  if (schema.maxLength !== undefined) code += `.max(${schema.maxLength})`;
  // An email's pattern is z.email's own: a second check would report one bad address twice.
  if (schema.pattern !== undefined && schema.format !== 'uri' && schema.format !== 'email')
    code += regexOf(schema.pattern);
  return code;
}

const regexOf = (pattern: string) => `.regex(/${pattern.replace(/\//g, '\\/')}/)`;

function objectSchema(schema: JsonSchema, opts: ZodWriterOptions): string {
  const required = new Set(schema.required ?? []);
  // A required member the schema does not describe is still required (openapi-typescript writes it `unknown`).
  const undescribed = [...required].filter((key) => !(key in (schema.properties ?? {})));
  const properties: Record<string, JsonSchema> = {
    ...schema.properties,
    ...Object.fromEntries(undescribed.map((key) => [key, {}])),
  };
  const props = Object.entries(properties).map(([key, prop]) => {
    let code = zodFor(prop, { ...opts, at: `${opts.at}/properties/${key}` });
    if (!required.has(key) && prop.default === undefined) code += '.optional()';
    return `${lit(key)}: ${code}`;
  });
  const shape = `{ ${props.join(', ')} }`;
  const extra = schema.additionalProperties;
  if (extra === false) return `z.strictObject(${shape})`;
  if ((schema.propertyNames || schema.maxProperties !== undefined) && (props.length > 0 || typeof extra !== 'object'))
    throw new Error(`${opts.at}: propertyNames and maxProperties only on a map (additionalProperties, no properties)`);
  if (extra && typeof extra === 'object') {
    if (props.length === 0) {
      const keys = schema.propertyNames
        ? zodFor({ type: 'string', ...schema.propertyNames }, { ...opts, at: `${opts.at}/propertyNames` })
        : 'z.string()';
      const map = `z.record(${keys}, ${zodFor(extra, { ...opts, at: `${opts.at}/additionalProperties` })})`;
      // zod has no limit on a record's size: a check whose issue carries the limit (src/http/validation.ts).
      return schema.maxProperties === undefined
        ? map
        : `${map}.refine((map) => Object.keys(map).length <= ${schema.maxProperties}, { params: { maxProperties: ${schema.maxProperties} } })`;
    }
    return `z.object(${shape}).catchall(${zodFor(extra, { ...opts, at: `${opts.at}/additionalProperties` })})`;
  }
  return `z.object(${shape})`;
}

/** Every `#/components/schemas/<name>` a schema refers to, directly or nested. */
export function refsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) refsOf(item, found);
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        found.add(value.slice('#/components/schemas/'.length));
      } else if (key !== 'example' && key !== 'examples') refsOf(value, found);
    }
  }
  return found;
}
