// Validates responses against the bundled contract: the status must be declared for the operation, the
// content type must match (problem+json for errors), required headers must be present and the body must
// match the schema. Every integration test's client goes through `assertConforms`.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
type Ref = { $ref: string };
type Header = { required?: boolean; schema: Json };
type Response = {
  description: string;
  headers?: Record<string, Header | Ref>;
  content?: Record<string, { schema: Json }>;
};
type Operation = { operationId: string; responses: Record<string, Response | Ref>; [key: string]: unknown };
export type Contract = {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, Operation>>;
};

export const contract = JSON.parse(
  readFileSync(new URL('../../generated/openapi.en.json', import.meta.url), 'utf8'),
) as Contract;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(contract as unknown as Json, 'contract');

const resolve = <T>(value: T | Ref): T => {
  if (value && typeof value === 'object' && '$ref' in value) {
    const [, section, name] = (value as Ref).$ref.match(/^#\/components\/([^/]+)\/(.+)$/) ?? [];
    return contract.components[section][name] as T;
  }
  return value as T;
};

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the contract with its method and path. */
export function contractOperations() {
  const out: { method: string; path: string; operation: Operation; pathItem: Record<string, unknown> }[] = [];
  for (const [path, item] of Object.entries(contract.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) out.push({ method, path, operation, pathItem: item });
    }
  }
  return out;
}

const operationsById = new Map(contractOperations().map((o) => [o.operation.operationId, o]));
export const operationById = (id: string) => {
  const found = operationsById.get(id);
  if (!found) throw new Error(`unknown operation ${id}`);
  return found;
};

const validators = new Map<string, ValidateFunction>();
function validatorFor(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `contract#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const describe = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');

export type ObservedResponse = { status: number; headers: Headers; body: unknown };

/** Problems with a response of the operation; empty when it conforms. */
export function conformanceProblems(operationId: string, response: ObservedResponse): string[] {
  const { method, path, operation } = operationById(operationId);
  const declared = operation.responses[String(response.status)];
  if (!declared) return [`status ${response.status} is not declared for ${operationId}`];
  const spec = resolve(declared);
  const problems: string[] = [];
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    const h = resolve(header);
    if (h.required && !response.headers.has(name)) problems.push(`missing header ${name}`);
  }
  const contentTypes = Object.keys(spec.content ?? {});
  const actualType = (response.headers.get('content-type') ?? '').split(';')[0].trim();
  if (contentTypes.length === 0) return problems;
  if (!contentTypes.includes(actualType)) {
    problems.push(`content-type ${actualType || '(none)'} is not one of ${contentTypes.join(', ')}`);
    return problems;
  }
  if (!actualType.includes('json')) return problems;
  const responsePointer = `/paths/${escapePointer(path)}/${method}/responses/${response.status}`;
  const pointer =
    '$ref' in declared
      ? `${(declared as Ref).$ref.slice(1)}/content/${escapePointer(actualType)}/schema`
      : `${responsePointer}/content/${escapePointer(actualType)}/schema`;
  const validate = validatorFor(pointer);
  if (!validate(response.body)) problems.push(`body: ${describe(validate.errors)}`);
  return problems;
}

export function assertConforms(operationId: string, response: ObservedResponse): void {
  const problems = conformanceProblems(operationId, response);
  if (problems.length) {
    throw new Error(
      `${operationId} answered ${response.status} outside the contract:\n- ${problems.join('\n- ')}\nbody: ${JSON.stringify(response.body).slice(0, 2000)}`,
    );
  }
}

/** Problems with a value against the schema at a JSON pointer of the contract; empty when valid. */
export function problemsAt(pointer: string, value: unknown): string[] {
  const validate = validatorFor(pointer);
  return validate(value) ? [] : [describe(validate.errors)];
}

/** Problems with a value against a named schema of the contract (`#/components/schemas/<name>`); empty when valid. */
export function schemaProblems(name: string, value: unknown): string[] {
  const validate = validatorFor(`/components/schemas/${escapePointer(name)}`);
  return validate(value) ? [] : [describe(validate.errors)];
}
