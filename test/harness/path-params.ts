// Well-formed values for every path parameter of the contract (the one map: a new resource whose ids are not
// UUIDs adds its parameter here). Checks that run before a record is looked up (auth, scope, 501) need only
// the format; the record does not exist.
import { randomUUID } from 'node:crypto';
import { type OperationId, operations } from '../../generated/operations.ts';

const NOT_UUIDS: Record<string, () => string> = {
  endpoint: () => 'we_0123456789abcdef',
  delivery: () => 'wd_0123456789abcdef',
  event: () => 'evt_0123456789abcdef',
  token: () => 'abcdefghijklmnopqrstuvwxyz',
  widget_id: () => 'wid_0123456789abcdef',
};

/** A well-formed value of the path parameter `name`. */
export const wellFormedParam = (name: string): string => (NOT_UUIDS[name] ?? randomUUID)();

/** Well-formed values for every path parameter of the operation. */
export function wellFormedParams(id: OperationId): Record<string, string> {
  const names = [...operations[id].path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  return Object.fromEntries(names.map((name) => [name, wellFormedParam(name)]));
}
