// The secret of a review page's address. The page needs no key, yet every read runs as one company (row-level
// security): so the token carries its company's id (16 bytes) before 18 random bytes, base64url. Knowing a
// company's id gives nothing: the random part must match a request of that company.
import { randomBytes } from 'node:crypto';

const UUID_HEX = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

export function newReviewToken(companyId: string): string {
  const hex = companyId.toLowerCase().replace(/-/g, '');
  return Buffer.concat([Buffer.from(hex, 'hex'), randomBytes(18)]).toString('base64url');
}

/** The company a token names, or null for anything that is not a token of ours. */
export function companyOfToken(token: string): string | null {
  if (!/^[A-Za-z0-9_-]{40,60}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== 34) return null;
  const hex = bytes.subarray(0, 16).toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return UUID_HEX.test(id) ? id : null;
}
