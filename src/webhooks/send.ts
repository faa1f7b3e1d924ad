// Sends one signed message to an endpoint: check the URL again (DNS may have changed since creation), sign
// with every valid secret, POST to exactly the address that was checked, all within the 10-second limit.

import type { KeyObject } from 'node:crypto';
import { promises as dnsPromises } from 'node:dns';
import type { webhookEndpoints } from '../db/schema/index.ts';
import { BoundedCache } from './bounded-cache.ts';
import { ConnectionPools, type PostResult } from './http-post.ts';
import { DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from './schedule.ts';
import { signatureHeader, signingKey } from './sign.ts';
import {
  checkLiteral,
  type LookupAll,
  type ResolveResult,
  resolveAllowed,
  SharedLookups,
  type UrlPolicy,
} from './url-guard.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
/** What sending needs of an endpoint. */
export type SendingEndpoint = Pick<EndpointRow, 'url' | 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>;
export const USER_AGENT = 'Service-Webhooks/1.0';

/** The current secret, plus the previous one while its rotation overlap lasts. */
export function activeSecrets(endpoint: SendingEndpoint, now: Date): string[] {
  const overlap = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return overlap && endpoint.previousSecret ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
}

/**
 * A sender keeps what the same few endpoints need again for every message: their URLs parsed, their secrets
 * decoded, the checks of address URLs, the DNS lookups in flight and the kept-alive connections. The worker has
 * one (in its DeliveryState); a test ping makes its own and closes it.
 */
export class WebhookSender {
  private readonly urls = new BoundedCache<URL>();
  private readonly keys = new BoundedCache<KeyObject>();
  private readonly literalChecks = new BoundedCache<ResolveResult>();
  private readonly lookups = new SharedLookups();
  private readonly pools = new ConnectionPools();

  async send(
    endpoint: SendingEndpoint,
    // The body as bytes when several endpoints get the same one (encoded once, not per request).
    message: { id: string; body: string | Buffer },
    opts: { now: Date; policy: UrlPolicy; lookup?: LookupAll; timeoutMs?: number },
  ): Promise<PostResult> {
    const url = this.urls.get(endpoint.url) ?? this.urls.set(endpoint.url, new URL(endpoint.url));
    // The 10-second limit covers the whole attempt: a hanging DNS lookup counts against it, and the request
    // gets what is left.
    const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    const startedAt = performance.now();
    // An address in the URL needs no lookup, and no timer for one (this runs for every message).
    const resolved =
      checkLiteral(url, opts.policy, this.literalChecks) ??
      (await within(resolveAllowed(url, opts.policy, this.lookups.of(opts.lookup ?? dnsPromises.lookup)), timeoutMs));
    const lookupMs = Math.round(performance.now() - startedAt);
    if (resolved === null) return { statusCode: null, durationMs: lookupMs, error: 'timeout', responseBody: null };
    if (!resolved.ok) {
      return { statusCode: null, durationMs: 0, error: resolved.code, responseBody: null };
    }
    const timestamp = Math.floor(opts.now.getTime() / 1000);
    const keys = activeSecrets(endpoint, opts.now).map(
      (secret) => this.keys.get(secret) ?? this.keys.set(secret, signingKey(secret)),
    );
    return this.pools.post(
      { url, address: resolved.address, family: resolved.family },
      message.body,
      {
        'webhook-id': message.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(keys, message.id, timestamp, message.body),
        'User-Agent': USER_AGENT,
      },
      { timeoutMs: Math.max(1, timeoutMs - lookupMs), maxResponseBytes: RESPONSE_EXCERPT_BYTES },
    );
  }

  /** Closes the kept-alive connections (requests in flight finish first). */
  close(): Promise<void> {
    return this.pools.close();
  }
}

/** The promise's value, or null when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
