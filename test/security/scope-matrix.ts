// The scope row of the security matrix for one operation, shared by auth-matrix.test.ts (every operation)
// and the gates' own test (an app whose pipeline skips the scope check must fail it).
import { type OperationId, operations } from '../../generated/operations.ts';
import type { CallOptions, CallResult } from '../harness/api.ts';
import { wellFormedParams } from '../harness/path-params.ts';

export type Caller = (id: OperationId, opts: CallOptions) => Promise<CallResult>;

/** A request of the operation with well-formed path parameters and, where it takes one, an empty body. */
export function request(id: OperationId, key: string | null, extra: CallOptions = {}): [OperationId, CallOptions] {
  const op = operations[id];
  // The auth checks run before the record is looked up: well-formed values suffice.
  return [id, { key, params: wellFormedParams(id), ...(op.hasBody ? { body: {} } : {}), ...extra }];
}

/**
 * What is wrong with the answer to a key that has every scope but the operation's own: it must be a 403
 * insufficient_scope naming exactly that scope. Empty when the operation checks its scope.
 */
export async function scopeRefusalProblems(call: Caller, id: OperationId, keyWithoutScope: string): Promise<string[]> {
  const scope = operations[id].scope;
  if (scope === null) return [];
  const result = await call(...request(id, keyWithoutScope));
  const body = (result.body ?? {}) as { code?: string; required_scope?: string; status?: number };
  const problems: string[] = [];
  if (result.status !== 403 || body.code !== 'insufficient_scope')
    problems.push(
      `${id} without ${scope} answered ${result.status} ${body.code ?? ''}, expected 403 insufficient_scope`,
    );
  else if (body.required_scope !== scope)
    problems.push(`${id} named required_scope ${body.required_scope}, expected ${scope}`);
  return problems;
}
