// The client package's part that follows the contract, written by `npm run generate`:
// - `clientContract`: the contract cut to what the package exposes (the operations an API key calls, their
//   parameters, bodies and 2xx answers, the schemas these reach; no texts, examples or error answers), which
//   openapi-typescript turns into `generated/client-api.d.ts` (a fraction of `generated/api.d.ts`);
// - `clientMethodsTs`: `generated/client-methods.ts`, one method per operation, grouped by resource (the first
//   segment of the path), named after its operationId without the resource's noun (`getCustomer` →
//   `customers.get`, `listDealNotes` → `deals.listNotes`), every list paged automatically.
import { type JsonSchema, refsOf } from './zod-writer.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Parameter = { name: string; in: string; required?: boolean; schema: JsonSchema };
type MediaType = { schema?: JsonSchema };
type Response = { description?: string; content?: Record<string, MediaType> };
type Operation = {
  operationId: string;
  summary?: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response | { $ref: string }>;
  security?: Record<string, unknown>[];
};
export type ContractDoc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>> & { schemas: Record<string, JsonSchema> };
};

const deref = <T>(doc: ContractDoc, value: T | { $ref: string }): T => {
  if (value && typeof value === 'object' && '$ref' in value) {
    const [, section, name] = value.$ref.match(/^#\/components\/(\w+)\/(.+)$/) ?? [];
    const found = doc.components[section]?.[name];
    if (!found) throw new Error(`unresolved ${value.$ref}`);
    return found as T;
  }
  return value as T;
};

type Included = {
  method: (typeof METHODS)[number];
  path: string;
  op: Operation;
  params: Parameter[];
  /** The 2xx answer: its status and media type (JSON, or bytes). */
  status: string;
  media: string | undefined;
};

/** The operations an API key calls (the visitor API, public pages and the providers' webhooks are not the SDK's). */
function includedOperations(doc: ContractDoc): Included[] {
  const list: Included[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters ?? []) as (Parameter | { $ref: string })[]).map((p) => deref(doc, p));
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      if (!(op.security ?? [{ ApiKey: [] }]).some((scheme) => 'ApiKey' in scheme)) continue;
      const own = (op.parameters ?? []).map((p) => deref(doc, p));
      const params = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      if (success.length !== 1) throw new Error(`${op.operationId}: the SDK expects one 2xx answer`);
      const [status, value] = success[0];
      const media = Object.keys(deref(doc, value).content ?? {})[0];
      list.push({ method, path, op, params, status, media });
    }
  }
  return list;
}

/** A schema without its texts and examples (the package's types need none of them). */
function bare(schema: unknown, inProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => bare(item));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (inProperties) out[key] = bare(value);
    else if (['description', 'title', 'example', 'examples', 'summary'].includes(key) || key.startsWith('x-')) continue;
    else out[key] = bare(value, key === 'properties' || key === '$defs');
  }
  return out;
}

/** The contract cut to what the package exposes, for openapi-typescript. */
export function clientContract(doc: ContractDoc): ContractDoc {
  const paths: ContractDoc['paths'] = {};
  const reached = new Set<string>();
  const reach = (schema: unknown) => {
    for (const name of refsOf(schema)) {
      if (reached.has(name)) continue;
      reached.add(name);
      reach(doc.components.schemas[name]);
    }
  };
  for (const { method, path, op, params, status, media } of includedOperations(doc)) {
    const parameters = params.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: bare(p.schema) }));
    const requestBody = op.requestBody && {
      required: op.requestBody.required,
      content: Object.fromEntries(
        Object.entries(op.requestBody.content).map(([type, m]) => [type, { schema: bare(m.schema ?? {}) }]),
      ),
    };
    const answer = deref(doc, op.responses[status]);
    const content =
      media === 'application/json' ? { [media]: { schema: bare(answer.content?.[media]?.schema ?? {}) } } : undefined;
    paths[path] ??= {};
    paths[path][method] = {
      operationId: op.operationId,
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: { [status]: { description: '', ...(content ? { content } : {}) } },
    };
    reach(paths[path][method]);
  }
  // Thrown as CrmError's problem: part of the package whatever the operations answer.
  reach({ $ref: '#/components/schemas/Problem' });
  const schemas = Object.fromEntries(
    [...reached].sort().map((name) => [name, bare(doc.components.schemas[name]) as JsonSchema]),
  );
  return {
    openapi: doc.openapi,
    info: { title: doc.info.title, version: doc.info.version },
    paths,
    components: { schemas },
  };
}

const pascal = (words: string[]) => words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
const camel = (words: string[]) => {
  const p = pascal(words);
  return p[0].toLowerCase() + p.slice(1);
};
const lit = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));
const idOf = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : camel(name.split(/[^A-Za-z0-9]+/)));

/**
 * A method's name: the operationId without the resource's noun, plural, singular or the longest leading part of it
 * (`listCustomerNotes` → `listNotes`, `getWebhookDelivery` under webhook-endpoints → `getDelivery`).
 */
function methodName(operationId: string, resourceWords: string[]): string {
  const plural = pascal(resourceWords);
  const singular = plural.replace(/s$/, '');
  const candidates = [plural, singular];
  for (let n = resourceWords.length - 1; n > 0; n--) candidates.push(pascal(resourceWords.slice(0, n)));
  for (const noun of candidates) {
    const at = operationId.indexOf(noun);
    if (at <= 0) continue;
    const rest = operationId.slice(0, at) + operationId.slice(at + noun.length);
    return rest;
  }
  return operationId;
}

/** `generated/client-methods.ts`: the class of every resource's methods, over the package's `Caller`. */
export function clientMethodsTs(doc: ContractDoc, header: string): string {
  const byResource = new Map<string, string[]>();
  const seen = new Map<string, string>();
  for (const { method, path, op, params, status, media } of includedOperations(doc)) {
    const segment = path.split('/')[1];
    const words = segment.split('-');
    const resource = camel(words);
    const name = methodName(op.operationId, words);
    const key = `${resource}.${name}`;
    if (seen.has(key)) throw new Error(`${op.operationId} and ${seen.get(key)} would both be ${key}`);
    seen.set(key, op.operationId);
    const O = `operations[${JSON.stringify(op.operationId)}]`;
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const query = params.filter((p) => p.in === 'query');
    const headers = params.filter((p) => p.in === 'header');
    const args = pathParams.map((p) => `${idOf(p)}: ${O}['parameters']['path'][${JSON.stringify(p)}]`);
    const pathObject = `{ ${pathParams.map((p) => (idOf(p) === p ? p : `${lit(p)}: ${idOf(p)}`)).join(', ')} }`;
    const answer = deref(doc, op.responses[status]);
    const schema = deref(doc, answer.content?.['application/json']?.schema ?? {}) as JsonSchema;
    const props = schema.properties ?? {};
    const isList = media === 'application/json' && props.data?.type === 'array';
    const spec = `{ method: '${method.toUpperCase()}', path: '${path}' }`;
    const Json = `${O}['responses'][${status}]['content']['application/json']`;
    const doc1 = `/** ${(op.summary ?? op.operationId).replace(/\*\//g, '* /')} (\`${method.toUpperCase()} ${path}\`${isList ? ', every page' : ''}). */`;
    let line: string;
    if (isList) {
      const hasCursor = query.some((p) => p.name === 'cursor');
      const Q = `NonNullable<${O}['parameters']['query']>`;
      const queryType = hasCursor ? `Omit<${Q}, 'cursor'>` : Q;
      const required = query.some((p) => p.required);
      args.push(query.length ? `query${required ? '' : '?'}: ${queryType}` : '');
      line = `${name}: (${args.filter(Boolean).join(', ')}): AsyncGenerator<${Json}['data'][number]> => this.call.list(${spec}, ${pathObject}, ${query.length ? 'query' : 'undefined'})`;
    } else {
      const body = op.requestBody;
      const bodyMedia = body ? Object.keys(body.content)[0] : undefined;
      if (body) {
        const type =
          bodyMedia === 'multipart/form-data'
            ? 'FormData'
            : `NonNullable<${O}['requestBody']>['content']['application/json']`;
        args.push(`body${body.required ? '' : '?'}: ${type}`);
      }
      const options: string[] = [];
      if (query.length) {
        const required = query.some((p) => p.required);
        options.push(`query${required ? '' : '?'}: NonNullable<${O}['parameters']['query']>`);
      }
      if (headers.length) options.push(`header?: NonNullable<${O}['parameters']['header']>`);
      if (headers.some((h) => h.name === 'Idempotency-Key')) options.push('idempotencyKey?: string');
      if (options.length) {
        const required = query.some((p) => p.required);
        args.push(`options${required ? '' : '?'}: { ${options.join('; ')} }`);
      }
      let result: string;
      let how: string;
      if (media !== 'application/json') {
        result = 'Uint8Array';
        how = 'bytes';
      } else if (Object.keys(props).length === 1 && props.data) {
        result = `${Json}['data']`;
        how = 'data';
      } else {
        result = Json;
        how = 'json';
      }
      const bodyArg = body ? (bodyMedia === 'multipart/form-data' ? '{ form: body }' : '{ json: body }') : 'undefined';
      line = `${name}: (${args.join(', ')}): Promise<${result}> => this.call.send(${spec}, ${pathObject}, ${bodyArg}, ${options.length ? 'options' : 'undefined'}, '${how}')`;
    }
    const list = byResource.get(resource) ?? [];
    list.push(doc1, `${line},`);
    byResource.set(resource, list);
  }
  const lines = [
    header,
    "import type { operations } from './client-api.d.ts';",
    '',
    '/** A request as the methods describe it; the package answers it (src/client/caller.ts). */',
    "export type Call = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string };",
    "export type Answer = 'data' | 'json' | 'bytes';",
    'export interface Caller {',
    '  send<T>(',
    '    call: Call,',
    '    path: Record<string, string | number>,',
    '    body: { json: unknown } | { form: FormData } | undefined,',
    '    options: { query?: object; header?: object; idempotencyKey?: string } | undefined,',
    '    answer: Answer,',
    '  ): Promise<T>;',
    '  list<T>(call: Call, path: Record<string, string | number>, query: object | undefined): AsyncGenerator<T>;',
    '}',
    '',
    '/** Every resource of the contract with a method per operation an API key may call. */',
    'export class Resources {',
    '  constructor(protected readonly call: Caller) {}',
  ];
  for (const [resource, methods] of [...byResource].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`  readonly ${resource} = {`, ...methods.map((m) => `    ${m}`), '  };');
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** An example value of a parameter (its own, its schema's, else a placeholder of its type). */
function parameterExample(p: Parameter & { example?: unknown }): unknown {
  if (p.example !== undefined) return p.example;
  if (p.schema.example !== undefined) return p.schema.example;
  if (p.schema.type === 'integer' || p.schema.type === 'number') return 1;
  return `${p.name}_1`;
}

/** The request body's first example. */
function bodyExample(media: MediaType & { example?: unknown; examples?: Record<string, { value?: unknown }> }) {
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first?.value ?? {};
}

const ts = (value: unknown): string => JSON.stringify(value, null, 2).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:');

/**
 * `generated/client-reference.md`: every method of the package with an example call made from the contract's
 * examples, one TypeScript block per resource (appended to the package's README; compiled by its test).
 */
export function clientReferenceMd(doc: ContractDoc): string {
  const sections = new Map<string, { rows: string[]; code: string[] }>();
  for (const { method, path, op, params, media } of includedOperations(doc)) {
    const words = path.split('/')[1].split('-');
    const resource = camel(words);
    const name = methodName(op.operationId, words);
    const section = sections.get(resource) ?? { rows: [], code: [] };
    sections.set(resource, section);
    const pathArgs = [...path.matchAll(/\{(\w+)\}/g)].map((m) => {
      const p = params.find((x) => x.in === 'path' && x.name === m[1]);
      return JSON.stringify(p ? parameterExample(p) : `${m[1]}_1`);
    });
    const query = params.filter((p) => p.in === 'query' && p.required);
    const answer = deref(doc, op.responses[Object.keys(op.responses).find((s) => s.startsWith('2')) ?? '200']);
    const schema = deref(doc, answer.content?.['application/json']?.schema ?? {}) as JsonSchema;
    const isList = media === 'application/json' && schema.properties?.data?.type === 'array';
    const queryArg = query.length ? ts(Object.fromEntries(query.map((p) => [p.name, parameterExample(p)]))) : undefined;
    const summary = (op.summary ?? op.operationId).replace(/\|/g, '\\|');
    section.rows.push(
      `| \`crm.${resource}.${name}\` | \`${method.toUpperCase()} ${path}\` | ${summary}${isList ? ' (every page)' : ''} |`,
    );
    const call = `crm.${resource}.${name}`;
    section.code.push(`// ${summary}`);
    if (isList) {
      const args = [...pathArgs, ...(queryArg ? [queryArg] : [])].join(', ');
      section.code.push(`for await (const item of ${call}(${args})) console.log(item);`);
    } else {
      const args = [...pathArgs];
      const body = op.requestBody;
      if (body) {
        const [type, bodyMedia] = Object.entries(body.content)[0];
        if (type === 'multipart/form-data') {
          section.code.push(`const form_${name} = new FormData();`);
          section.code.push(
            `form_${name}.append('file', new Blob([new Uint8Array(8)], { type: 'image/png' }), 'photo.png');`,
          );
          args.push(`form_${name}`);
        } else args.push(ts(bodyExample(bodyMedia)));
      }
      if (queryArg) args.push(`{ query: ${queryArg} }`);
      section.code.push(
        media === 'application/json'
          ? `console.log(await ${call}(${args.join(', ')}));`
          : `console.log((await ${call}(${args.join(', ')})).byteLength, 'bytes');`,
      );
    }
  }
  const lines = [
    '## Every method',
    '',
    "Written from the contract by the service's `npm run generate` (its operations, their summaries and their",
    'examples), so the methods and this list cannot drift apart. Path parameters come first, in the order of the',
    'path; then the body, if the operation takes one; then `{ query, header, idempotencyKey }` where it has',
    'any. A single object is answered unwrapped (`{ data }` → the object); a list is an async iterable over every',
    'page; a PDF or XML answer is its bytes (`Uint8Array`). The examples assume `const crm = new Crm();`.',
    '',
  ];
  for (const [resource, { rows, code }] of [...sections].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`### \`crm.${resource}\``, '', '| method | operation | what |', '|---|---|---|', ...rows, '');
    lines.push('```ts', ...code, '```', '');
  }
  return lines.join('\n');
}
