// The endpoint as it is now, for a message whose read has grown old while it waited for its turn. A delivery job
// reads its endpoint once, with its deliveries; behind a slow receiver (16 requests in flight, up to 10 s each)
// its later messages can wait minutes, while the endpoint is deleted, disabled, pointed at another URL or given
// a new secret. Those messages are sent with the endpoint as it is then, or not at all. One read per endpoint at
// a time, shared by the messages that need it and trusted for ENDPOINT_FRESH_MS: at most one extra read per
// second for an endpoint whose messages queue up, none for one that keeps up.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { webhookEndpoints } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import type { SendingEndpoint } from './send.ts';

/** How long a read of an endpoint is trusted for sending (a fan-out's sends start within it, or not at all). */
export const ENDPOINT_FRESH_MS = 1_000;

/** null: deleted (its deliveries with it); 'disabled': receives nothing; `scopes`: what it may receive now. */
export type EndpointNow = (SendingEndpoint & { scopes: string[] }) | 'disabled' | null;

const RECENT_MAX = 1024;

export class EndpointRereads {
  private readonly recent = new Map<string, { at: number; answer: Promise<EndpointNow> }>();

  constructor(private readonly db: Db) {}

  /** The endpoint as it is now, read at most ENDPOINT_FRESH_MS ago. */
  now(companyId: string, endpointId: string): Promise<EndpointNow> {
    const key = `${companyId}/${endpointId}`;
    const now = performance.now();
    const found = this.recent.get(key);
    if (found && now - found.at < ENDPOINT_FRESH_MS) return found.answer;
    if (this.recent.size >= RECENT_MAX) {
      for (const [k, entry] of this.recent) if (now - entry.at >= ENDPOINT_FRESH_MS) this.recent.delete(k);
    }
    const answer = read(this.db, companyId, endpointId);
    this.recent.set(key, { at: now, answer });
    // A failed read is not shared further: the next message asks again.
    answer.catch(() => {
      if (this.recent.get(key)?.answer === answer) this.recent.delete(key);
    });
    return answer;
  }
}

async function read(db: Db, companyId: string, endpointId: string): Promise<EndpointNow> {
  const [row] = await withTenant(db, companyId, (tx) =>
    tx
      .select({
        status: webhookEndpoints.status,
        url: webhookEndpoints.url,
        secret: webhookEndpoints.secret,
        previousSecret: webhookEndpoints.previousSecret,
        previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
        scopes: webhookEndpoints.scopes,
      })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, endpointId))),
  );
  if (!row) return null;
  if (row.status === 'disabled') return 'disabled';
  const { status: _status, ...sending } = row;
  return sending;
}
