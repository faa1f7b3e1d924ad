// Standard Webhooks signatures: base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the base64-decoded
// part of the secret after `whsec_`; one `v1,<sig>` entry per valid secret (two during a rotation overlap).
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${sign(secret, id, timestamp, body)}`).join(' ');
}
