// Everything a client can send is bounded in the contract (OWASP API4): strings have a maximum length, an
// enum, a const or a bounded format; numbers have a minimum and maximum; arrays have maxItems. Bodies are
// closed (additionalProperties: false). This replaces Spectral's owasp string rules (see .spectral.yaml).
import { describe, expect, it } from 'vitest';
import { contract, contractOperations } from '../harness/contract.ts';

type Schema = Record<string, unknown>;
const BOUNDED_FORMATS = new Set(['uuid', 'date', 'date-time', 'binary']);

const resolve = (schema: Schema): Schema => {
  const ref = schema.$ref as string | undefined;
  if (!ref) return schema;
  const [, section, name] = ref.match(/^#\/components\/([^/]+)\/(.+)$/) ?? [];
  return {
    ...(contract.components[section][name] as Schema),
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')),
  };
};

function unbounded(schema: Schema, at: string, inBody: boolean, out: string[], seen = new Set<string>()): string[] {
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return out;
    return unbounded(resolve(schema), at, inBody, out, new Set([...seen, schema.$ref]));
  }
  for (const [i, alt] of ((schema.oneOf ?? []) as Schema[]).entries())
    unbounded(alt, `${at}/oneOf/${i}`, inBody, out, seen);
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (types.includes('string') && schema.enum === undefined && schema.const === undefined) {
    if (schema.maxLength === undefined && !BOUNDED_FORMATS.has(String(schema.format)))
      out.push(`${at}: string without maxLength`);
  }
  if (
    (types.includes('integer') || types.includes('number')) &&
    (schema.minimum === undefined || schema.maximum === undefined)
  ) {
    out.push(`${at}: number without minimum and maximum`);
  }
  if (types.includes('array')) {
    if (schema.maxItems === undefined) out.push(`${at}: array without maxItems`);
    if (schema.items) unbounded(schema.items as Schema, `${at}/items`, inBody, out, seen);
  }
  if (types.includes('object')) {
    // A map (metadata) is bounded by its number of keys, the keys' length and its values' own bounds.
    const extra = schema.additionalProperties;
    const map = typeof extra === 'object' && extra !== null ? (extra as Schema) : undefined;
    if (map) {
      const names = (schema.propertyNames ?? {}) as Schema;
      if (schema.maxProperties === undefined || names.maxLength === undefined)
        out.push(`${at}: map without maxProperties and propertyNames.maxLength`);
      unbounded(map, `${at}/additionalProperties`, inBody, out, seen);
    } else if (inBody && extra !== false) out.push(`${at}: object that accepts unknown fields`);
    for (const [key, prop] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      unbounded(prop, `${at}/${key}`, inBody, out, seen);
    }
  }
  return out;
}

describe('input limits of the contract', () => {
  const cases = contractOperations().map(
    ({ operation, pathItem }) => [operation.operationId, operation, pathItem] as const,
  );

  it.each(cases)('%s bounds every parameter and body field', (id, operation, pathItem) => {
    const problems: string[] = [];
    const params = [...((pathItem.parameters ?? []) as Schema[]), ...((operation.parameters ?? []) as Schema[])].map(
      resolve,
    );
    for (const p of params) unbounded(p.schema as Schema, `${id} ${p.in} ${p.name}`, false, problems);
    const body = operation.requestBody as
      | { content: Record<string, { schema: Schema }>; 'x-raw-body-max-bytes'?: number }
      | undefined;
    // A body its handler reads as bytes (a signed webhook, a raw email) is bounded by its size; its schema describes
    // another system's format (the WhatsApp Cloud API's, which adds fields over time), so it is not closed.
    const raw = body?.['x-raw-body-max-bytes'];
    if (raw !== undefined) expect(raw).toBeGreaterThan(0);
    else
      for (const [type, media] of Object.entries(body?.content ?? {}))
        unbounded(media.schema, `${id} body ${type}`, true, problems);
    expect(problems).toEqual([]);
  });

  it('finds an unbounded input when there is one', () => {
    expect(unbounded({ type: 'object', properties: { a: { type: 'string' } } }, 'x', true, [])).toEqual([
      'x: object that accepts unknown fields',
      'x/a: string without maxLength',
    ]);
  });
});
