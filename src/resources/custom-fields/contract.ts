// The company's own contract (issue 51, point 7): GET /api/v1/openapi.json with a key answers the public contract
// with the company's fields as typed properties of the records' `custom_fields` schemas (their labels, in the
// request's language, as descriptions), so that openapi-typescript, hey-api and the client package generate typed
// fields for that company. Built from the served contract's JSON and the company's (cached) fields.
import type { Context } from 'hono';
import { clientAddress } from '../../auth/ip.ts';
import { tenantOf } from '../../db/tenant.ts';
import type { Deps } from '../../deps.ts';
import { labelIn, MAX_EMAIL, MAX_LONG_TEXT, MAX_TEXT, MAX_URL, NUMBER_LIMIT } from '../../domain/custom-fields.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { contractJson, serveContract } from '../../http/docs.ts';
import { admitKey, checkKeyValid, identifyKey } from '../../http/key-checks.ts';
import { chooseLanguage, LANGUAGES, type Language } from '../../http/language.ts';
import type { Templates } from '../../http/message-catalogue.ts';
import { message } from '../../http/messages.ts';
import { ApiProblem } from '../../http/problems.ts';
import { socketAddress } from '../../http/request-address.ts';
import { type CompanyFields, companyFields } from './schemas.ts';
import type { CustomFieldRow } from './serialize.ts';

type JsonSchema = Record<string, unknown>;

/** The JSON schema of one field's value (as valueProblem in src/domain/custom-fields.ts checks it). */
function valueSchema(field: CustomFieldRow): JsonSchema {
  const max = NUMBER_LIMIT - 1;
  switch (field.type) {
    case 'text':
      return { type: 'string', minLength: 1, maxLength: MAX_TEXT };
    case 'long_text':
      return { type: 'string', minLength: 1, maxLength: MAX_LONG_TEXT };
    case 'number':
      return field.decimals === 0
        ? { type: 'integer', minimum: -max, maximum: max }
        : { type: 'number', minimum: -max, maximum: max };
    case 'money':
      return { type: 'string', pattern: '^-?\\d{1,13}\\.\\d{2}$' };
    case 'date':
      return { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'single_select':
      return { type: 'string', enum: (field.options ?? []).map((o) => o.key) };
    case 'multi_select':
      return {
        type: 'array',
        uniqueItems: true,
        maxItems: (field.options ?? []).length,
        items: { type: 'string', enum: (field.options ?? []).map((o) => o.key) },
      };
    case 'url':
      return { type: 'string', format: 'uri', maxLength: MAX_URL };
    case 'email':
      return { type: 'string', format: 'email', maxLength: MAX_EMAIL };
    case 'phone':
      return { type: 'string', pattern: '^\\+[1-9]\\d{6,14}$' };
  }
}

/** The field's label, and its options' keys with their labels, in the language. */
function description(field: CustomFieldRow, language: Language, companyLanguage: string): string {
  const label = labelIn(field.labels, language, companyLanguage);
  const options = (field.options ?? []).map((o) => `\`${o.key}\` (${labelIn(o.labels, language, companyLanguage)})`);
  const required = field.required ? ' Required on creation.' : '';
  return options.length > 0 ? `${label}: ${options.join(', ')}.${required}` : `${label}.${required}`;
}

/** The `custom_fields` schemas of one resource: the record's (values) and its input's (values or null). */
function typed(
  schema: JsonSchema | undefined,
  fields: ReadonlyMap<string, CustomFieldRow>,
  input: boolean,
  language: Language,
  companyLanguage: string,
): void {
  if (!schema) return;
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields.values()) {
    const value = valueSchema(field);
    const text = description(field, language, companyLanguage);
    properties[field.key] = input
      ? { description: text, oneOf: [value, { type: 'null' }] }
      : { ...value, description: text };
  }
  schema.properties = properties;
  // Only the company's keys: anything else is refused (422 unknown_field at /custom_fields/<key>).
  schema.additionalProperties = false;
  delete schema.propertyNames;
  delete schema.example;
}

/**
 * The served contract's JSON with the company's fields typed in CustomerCustomFields, DealCustomFields and their
 * inputs. The public contract is left as it is (a parsed copy is changed).
 */
export function companyContract(
  json: string,
  fields: CompanyFields,
  language: Language,
  companyLanguage: string,
): string {
  const contract = JSON.parse(json) as { components?: { schemas?: Record<string, JsonSchema> } };
  const schemas = contract.components?.schemas ?? {};
  typed(schemas.CustomerCustomFields, fields.customers, false, language, companyLanguage);
  typed(schemas.CustomerCustomFieldsInput, fields.customers, true, language, companyLanguage);
  typed(schemas.DealCustomFields, fields.deals, false, language, companyLanguage);
  typed(schemas.DealCustomFieldsInput, fields.deals, true, language, companyLanguage);
  return `${JSON.stringify(contract, null, 2)}\n`;
}

/** Company contracts kept (about 1 MB each): the companies whose integrators download theirs now. */
export const MAX_CONTRACTS = 16;

/**
 * The company contracts built, by company and language, each with the fields it was built from: it stands while the
 * fields cache (schemas.ts) answers that same object, which it replaces when the company's fields change (NOTIFY,
 * or this process's own change) or its TTL ends. Least recently used first out.
 */
export class ContractCache {
  private readonly built = new Map<string, { fields: CompanyFields; json: string }>();

  get(key: string, fields: CompanyFields, build: () => string): string {
    const kept = this.built.get(key);
    this.built.delete(key);
    const json = kept?.fields === fields ? kept.json : build();
    this.built.set(key, { fields, json });
    const oldest = this.built.keys().next();
    if (this.built.size > MAX_CONTRACTS && !oldest.done) this.built.delete(oldest.value);
    return json;
  }
}

/**
 * GET /api/v1/openapi.json: without a key the public contract (serveContract); with one, after the key's checks
 * (401 and 403 as on every operation; any scope, since every key of the company sees its records' custom_fields),
 * the company's contract. Private to the key's company: `Cache-Control: private` and `Vary: Authorization`.
 */
export const serveCompanyContract = (deps: Deps, catalogue: Readonly<Record<string, Templates>>) => {
  const contracts = new ContractCache();
  return async (c: Context<AppEnv>): Promise<Response> => {
    const publicUrl = deps.config.publicUrl;
    if (c.req.header('authorization') === undefined) return serveContract(publicUrl, catalogue)(c);
    const asked = c.req.query('lang');
    if (asked !== undefined && !(LANGUAGES as readonly string[]).includes(asked)) {
      throw new ApiProblem('validation_failed', message('request.lang_invalid'));
    }
    const clientIp = clientAddress(socketAddress(c), c.req.header('x-forwarded-for'), deps.config.trustedProxies);
    const key = await identifyKey(c.req.header('authorization'), deps.keys);
    checkKeyValid(key);
    const auth = admitKey(key, clientIp);
    const language =
      LANGUAGES.find((l) => l === asked) ?? chooseLanguage(c.req.header('accept-language'), key.company.language);
    const fields = await companyFields(deps.sql, tenantOf(deps, auth.companyId));
    const served = contractJson(language, publicUrl, catalogue);
    const json = contracts.get(`${auth.companyId}:${served.language}:${key.company.language}`, fields, () =>
      companyContract(served.json, fields, served.language, key.company.language),
    );
    return c.body(json, 200, {
      'Content-Type': 'application/json',
      'Content-Language': served.language,
      'Cache-Control': 'private, no-cache',
      Vary: 'Authorization, Accept-Language',
    });
  };
};
