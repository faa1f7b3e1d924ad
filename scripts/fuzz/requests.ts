// Requests for one contract operation, generated from its parameters and request body: valid ones (which the
// service must answer with a declared 2xx/4xx and a conforming body) and ones with exactly one deliberate
// mistake (which must be refused with the declared 4xx and the right `code`, naming the bad input).
import fc from 'fast-check';
import { type OperationId, operations } from '../../generated/operations.ts';
import { operationById } from '../../test/harness/contract.ts';
import { checkedValue, NASTY_STRINGS, resolveSchema, type Schema, typesOf } from './schema.ts';

export type FuzzRequest = {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** A JSON value to send as application/json (absent: no body). */
  body?: unknown;
  /** Sent as is, with the headers given (malformed JSON, other media types, huge bodies). */
  rawBody?: string;
};

/** What an invalid request must be answered with; `at` is the input the problem must name. */
export type Refusal = {
  status: number;
  code: string;
  at?: { pointer: string } | { parameter: string };
  /** The field code the named error must carry, when it is certain. */
  fieldCode?: string;
  /** Other acceptable answers (status and code), e.g. a malformed id may be a 404 as well as a 422. */
  or?: { status: number; code: string }[];
};

export type FuzzCase =
  | { kind: 'valid'; request: FuzzRequest }
  | { kind: 'invalid'; mistake: string; request: FuzzRequest; expect: Refusal }
  /** Requests whose answer depends on data (a well-formed cursor with odd values): any of these statuses. */
  | { kind: 'odd'; mistake: string; request: FuzzRequest; statuses: number[] };

/** Known path parameter sets (records created before fuzzing), e.g. `{ customer, note }` pairs. */
export type Fixtures = { paramSets: Record<string, string>[] };

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
  style?: string;
};

const resolveParameter = (p: Parameter | { $ref: string }): Parameter =>
  resolveSchema(p as Schema) as unknown as Parameter;

export type OperationShape = {
  id: OperationId;
  path: Parameter[];
  query: Parameter[];
  header: Parameter[];
  body?: { schema: Schema; required: boolean; type: string };
};

export function shapeOf(id: OperationId): OperationShape {
  const { operation, pathItem } = operationById(id);
  const params = [
    ...((pathItem.parameters ?? []) as Parameter[]),
    ...((operation.parameters ?? []) as Parameter[]),
  ].map(resolveParameter);
  const requestBody = operation.requestBody
    ? (resolveSchema(operation.requestBody as Schema) as unknown as {
        required?: boolean;
        content: Record<string, { schema: Schema }>;
      })
    : undefined;
  const [type, media] = requestBody ? Object.entries(requestBody.content)[0] : [];
  return {
    id,
    path: params.filter((p) => p.in === 'path'),
    query: params.filter((p) => p.in === 'query'),
    header: params.filter((p) => p.in === 'header'),
    body:
      requestBody && media && type
        ? { schema: media.schema, required: requestBody.required ?? false, type }
        : undefined,
  };
}

const HEADER_SAFE = /^[\x21-\x7E]+$/;
const ACCEPT_LANGUAGES = ['nl', 'de', 'fr', 'en', '*', 'xx', 'nl-NL,nl;q=0.9,en;q=0.5', 'de-CH', 'q=;;'];

function headerValue(p: Parameter): fc.Arbitrary<string> {
  if (p.name.toLowerCase() === 'accept-language') return fc.constantFrom(...ACCEPT_LANGUAGES);
  const schema = resolveSchema(p.schema);
  const max = Math.min(schema.maxLength ?? 64, 255);
  return fc
    .string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: max,
    })
    .filter((s) => HEADER_SAFE.test(s) && (!schema.pattern || new RegExp(schema.pattern).test(s)));
}

const queryText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function pathParams(shape: OperationShape, fixtures: Fixtures): fc.Arbitrary<Record<string, string>> {
  if (shape.path.length === 0) return fc.constant({});
  const names = shape.path.map((p) => p.name).sort();
  const known = fixtures.paramSets.filter((set) => Object.keys(set).sort().join() === names.join());
  const random: Record<string, fc.Arbitrary<string>> = {};
  for (const p of shape.path) random[p.name] = checkedValue(p.schema).map(queryText);
  const randomSet = fc.record(random);
  return known.length ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, randomSet) : randomSet;
}

/** Each entry present or not, except the `required` ones (a required query parameter such as `from`). */
function optionalRecord(
  entries: [string, fc.Arbitrary<string>][],
  required: string[] = [],
): fc.Arbitrary<Record<string, string>> {
  const record: Record<string, fc.Arbitrary<string>> = {};
  for (const [name, arbitrary] of entries) record[name] = arbitrary;
  return fc.record(record, { requiredKeys: required }) as fc.Arbitrary<Record<string, string>>;
}

/** A request the contract accepts. */
export function validRequest(shape: OperationShape, fixtures: Fixtures, tame = false): fc.Arbitrary<FuzzRequest> {
  const deep = shape.query.filter((p) => p.style === 'deepObject');
  const plain = optionalRecord(
    shape.query
      // A random cursor is refused (422 invalid_cursor); the invalid cases cover cursors.
      .filter((p) => p.name !== 'cursor' && p.style !== 'deepObject')
      .map((p) => [p.name, checkedValue(p.schema, tame).map(queryText)]),
    shape.query.filter((p) => p.required).map((p) => p.name),
  );
  // A deepObject parameter (metadata[key]=value) is sent as one `name[key]` parameter per key of its object.
  const deepEntries = fc.tuple(
    ...deep.map((p) =>
      fc
        .option(checkedValue(p.schema, tame), { nil: undefined })
        .map((value) =>
          value && typeof value === 'object'
            ? Object.entries(value).map(([key, v]) => [`${p.name}[${key}]`, queryText(v)] as const)
            : [],
        ),
    ),
  );
  const query = fc
    .tuple(plain, deepEntries)
    .map(([record, entries]) => ({ ...record, ...Object.fromEntries(entries.flat()) }));
  const headers = tame ? fc.constant({}) : optionalRecord(shape.header.map((p) => [p.name, headerValue(p)]));
  const body = shape.body
    ? shape.body.required
      ? checkedValue(shape.body.schema, tame)
      : fc.option(checkedValue(shape.body.schema, tame), { nil: undefined })
    : fc.constant(undefined);
  return fc
    .record({ params: pathParams(shape, fixtures), query, headers, body })
    .map((r) => (r.body === undefined ? { params: r.params, query: r.query, headers: r.headers } : r));
}

// ----- mistakes -----

type Mistake = { mistake: string; change: (base: FuzzRequest) => FuzzRequest; expect: Refusal };

const CANDIDATES: unknown[] = [true, {}, { a: 1 }, [], [1], 42, 1.5, 'text'];
function jsonType(value: unknown): string[] {
  if (Array.isArray(value)) return ['array'];
  if (value === null) return ['null'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

/** The JSON types a schema accepts (oneOf/anyOf alternatives included). */
function acceptedTypes(input: Schema): Set<string> {
  const schema = resolveSchema(input);
  const out = new Set<string>();
  for (const alt of schema.oneOf ?? schema.anyOf ?? []) for (const t of acceptedTypes(alt)) out.add(t);
  for (const t of typesOf(schema)) out.add(t);
  if (schema.enum) for (const v of schema.enum) for (const t of jsonType(v)) out.add(t);
  return out;
}

const wrongTypes = (schema: Schema) => {
  const accepted = acceptedTypes(schema);
  return CANDIDATES.filter((c) => !jsonType(c).some((t) => accepted.has(t)));
};

const BAD_FORMATS: Record<string, string[]> = {
  uuid: ['not-a-uuid', "1' OR '1'='1", '00000000-0000-0000-0000-00000000000g', '{}', '\u0000'],
  email: ['not-an-email', "x' OR 1=1 --@example.nl", '@example.nl', 'a@', 'a b@example.nl', 'a@b@c.nl'],
  'date-time': [
    'yesterday',
    '2024-13-01T00:00:00Z',
    '2024-02-30T10:00:00Z',
    '2024-01-01T25:61:00Z',
    '2024-01-01',
    '1e10',
    "2024-01-01T00:00:00Z' OR '1'='1",
    '0000-00-00T00:00:00Z',
  ],
  uri: ['not a url', 'hello', '//example.nl/x', 'javascript:alert(1)'],
};

const withBody = (base: FuzzRequest, body: unknown): FuzzRequest => ({ ...base, body, rawBody: undefined });

function bodyMistakes(shape: OperationShape): Mistake[] {
  if (!shape.body || shape.body.type !== 'application/json') return [];
  const schema = resolveSchema(shape.body.schema);
  const out: Mistake[] = [];
  const baseBody = (base: FuzzRequest) => (base.body ?? {}) as Record<string, unknown>;
  const validation = (pointer: string, fieldCode?: string): Refusal => ({
    status: 422,
    code: 'validation_failed',
    at: { pointer },
    fieldCode,
  });
  for (const [name, input] of Object.entries(schema.properties ?? {})) {
    const property = resolveSchema(input);
    const pointer = `/${name}`;
    for (const value of wrongTypes(input)) {
      out.push({
        mistake: `body ${name}: wrong type ${JSON.stringify(value)}`,
        change: (b) => withBody(b, { ...baseBody(b), [name]: value }),
        expect: validation(pointer),
      });
    }
    if (schema.required?.includes(name)) {
      out.push({
        mistake: `body ${name}: missing`,
        change: (b) => {
          const { [name]: _dropped, ...rest } = baseBody(b);
          return withBody(b, rest);
        },
        expect: validation(pointer, 'required'),
      });
    }
    const types = acceptedTypes(input);
    const strings = [property, ...(property.oneOf ?? [])]
      .map(resolveSchema)
      .filter((s) => typesOf(s).includes('string'));
    for (const s of strings) {
      if (s.maxLength !== undefined && !s.enum) {
        const long =
          s.format === 'email'
            ? `${'a'.repeat(s.maxLength)}@example.nl`
            : s.format === 'uri'
              ? `https://hooks.example.nl/${'a'.repeat(s.maxLength)}`
              : s.pattern
                ? `${'9'.repeat(s.maxLength + 1)}`
                : `${'\ud83d\ude00'.repeat(Math.ceil((s.maxLength + 1) / 2))}${'a'.repeat(Math.floor((s.maxLength + 1) / 2))}`;
        out.push({
          mistake: `body ${name}: ${long.length} characters (max ${s.maxLength})`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: long }),
          expect: validation(pointer),
        });
      }
      if (s.minLength && !s.format && !s.pattern) {
        out.push({
          mistake: `body ${name}: shorter than ${s.minLength}`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: 'A'.repeat((s.minLength as number) - 1) }),
          expect: validation(pointer, 'too_short'),
        });
      }
      for (const bad of BAD_FORMATS[s.format ?? ''] ?? []) {
        out.push({
          mistake: `body ${name}: bad ${s.format} ${JSON.stringify(bad)}`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: bad }),
          expect: validation(pointer),
        });
      }
      if (!s.enum && !s.format && !s.pattern) {
        const unstorable: [string, string][] = [
          ['\u0000', 'U+0000'],
          ['a\u0000b', 'U+0000'],
          ['\ud800', 'an unpaired surrogate'],
          ['x\udfffy', 'an unpaired surrogate'],
        ];
        for (const [text, what] of unstorable) {
          out.push({
            mistake: `body ${name}: contains ${what}`,
            change: (b) => withBody(b, { ...baseBody(b), [name]: text }),
            expect: validation(pointer, 'invalid_format'),
          });
        }
      }
      if (s.enum && !types.has('null')) {
        out.push({
          mistake: `body ${name}: not one of the enum`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: 'not_a_value' }),
          expect: validation(pointer, 'invalid_enum'),
        });
      }
    }
    const numbers = [property, ...(property.oneOf ?? [])]
      .map(resolveSchema)
      .filter((s) => typesOf(s).some((t) => t === 'integer' || t === 'number'));
    for (const s of numbers) {
      if (s.maximum !== undefined) {
        const over = s.maximum >= Number.MAX_SAFE_INTEGER ? 1e16 : s.maximum + 1;
        out.push({
          mistake: `body ${name}: ${over} (max ${s.maximum})`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: over }),
          expect: validation(pointer),
        });
      }
      if (s.minimum !== undefined) {
        out.push({
          mistake: `body ${name}: ${s.minimum - 1} (min ${s.minimum})`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: (s.minimum as number) - 1 }),
          expect: validation(pointer),
        });
      }
      if (typesOf(s).includes('integer')) {
        out.push({
          mistake: `body ${name}: not an integer`,
          change: (b) => withBody(b, { ...baseBody(b), [name]: 2.5 }),
          expect: validation(pointer),
        });
      }
    }
    const items = property.items ? resolveSchema(property.items) : undefined;
    if (items?.enum) {
      out.push({
        mistake: `body ${name}: an item outside the enum`,
        change: (b) => withBody(b, { ...baseBody(b), [name]: ['not_a_value'] }),
        expect: validation(`${pointer}/0`, 'invalid_enum'),
      });
    }
    if (property.maxItems !== undefined && items) {
      const many = Array.from({ length: property.maxItems + 1 }, (_, i) =>
        items.enum ? items.enum[i % items.enum.length] : 'x',
      );
      out.push({
        mistake: `body ${name}: ${property.maxItems + 1} items (max ${property.maxItems})`,
        change: (b) => withBody(b, { ...baseBody(b), [name]: many }),
        expect: validation(pointer),
      });
    }
    if (property.minItems) {
      out.push({
        mistake: `body ${name}: no items (min ${property.minItems})`,
        change: (b) => withBody(b, { ...baseBody(b), [name]: [] }),
        expect: validation(pointer),
      });
    }
  }
  for (const field of ['zz_unknown', 'company_id', '__proto__', 'id']) {
    if (schema.properties?.[field]) continue;
    out.push({
      mistake: `body: unknown field ${field}`,
      change: (b) => ({
        ...b,
        body: undefined,
        rawBody: `${JSON.stringify(baseBody(b)).slice(0, -1)}${Object.keys(baseBody(b)).length ? ',' : ''}"${field}":1}`,
      }),
      expect: { status: 422, code: 'unknown_field', at: { pointer: `/${field}` }, fieldCode: 'unknown_field' },
    });
  }
  const notObjects: unknown[] = [[], [{}], 'text', 42, true, ...(shape.body.required ? [null] : [])];
  for (const value of notObjects) {
    out.push({
      mistake: `body: ${JSON.stringify(value)} instead of an object`,
      change: (b) => withBody(b, value),
      expect: { status: 422, code: 'validation_failed' },
    });
  }
  const malformed = [
    '{',
    '{"a":}',
    "{'a':1}",
    '{"a":1,}',
    'nul',
    '\u0000',
    '{"a":"\\ud800',
    '[1,2',
    '{"a":1}{"b":2}',
    '{"a":NaN}',
  ];
  for (const raw of malformed) {
    out.push({
      mistake: `body: malformed JSON ${JSON.stringify(raw)}`,
      change: (b) => ({ ...b, body: undefined, rawBody: raw }),
      expect: { status: 422, code: 'validation_failed', at: { pointer: '' }, fieldCode: 'invalid_json' },
    });
  }
  out.push({
    mistake: 'body: 1.2 MB',
    change: (b) => ({ ...b, body: undefined, rawBody: JSON.stringify({ filler: 'a'.repeat(1_200_000) }) }),
    expect: { status: 413, code: 'payload_too_large' },
  });
  for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/jsonx']) {
    out.push({
      mistake: `body: sent as ${type}`,
      change: (b) => ({
        ...b,
        body: undefined,
        rawBody: JSON.stringify(b.body ?? {}),
        headers: { ...b.headers, 'content-type': type },
      }),
      expect: { status: 415, code: 'unsupported_media_type' },
    });
  }
  return out;
}

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function queryMistakes(shape: OperationShape): Mistake[] {
  const out: Mistake[] = [];
  const withQuery = (b: FuzzRequest, name: string, value: string): FuzzRequest => ({
    ...b,
    query: { ...b.query, [name]: value },
  });
  for (const p of shape.query) {
    const schema = resolveSchema(p.schema);
    const at = { parameter: p.name };
    const refuse = (value: string, label: string, fieldCode?: string) =>
      out.push({
        mistake: `query ${p.name}: ${label} ${JSON.stringify(value).slice(0, 60)}`,
        change: (b) => withQuery(b, p.name, value),
        expect: { status: 422, code: 'validation_failed', at, fieldCode },
      });
    if (p.name === 'cursor') {
      const broken = [
        '!!!',
        'abc',
        'null',
        cursorOf(null),
        cursorOf([]),
        cursorOf({ s: 'created_at' }),
        cursorOf({ s: 'x', v: [1, 2], d: 'n' }),
        cursorOf({
          s: String(resolveSchema(shape.query.find((q) => q.name === 'sort')?.schema ?? {}).default ?? 'id'),
          v: [1],
          d: 'n',
        }),
        cursorOf({ s: 'id', v: [1, 2], d: 'sideways' }),
        Buffer.from("' OR 1=1 --").toString('base64url'),
      ];
      // A cursor is read once the parent record is found: with an unknown parent, 404 comes first.
      const parent = shape.path.length ? [{ status: 404, code: 'not_found' }] : [];
      for (const value of broken) {
        out.push({
          mistake: `query cursor: broken ${JSON.stringify(value).slice(0, 60)}`,
          change: (b) => withQuery(b, 'cursor', value),
          expect: { status: 422, code: 'validation_failed', at, fieldCode: 'invalid_cursor', or: parent },
        });
      }
      refuse('a'.repeat((schema.maxLength ?? 1024) + 1), 'over-long cursor');
      // Well-formed cursors with values no row has: a page (perhaps empty) or a refusal, never a failure.
      const sort = String(resolveSchema(shape.query.find((q) => q.name === 'sort')?.schema ?? {}).default ?? 'id');
      const oddValues: unknown[][] = [
        ['notadate', 'x'],
        [{}, []],
        [null, null],
        ['2024-01-01T00:00:00Z', 'not-a-uuid'],
        [1e20, 'x'],
        ['9999-12-31T23:59:59.999999Z', '00000000-0000-0000-0000-000000000000'],
        ["' OR '1'='1", "'; DROP TABLE customers; --"],
        ['\u0000', '\ud800'],
        [-1, 2147483648],
      ];
      for (const v of oddValues) {
        for (const d of ['n', 'p']) {
          const value = cursorOf({ s: sort, v, d });
          out.push({
            mistake: `query cursor: well-formed with odd values ${JSON.stringify(v)} (${d})`,
            change: (b) => withQuery(b, 'cursor', value),
            expect: { status: 200, code: '', or: [{ status: 422, code: 'validation_failed' }, ...parent] },
          });
        }
      }
      continue;
    }
    if (schema.enum) refuse('not_a_value', 'outside the enum', 'invalid_enum');
    const types = typesOf(schema);
    if (types.includes('integer') || types.includes('number')) {
      if (schema.maximum !== undefined)
        refuse(
          schema.maximum >= Number.MAX_SAFE_INTEGER ? '99999999999999999999' : String(schema.maximum + 1),
          'over the maximum',
        );
      if (schema.minimum !== undefined) refuse(String(schema.minimum - 1), 'under the minimum');
      // Not refused today, though not integers either: '0x10', '1e3', ' 7 ' (z.coerce.number; see the report).
      for (const value of ['abc', '1.5', "1' OR '1'='1", '', 'NaN', 'Infinity']) refuse(value, 'not an integer');
    }
    if (types.includes('string') && !schema.enum) {
      for (const bad of BAD_FORMATS[schema.format ?? ''] ?? []) refuse(bad, `bad ${schema.format}`);
      if (schema.maxLength !== undefined) refuse('a'.repeat(schema.maxLength + 1), 'too long');
      if (!schema.format && !schema.pattern) refuse('ab\u0000cd', 'contains U+0000', 'invalid_format');
      if (schema.minLength && schema.minLength > 1) refuse('a'.repeat(schema.minLength - 1), 'too short');
      if (schema.pattern) {
        const pattern = new RegExp(schema.pattern);
        for (const bad of ['UPPER.CASE', 'no_dot', 'a.b,', ...NASTY_STRINGS.filter(Boolean)]) {
          if (!pattern.test(bad)) refuse(bad, 'not matching the pattern');
        }
      }
    }
  }
  // Operations without query parameters ignore the query string; those with some refuse what they do not know.
  for (const name of shape.query.length ? ['zz_unknown', 'filter[company_id]', 'company_id'] : []) {
    out.push({
      mistake: `query: unknown parameter ${name}`,
      change: (b) => withQuery(b, name, '1'),
      expect: { status: 422, code: 'validation_failed', at: { parameter: name }, fieldCode: 'unknown_parameter' },
    });
  }
  return out;
}

function pathMistakes(shape: OperationShape): Mistake[] {
  const out: Mistake[] = [];
  for (const p of shape.path) {
    const schema = resolveSchema(p.schema);
    const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const bad = [
      'not-a-uuid',
      "1' OR '1'='1",
      '00000000-0000-0000-0000-00000000000g',
      'we_',
      'we_!!',
      'evt_ab-cd',
      'a'.repeat(100),
      `we_${'a'.repeat(65)}`,
      '%00',
      '\u0000',
      '\ud83d\ude00',
      '1',
      '-1',
    ].filter((v) => (pattern ? !pattern.test(v) : schema.format === 'uuid' ? !uuid.test(v) : false));
    for (const value of bad) {
      out.push({
        mistake: `path ${p.name}: malformed ${JSON.stringify(value).slice(0, 40)}`,
        change: (b) => ({ ...b, params: { ...b.params, [p.name]: value } }),
        expect: {
          status: 422,
          code: 'validation_failed',
          at: { parameter: p.name },
          or: [{ status: 404, code: 'not_found' }],
        },
      });
    }
  }
  return out;
}

function headerMistakes(shape: OperationShape): Mistake[] {
  const out: Mistake[] = [];
  for (const p of shape.header) {
    const schema = resolveSchema(p.schema);
    if (p.name.toLowerCase() === 'accept-language') continue;
    const values = [
      ...(schema.maxLength !== undefined ? ['k'.repeat(schema.maxLength + 1)] : []),
      ...(schema.pattern
        ? ['with space', 'caf\u00e9'].filter((v) => !new RegExp(schema.pattern as string).test(v))
        : []),
    ];
    for (const value of values) {
      out.push({
        mistake: `header ${p.name}: ${JSON.stringify(value).slice(0, 40)}`,
        change: (b) => ({ ...b, headers: { ...b.headers, [p.name]: value } }),
        expect: { status: 422, code: 'validation_failed', at: { parameter: p.name } },
      });
    }
  }
  return out;
}

/** Every single mistake that applies to the operation. */
export function mistakesOf(shape: OperationShape): Mistake[] {
  return [...pathMistakes(shape), ...queryMistakes(shape), ...headerMistakes(shape), ...bodyMistakes(shape)];
}

/** `valid` requests and `invalid` ones (each mistake at least once when `invalid` allows, then at random). */
export function casesFor(
  id: OperationId,
  fixtures: Fixtures,
  opts: { seed: number; valid: number; invalid: number },
): FuzzCase[] {
  const shape = shapeOf(id);
  const cases: FuzzCase[] = fc
    .sample(validRequest(shape, fixtures), { seed: opts.seed, numRuns: opts.valid })
    .map((request) => ({ kind: 'valid', request }));
  const mistakes = mistakesOf(shape);
  if (mistakes.length === 0 || opts.invalid === 0) return cases;
  const required = new Set(shape.query.filter((p) => p.required).map((p) => p.name));
  const bases = fc.sample(validRequest(shape, fixtures, true), { seed: opts.seed + 1, numRuns: opts.invalid });
  // A seeded shuffle of the mistakes, so a short run still sees every kind across operations.
  const order = fc.sample(fc.shuffledSubarray(mistakes, { minLength: mistakes.length, maxLength: mistakes.length }), {
    seed: opts.seed + 2,
    numRuns: 1,
  })[0];
  for (let i = 0; i < opts.invalid; i++) {
    const m = order[i % order.length];
    // Optional query parameters and headers of the base are left out (required ones stay): the mistake is the
    // only odd input.
    const query = Object.fromEntries(Object.entries(bases[i].query ?? {}).filter(([name]) => required.has(name)));
    const base = { ...bases[i], query, headers: {} };
    const request = m.change(base);
    if (m.expect.status === 200 && m.expect.or) {
      cases.push({ kind: 'odd', mistake: m.mistake, request, statuses: [200, ...m.expect.or.map((o) => o.status)] });
    } else cases.push({ kind: 'invalid', mistake: m.mistake, request, expect: m.expect });
  }
  return cases;
}

// ----- extremes -----

/** 10 000 characters of ordinary text (with a non-ASCII letter, so byte and character counts differ). */
const LONG_TEXT = 'Zeer lang é'.repeat(910).slice(0, 10_000);
const DATE_EXTREMES: Record<string, string[]> = {
  'date-time': ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59.999999+14:00'],
  date: ['0001-01-01', '9999-12-31'],
};
/**
 * Just outside the years 1 to 9999 that every date and date-time of the contract allows (in UTC): year 0 (which
 * PostgreSQL does not have), year 10000, and both reached only through an offset. Each must be refused naming the field.
 */
const DATES_OUT_OF_RANGE: Record<string, string[]> = {
  'date-time': [
    '0000-01-01T00:00:00Z',
    '10000-01-01T00:00:00Z',
    '0001-01-01T00:30:00+01:00',
    '9999-12-31T23:30:00-01:00',
  ],
  date: ['0000-01-01', '10000-01-01'],
};

/** Every text field with its place in a body: a top-level property, or one inside an object or the first item. */
type TextField = { pointer: string; schema: Schema; place: (body: Record<string, unknown>, value: string) => unknown };

const stringSchemasOf = (input: Schema): Schema[] =>
  [input, ...(resolveSchema(input).oneOf ?? []), ...(resolveSchema(input).anyOf ?? [])]
    .map(resolveSchema)
    .filter((s) => typesOf(s).includes('string'));

function textFields(schema: Schema, seed: number, depth = 0): TextField[] {
  const out: TextField[] = [];
  for (const [name, input] of Object.entries(resolveSchema(schema).properties ?? {})) {
    const property = resolveSchema(input);
    for (const s of stringSchemasOf(input)) {
      out.push({ pointer: `/${name}`, schema: s, place: (body, value) => ({ ...body, [name]: value }) });
    }
    if (depth >= 2) continue;
    // Nested text: inside an object property, and inside the first item of an array of objects, each around a
    // valid value of its own (sampled tame, as the bases are).
    const object = [property, ...(property.oneOf ?? [])].map(resolveSchema).find((s) => typesOf(s).includes('object'));
    const items = property.items ? resolveSchema(property.items) : undefined;
    const inner = object ?? (items && typesOf(items).includes('object') ? items : undefined);
    if (!inner?.properties) continue;
    const [valid] = fc.sample(checkedValue(inner, true), { seed, numRuns: 1 }) as Record<string, unknown>[];
    if (valid === undefined) continue;
    for (const field of textFields(inner, seed, depth + 1)) {
      const wrap = (value: string) => field.place(valid, value);
      out.push({
        pointer: `/${name}${object ? '' : '/0'}${field.pointer}`,
        schema: field.schema,
        place: (body, value) => ({ ...body, [name]: object ? wrap(value) : [wrap(value)] }),
      });
    }
  }
  return out;
}

/**
 * Every text field of the body and the query with NUL, an unpaired surrogate and 10 000 characters, and every date
 * field with the ends of the calendar and the years just outside it (year 0 and 10000, refused): each case is run
 * (not sampled), and none may get a 5xx. Where the contract
 * refuses the value (NUL and surrogates everywhere, a length over `maxLength`, a format), the refusal must name the
 * field; elsewhere any declared answer below 500 will do (an appointment in year 9999 may be stored or refused).
 */
export function extremeCases(id: OperationId, fixtures: Fixtures, seed: number): FuzzCase[] {
  const shape = shapeOf(id);
  const [base] = fc.sample(validRequest(shape, fixtures, true), { seed, numRuns: 1 });
  const required = new Set(shape.query.filter((p) => p.required).map((p) => p.name));
  const request: FuzzRequest = {
    ...base,
    headers: {},
    query: Object.fromEntries(Object.entries(base.query).filter(([name]) => required.has(name))),
  };
  const declared = Object.keys(operationById(id).operation.responses ?? {})
    .map(Number)
    .filter((status) => status < 500);
  const cases: FuzzCase[] = [];
  const refused = (mistake: string, changed: FuzzRequest, at: Refusal['at']) =>
    cases.push({ kind: 'invalid', mistake, request: changed, expect: { status: 422, code: 'validation_failed', at } });
  const anyAnswer = (mistake: string, changed: FuzzRequest) =>
    cases.push({ kind: 'odd', mistake, request: changed, statuses: declared });
  if (shape.body?.type === 'application/json') {
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const field of textFields(shape.body.schema, seed)) {
      const withValue = (value: string): FuzzRequest => ({ ...request, body: field.place(body, value) });
      const at = { pointer: field.pointer };
      refused(`body ${field.pointer}: contains U+0000`, withValue('Bakkerij\u0000Jansen'), at);
      refused(`body ${field.pointer}: an unpaired surrogate`, withValue('Bakkerij \ud800 Jansen'), at);
      const { maxLength, format, pattern } = field.schema;
      const long = format === 'email' ? `${LONG_TEXT.replaceAll(/[^a-z]/g, 'a')}@example.nl` : LONG_TEXT;
      if ((maxLength !== undefined && maxLength < long.length) || field.schema.enum || pattern || format)
        refused(`body ${field.pointer}: ${long.length} characters`, withValue(long), at);
      else anyAnswer(`body ${field.pointer}: ${long.length} characters`, withValue(long));
      for (const date of DATE_EXTREMES[format ?? ''] ?? [])
        anyAnswer(`body ${field.pointer}: the date ${date}`, withValue(date));
      for (const date of DATES_OUT_OF_RANGE[format ?? ''] ?? [])
        refused(`body ${field.pointer}: the date ${date}`, withValue(date), at);
    }
  }
  for (const p of shape.query) {
    if (p.name === 'cursor') continue;
    for (const s of stringSchemasOf(p.schema)) {
      const withValue = (value: string): FuzzRequest => ({ ...request, query: { ...request.query, [p.name]: value } });
      const at = { parameter: p.name };
      refused(`query ${p.name}: contains U+0000`, withValue('a\u0000b'), at);
      if ((s.maxLength !== undefined && s.maxLength < LONG_TEXT.length) || s.enum || s.pattern || s.format)
        refused(`query ${p.name}: ${LONG_TEXT.length} characters`, withValue(LONG_TEXT), at);
      else anyAnswer(`query ${p.name}: ${LONG_TEXT.length} characters`, withValue(LONG_TEXT));
      for (const date of DATE_EXTREMES[s.format ?? ''] ?? [])
        anyAnswer(`query ${p.name}: the date ${date}`, withValue(date));
      for (const date of DATES_OUT_OF_RANGE[s.format ?? ''] ?? [])
        refused(`query ${p.name}: the date ${date}`, withValue(date), at);
    }
  }
  return cases;
}

export const operationMeta = (id: OperationId) => operations[id];
