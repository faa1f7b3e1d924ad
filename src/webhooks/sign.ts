// Standard Webhooks signatures: base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the base64-decoded
// part of the secret after `whsec_`; one `v1,<sig>` entry per valid secret (two during a rotation overlap).
import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

/** The HMAC key of a secret (decoded once by a sender, see send.ts: every message of an endpoint uses the same). */
export const signingKey = (secret: string): KeyObject =>
  createSecretKey(Buffer.from(secret.slice(PREFIX.length), 'base64'));

/** `body` as text or as its UTF-8 bytes (the same signature). */
export function sign(key: KeyObject, id: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** One `v1,<sig>` entry per key. */
export function signatureHeader(
  keys: readonly KeyObject[],
  id: string,
  timestamp: number,
  body: string | Buffer,
): string {
  return keys.map((key) => `v1,${sign(key, id, timestamp, body)}`).join(' ');
}
