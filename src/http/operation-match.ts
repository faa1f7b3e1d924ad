// Finds the contract operation of a request from the generated operation table, so every mechanism that
// depends on the operation (scope, feature, body rules, 404/405) reads the same source.
import { type Operation, type OperationId, operations } from '../../generated/operations.ts';

type Matcher = { id: OperationId; operation: Operation; pattern: RegExp };

const matchers: Matcher[] = (Object.entries(operations) as [OperationId, Operation][]).map(([id, operation]) => ({
  id,
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/**
 * The matchers by the path's first segment (every operation's path starts with a literal one), in the table's order:
 * a request is tested against its resource's handful of patterns, not all of them (3.6% of a GET's CPU, issue 50).
 */
const bySegment = new Map<string, Matcher[]>();
for (const matcher of matchers) {
  const segment = firstSegment(matcher.operation.path);
  if (segment.startsWith('{')) throw new Error(`operation path ${matcher.operation.path} starts with a parameter`);
  bySegment.set(segment, [...(bySegment.get(segment) ?? []), matcher]);
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

export type Match = { found: { id: OperationId; operation: Operation } } | { allowed: string[] } | { none: true };

/** `path` is relative to /api/v1. Literal segments win over parameters (e.g. /customers/x vs /me). */
export function matchOperation(method: string, path: string): Match {
  const candidates = (bySegment.get(firstSegment(path)) ?? []).filter((m) => m.pattern.test(path));
  if (candidates.length === 0) return { none: true };
  const found = candidates.find((m) => m.operation.method === method.toLowerCase());
  if (found) return { found: { id: found.id, operation: found.operation } };
  return { allowed: [...new Set(candidates.map((m) => m.operation.method.toUpperCase()))] };
}
