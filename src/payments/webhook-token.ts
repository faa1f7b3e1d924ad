// The path segment of a company's payment webhook address ({PUBLIC_URL}/api/v1/payment-webhooks/mollie/{token}):
// the company's id (16 bytes, base64url) and a random part, made when the provider is first connected and kept
// when its key changes (payments still open at the provider post to the address they were created with). The
// company part lets the webhook read as that company (row-level security stays forced); the random part, compared
// in constant time with the stored token, keeps anyone who knows a company's id from making the service call its
// provider. The token grants nothing else: a webhook only makes the service fetch a payment it created itself.
import { randomBytes, timingSafeEqual } from 'node:crypto';

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

export function newWebhookToken(companyId: string): string {
  return `${uuidBytes(companyId).toString('base64url')}.${randomBytes(24).toString('base64url')}`;
}

/** The company a well-formed token names (not yet checked against the stored token), else null. */
export function companyOfWebhookToken(token: string): string | null {
  const [company, secret, ...rest] = token.split('.');
  if (rest.length > 0 || !company || !secret || !/^[A-Za-z0-9_-]{32}$/.test(secret)) return null;
  const bytes = Buffer.from(company, 'base64url');
  if (bytes.length !== 16 || bytes.toString('base64url') !== company) return null;
  return uuidText(bytes);
}

export function sameWebhookToken(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
