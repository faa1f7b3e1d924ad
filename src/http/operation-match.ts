// Finds the contract operation of a request from the generated operation table, so every mechanism that
// depends on the operation (scope, feature, body rules, 404/405) reads the same source.
import { type Operation, type OperationId, operations } from '../../generated/operations.ts';

type Matcher = { id: OperationId; operation: Operation; pattern: RegExp };

const matchers: Matcher[] = (Object.entries(operations) as [OperationId, Operation][]).map(([id, operation]) => ({
  id,
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

export type Match = { found: { id: OperationId; operation: Operation } } | { allowed: string[] } | { none: true };

/** `path` is relative to /api/v1. Literal segments win over parameters (e.g. /customers/x vs /me). */
export function matchOperation(method: string, path: string): Match {
  const candidates = matchers.filter((m) => m.pattern.test(path));
  if (candidates.length === 0) return { none: true };
  const found = candidates.find((m) => m.operation.method === method.toLowerCase());
  if (found) return { found: { id: found.id, operation: found.operation } };
  return { allowed: [...new Set(candidates.map((m) => m.operation.method.toUpperCase()))] };
}
