// What a client or fuzzer that trusts the contract's schemas and replays its examples meets: the contract refuses
// what the service refuses. Each creating operation's example Idempotency-Key is its own (one shared key made the
// second operation answer 422 idempotency_key_reused); a cursor the service did not make fails the cursor's pattern, and the service
// answers it `invalid_cursor` whichever check finds it.
import { describe, expect, it } from 'vitest';
import { contract, contractOperations } from '../harness/contract.ts';

type Parameter = { $ref?: string; name?: string; in?: string; example?: string; schema?: { pattern?: string } };

const resolve = (p: Parameter): Parameter => {
  if (!p.$ref) return p;
  const name = p.$ref.replace('#/components/parameters/', '');
  return contract.components.parameters[name] as Parameter;
};

const parametersOf = ({ operation, pathItem }: ReturnType<typeof contractOperations>[number]) =>
  [...((pathItem.parameters ?? []) as Parameter[]), ...((operation.parameters ?? []) as Parameter[])].map(resolve);

describe('example Idempotency-Keys', () => {
  const keyed = contractOperations()
    .map((o) => ({ id: o.operation.operationId, key: parametersOf(o).find((p) => p.name === 'Idempotency-Key') }))
    .filter((o) => o.key !== undefined);

  it('every operation that takes one has an example key of its own', () => {
    expect(keyed.length).toBeGreaterThanOrEqual(20);
    const examples = keyed.map((k) => k.key?.example);
    const pattern = new RegExp(keyed[0].key?.schema?.pattern ?? '(?!)');
    expect(examples.filter((e) => typeof e !== 'string' || !pattern.test(e))).toEqual([]);
    expect(new Set(examples).size).toBe(keyed.length);
  });
});

describe('cursors', () => {
  const cursors = contractOperations()
    .map((op) => ({ id: op.operation.operationId, cursor: parametersOf(op).find((p) => p.name === 'cursor') }))
    .filter((op) => op.cursor !== undefined);

  it.each(
    cursors.map((c) => [c.id, c.cursor ?? {}] as const),
  )('%s: its cursor has a pattern its example matches and a made-up cursor does not', (_, cursor) => {
    const pattern = new RegExp(cursor.schema?.pattern ?? '(?!)');
    expect(pattern.test(cursor.example ?? '')).toBe(true);
    for (const madeUp of ['abc', 'kapot', '1', 'bm90LWpzb24', 'eyJzIjoi!']) expect(pattern.test(madeUp)).toBe(false);
  });
});
