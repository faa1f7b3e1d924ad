// Standard Webhooks signatures: base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the base64-decoded
// part of the secret after `whsec_`; one `v1,<sig>` entry per valid secret (two during a rotation overlap).
import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { BoundedCache } from './bounded-cache.ts';

const PREFIX = 'whsec_';

export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** `body` as text or as its UTF-8 bytes (the same signature). */
export function sign(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** Secrets decoded once: every message of an endpoint is signed with the same one or two. */
const keys = new BoundedCache<KeyObject>();

function keyOf(secret: string): KeyObject {
  return keys.get(secret) ?? keys.set(secret, createSecretKey(Buffer.from(secret.slice(PREFIX.length), 'base64')));
}

export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string | Buffer): string {
  return secrets.map((secret) => `v1,${sign(secret, id, timestamp, body)}`).join(' ');
}
