// The contract holds every operation of the specification's endpoint table (same method and path), and
// every operation has what integrators and our generators rely on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contract, contractOperations } from '../harness/contract.ts';

// The specification's endpoint table, copied into the repository: tests read nothing outside it.
const SPEC = new URL('../fixtures/endpoint-table.md', import.meta.url);

function endpointTable(): { method: string; path: string; scope: string }[] {
  const rows = readFileSync(SPEC, 'utf8').match(/^\| (GET|POST|PATCH|PUT|DELETE) \| (\/[^ |]*) \| ([^|]+) \|/gm) ?? [];
  return rows.map((row) => {
    const [, method, path, scope] = row.match(/^\| (\w+) \| (\S+) \| ([^|]+) \|/) ?? [];
    return { method: method.toLowerCase(), path, scope: scope.trim() };
  });
}

describe('the contract against the specification', () => {
  const table = endpointTable();
  const ops = contractOperations();
  // Parameter names may differ from the specification's: compare paths with parameters blanked out.
  const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

  it('reads the 77 operations of the endpoint table', () => {
    expect(table).toHaveLength(77);
  });

  it.each(table.map((row) => [`${row.method.toUpperCase()} ${row.path}`, row] as const))('has %s', (_name, row) => {
    const found = ops.find((o) => o.method === row.method && shape(o.path) === shape(row.path));
    expect(found, `${row.method} ${row.path} missing`).toBeDefined();
    const scope = found?.operation['x-required-scope'];
    if (row.scope.startsWith('none')) expect(scope).toBe('none');
    else if (!row.scope.startsWith('per open items')) expect(scope).toBe(row.scope);
  });

  it('adds at least 25 operations for the open items', () => {
    expect(ops.length - table.length).toBeGreaterThanOrEqual(25);
  });

  it.each(ops.map((o) => [o.operation.operationId, o] as const))('%s is complete', (_id, { operation }) => {
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect((operation.tags as string[]).length).toBe(1);
    expect(operation.summary).toBeTruthy();
    expect(operation.description).toBeTruthy();
    expect(operation.security).toBeDefined();
    expect(operation['x-required-scope']).toBeTruthy();
    const statuses = Object.keys(operation.responses);
    expect(statuses.some((s) => s.startsWith('2'))).toBe(true);
    expect(statuses).toContain('500');
    if ((operation.security as unknown[]).length > 0)
      expect(statuses).toEqual(expect.arrayContaining(['401', '403', '429']));
  });

  it('documents every event type as a webhook, plus ping', () => {
    // The event types are the contract's EventType enum (one list); each has its webhook, and ping is the extra one.
    const eventTypes = (contract.components.schemas.EventType as { enum: string[] }).enum;
    expect(eventTypes.length).toBeGreaterThanOrEqual(33);
    expect(Object.keys(contract.webhooks ?? {}).sort()).toEqual([...eventTypes, 'ping'].sort());
  });
});
