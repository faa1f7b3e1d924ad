// A webhook message's Standard Webhooks signature, checked on the raw body with the headers as any server gives
// them: node:http and Express (IncomingHttpHeaders), Fastify, Hono (`c.req.header()` or `c.req.raw.headers`) and
// the Fetch API (Headers).
import { Webhook } from 'standardwebhooks';
import type { components } from '../../generated/client-api.d.ts';

/** The Fetch API's Headers, or anything else that answers `get(name)`. */
export type HeadersLike = { get(name: string): string | null };
/** Headers as node:http, Express and Fastify give them (`req.headers`), or a plain object of strings (Hono). */
export type HeaderRecord = { [name: string]: string | string[] | number | undefined };
export type WebhookHeaders = HeadersLike | HeaderRecord;

const SIGNED = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** The three Standard Webhooks headers, whatever their case and container. */
function signedHeaders(headers: WebhookHeaders): Record<string, string> {
  const plain: Record<string, string> = {};
  if (typeof headers.get === 'function') {
    const like = headers as HeadersLike;
    for (const name of SIGNED) plain[name] = like.get(name) ?? '';
    return plain;
  }
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  for (const name of SIGNED) {
    const value = lower.get(name);
    plain[name] = Array.isArray(value) ? value.join(' ') : value === undefined ? '' : String(value);
  }
  return plain;
}

/**
 * Checks a webhook message's signature (and its timestamp: at most 5 minutes off) on the raw body, and answers the
 * parsed event; throws when the message is not from the service. `body` is the raw body (a string or the bytes).
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): components['schemas']['Event'] {
  const raw = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return new Webhook(secret).verify(raw, signedHeaders(headers)) as components['schemas']['Event'];
}
