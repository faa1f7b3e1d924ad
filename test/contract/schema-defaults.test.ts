// Every `default` in the contract is valid against its own schema (a generator or a client that sends the default
// must not be refused). Spectral's oas3-valid-schema-example checked this along with the examples, at about 30 s
// of CPU per run; the examples are checked by redocly lint (no-invalid-*-examples, see redocly.yaml), so
// .spectral.yaml leaves both example rules to these two.
import { expect, it } from 'vitest';
import { contract, problemsAt } from '../harness/contract.ts';

/** JSON pointers of the schemas with a `default` (not a `default` response, nor a property named default). */
function schemasWithDefaults(node: unknown, pointer: string, found: string[]): string[] {
  if (node === null || typeof node !== 'object') return found;
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) schemasWithDefaults(item, `${pointer}/${i}`, found);
    return found;
  }
  const record = node as Record<string, unknown>;
  const isSchema = ['type', 'enum', 'format', '$ref', 'properties', 'items', 'const'].some((k) => k in record);
  if (isSchema && 'default' in record) found.push(pointer);
  for (const [key, value] of Object.entries(record)) {
    // Examples are data, not schemas; under responses and properties `default` is a name.
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    if ((key === 'responses' || key === 'properties') && value && typeof value === 'object') {
      for (const [name, inner] of Object.entries(value))
        schemasWithDefaults(inner, `${pointer}/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
      continue;
    }
    schemasWithDefaults(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found);
  }
  return found;
}

it('every default in the contract is valid against its schema', () => {
  const pointers = schemasWithDefaults(contract, '', []);
  expect(pointers.length).toBeGreaterThan(20);
  const at = (pointer: string) =>
    pointer
      .split('/')
      .slice(1)
      .reduce<unknown>(
        (node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        contract,
      );
  const invalid = pointers.flatMap((pointer) =>
    problemsAt(pointer, (at(pointer) as { default: unknown }).default).map((problem) => `${pointer}: ${problem}`),
  );
  expect(invalid).toEqual([]);
});

it('a wrong default is found (the check can fail)', () => {
  const pointer = schemasWithDefaults(contract, '', []).find((p) => p.startsWith('/components/parameters'));
  expect(pointer).toBeDefined();
  expect(problemsAt(pointer as string, { not: 'a default' })).not.toEqual([]);
});
