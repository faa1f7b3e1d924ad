// The one refusal of an outgoing message past its limit (inbox, quote and invoice emails, review requests,
// appointment messages): counted in PostgreSQL in the caller's transaction (src/mail/outgoing-limit.ts), then
// 429 `rate_limited` with Retry-After until the hour's end. Each resource words its own detail.
import type { Tx } from '../db/tenant.ts';
import { countOutgoing, type OutgoingScope } from '../mail/outgoing-limit.ts';
import type { Message } from './message-catalogue.ts';
import { ApiProblem } from './problems.ts';

/** The scope and limit a refused message would have passed. */
export type OutgoingRefusal = { scope: string; limit: number };

/**
 * Counts one more outgoing message in each scope, or throws 429 `rate_limited` with Retry-After (the seconds
 * left in the hour) and `detail` of the scope it would pass; the caller's transaction, with its count, rolls back.
 */
export async function countOutgoingMessage(
  tx: Tx,
  companyId: string,
  scopes: OutgoingScope[],
  detail: (refusal: OutgoingRefusal) => Message,
): Promise<void> {
  const decision = await countOutgoing(tx, companyId, scopes);
  if (decision.allowed) return;
  throw new ApiProblem(
    'rate_limited',
    detail({ scope: decision.scope, limit: decision.limit }),
    {},
    { 'Retry-After': String(decision.retryAfterSeconds) },
  );
}
