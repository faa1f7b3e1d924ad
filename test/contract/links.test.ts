// Every creation says where its record can be read and acted on: the 201 of each POST that creates a record has
// OpenAPI Link Objects, so generators and fuzzers can follow a created record to its operations. Each link names
// an operation of the contract and gives every path parameter of that operation, from the creating request's path
// or from the created record in the response (which the 201's example must hold).
import { describe, expect, it } from 'vitest';
import { contract, contractOperations } from '../harness/contract.ts';

type Link = { operationId?: string; operationRef?: string; parameters?: Record<string, string> };
type Media = { examples?: Record<string, { value?: unknown }> };
type Response = { links?: Record<string, Link>; content?: Record<string, Media> };

const operations = contractOperations();
const byId = new Map(operations.map((o) => [o.operation.operationId, o]));
const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
const creations = operations.filter((o) => o.method === 'post' && o.operation.responses['201'] !== undefined);

/** The value at a JSON pointer (RFC 6901) of `value`. */
function at(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      value,
    );
}

describe('links from creations', () => {
  it('covers the creations of every resource', () => {
    expect(creations.length).toBeGreaterThanOrEqual(20);
  });

  for (const { operation, path } of creations) {
    const id = operation.operationId;
    const response = operation.responses['201'] as Response;

    it(`${id}: its 201 links to operations of the contract with every path parameter they need`, () => {
      const links = Object.entries(response.links ?? {});
      expect(links.length, `${id} has no links`).toBeGreaterThan(0);
      const examples = Object.values(response.content?.['application/json']?.examples ?? {}).map((e) => e.value);
      expect(examples.length, `${id}'s 201 has an example`).toBeGreaterThan(0);
      for (const [name, link] of links) {
        expect(link.operationRef, `${id} → ${name}`).toBeUndefined();
        const target = byId.get(link.operationId ?? '');
        expect(target, `${id} → ${name}: operationId ${link.operationId} exists`).toBeDefined();
        if (!target) continue;
        const parameters = link.parameters ?? {};
        expect(Object.keys(parameters).sort(), `${id} → ${name}`).toEqual(pathParams(target.path).sort());
        for (const [param, expression] of Object.entries(parameters)) {
          const fromRequest = expression.match(/^\$request\.path\.(\w+)$/);
          const fromBody = expression.match(/^\$response\.body#(\/.*)$/);
          expect(fromRequest ?? fromBody, `${id} → ${name}.${param}: ${expression}`).not.toBeNull();
          if (fromRequest) expect(pathParams(path), `${id} → ${name}.${param}`).toContain(fromRequest[1]);
          if (fromBody)
            for (const example of examples)
              expect(typeof at(example, fromBody[1]), `${id} → ${name}.${param}: ${expression}`).toBe('string');
        }
      }
    });
  }

  it('links each record with its own path to its reads and actions (every operation on that path)', () => {
    for (const { operation, path } of creations) {
      const links = Object.values((operation.responses['201'] as Response).links ?? {});
      const ownPath = Object.keys(contract.paths).find((p) => new RegExp(`^${path}/\\{\\w+\\}$`).test(p));
      if (!ownPath) continue;
      const onRecord = operations.filter((o) => o.path === ownPath).map((o) => o.operation.operationId);
      expect(
        links.map((l) => l.operationId),
        operation.operationId,
      ).toEqual(expect.arrayContaining(onRecord));
    }
  });
});
