// Each creating operation's Idempotency-Key gets an example of its own. The header is one shared parameter
// (components.parameters.IdempotencyKey) and a reference cannot carry an example, so every operation shared one
// example key: a client or fuzzer that replays the contract's examples sent the same key to a second operation and
// got `422 idempotency_key_reused`. `npm run generate` writes the parameter out in each operation but the first
// (which keeps the reference, so the component stays in use) with an example derived from the operationId; its
// texts come from the component, already in the bundle's language. check:i18n folds the copies back into references:
// translations follow the component's one text.
import { createHash } from 'node:crypto';

const REF = '#/components/parameters/IdempotencyKey';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Parameter = { name?: string; in?: string; example?: unknown; $ref?: string; [key: string]: unknown };
type Operation = { operationId?: string; parameters?: Parameter[] };
type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components?: { parameters?: Record<string, Parameter> };
};

/** A stable UUID-shaped key for the operation (version 4 layout, from a SHA-256 of its operationId). */
export function exampleKeyOf(operationId: string): string {
  const hex = createHash('sha256').update(`Idempotency-Key ${operationId}`).digest('hex');
  const variant = ((Number.parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function* operations(doc: Doc): Generator<Operation> {
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (op?.parameters) yield op;
    }
  }
}

const isIdempotencyKey = (p: Parameter) => p.$ref === REF || (p.in === 'header' && p.name === 'Idempotency-Key');

/** Writes the Idempotency-Key parameter out in every operation but the first, each with its own example. */
export function exampleKeyPerOperation<D extends Doc>(doc: D): D {
  const shared = doc.components?.parameters?.IdempotencyKey;
  if (!shared) return doc;
  let first = true;
  for (const op of operations(doc)) {
    const at = op.parameters?.findIndex(isIdempotencyKey) ?? -1;
    if (at < 0 || !op.parameters || !op.operationId) continue;
    if (first) {
      first = false;
      continue;
    }
    op.parameters[at] = { ...structuredClone(shared), example: exampleKeyOf(op.operationId) };
  }
  return doc;
}

/** The reverse of exampleKeyPerOperation: every operation refers to the shared parameter again. */
export function sharedIdempotencyKey<D extends Doc>(doc: D): D {
  for (const op of operations(doc)) {
    const at = op.parameters?.findIndex(isIdempotencyKey) ?? -1;
    if (at >= 0 && op.parameters) op.parameters[at] = { $ref: REF };
  }
  return doc;
}
