// The anti-abuse limits on outgoing messages (specification "Limits"): 250 per hour per company, shared by the
// inbox and the quote, invoice and review-request emails; 20 per hour per conversation through the API. Counted
// in PostgreSQL per clock hour, so every API node agrees; a count is taken in the caller's transaction, so a
// message that is not sent (the transaction rolls back) is not counted.
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/tenant.ts';

export const COMPANY_MESSAGES_PER_HOUR = 250;

export type OutgoingScope = { scope: string; limit: number };

/** The company-wide scope every outgoing message counts in. */
export const COMPANY_SCOPE: OutgoingScope = { scope: 'company', limit: COMPANY_MESSAGES_PER_HOUR };

export type OutgoingDecision =
  | { allowed: true }
  | { allowed: false; scope: string; limit: number; retryAfterSeconds: number };

/**
 * Counts `messages` more in each scope for the current hour, or refuses when that would pass a scope's limit
 * (then nothing is counted: the caller answers 429 `rate_limited` with Retry-After and rolls back). Scopes are
 * counted in the order given, in one round trip; the row lock of each serializes concurrent senders of one company.
 */
export async function countOutgoing(
  tx: Tx,
  companyId: string,
  scopes: OutgoingScope[],
  messages = 1,
): Promise<OutgoingDecision> {
  // Sent together (one round trip), in the order given; a scope after a refused one is counted too, and rolled
  // back with it.
  const counted = await Promise.all(
    scopes.map(({ scope }) =>
      tx.execute<{ count: number; rest: number }>(sql`
      insert into outgoing_message_counts (company_id, scope, hour_start, count)
      values (${companyId}, ${scope}, date_trunc('hour', now()), ${messages})
      on conflict (company_id, scope, hour_start) do update set count = outgoing_message_counts.count + excluded.count
      returning count, ceil(extract(epoch from date_trunc('hour', now()) + interval '1 hour' - now()))::int as rest
    `),
    ),
  );
  for (const [i, { scope, limit }] of scopes.entries()) {
    const row = counted[i]?.[0];
    if (row && row.count > limit) {
      return { allowed: false, scope, limit, retryAfterSeconds: Math.max(1, row.rest) };
    }
  }
  return { allowed: true };
}
