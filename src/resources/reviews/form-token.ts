// The review form's protection against cross-site request forgery: the page sets a random nonce in a cookie
// (HttpOnly, SameSite=Strict, scoped to the page's path) and puts a signed token in the form binding that nonce to
// the request and the time it was issued. A POST is accepted only with both, and they must match: another site can
// neither read the token nor send the cookie. The token's key is derived from the installation's link secret (src/files/link-secret.ts) for this one use; a form
// signed with the secret before a rotation stays valid.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a form stays usable after the page was opened. */
export const FORM_SECONDS = 24 * 3600;

export const FORM_COOKIE = 'review_form';

const formKey = (secret: string) => createHmac('sha256', secret).update('crm review forms v1').digest();

export class ReviewFormTokens {
  private readonly key: Buffer;
  private readonly previousKey: Buffer | undefined;

  constructor(secret: string, previous?: string) {
    this.key = formKey(secret);
    this.previousKey = previous === undefined ? undefined : formKey(previous);
  }

  newNonce(): string {
    return randomBytes(18).toString('base64url');
  }

  /** The form's token for this request and nonce, issued at `now`. */
  issue(requestId: string, nonce: string, now = Date.now()): string {
    const issuedAt = Math.floor(now / 1000);
    return `${issuedAt}.${this.sign(requestId, nonce, issuedAt)}`;
  }

  /** Whether `token` was issued for this request and nonce less than FORM_SECONDS ago. */
  verify(token: string, requestId: string, nonce: string | undefined, now = Date.now()): boolean {
    if (!nonce) return false;
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match?.[1] || !match[2]) return false;
    const issuedAt = Number(match[1]);
    const age = Math.floor(now / 1000) - issuedAt;
    if (age < 0 || age > FORM_SECONDS) return false;
    const given = Buffer.from(match[2], 'base64url');
    const signedBy = (key: Buffer) => {
      const expected = Buffer.from(sign(key, requestId, nonce, issuedAt), 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    return signedBy(this.key) || (this.previousKey !== undefined && signedBy(this.previousKey));
  }

  private sign(requestId: string, nonce: string, issuedAt: number): string {
    return sign(this.key, requestId, nonce, issuedAt);
  }
}

const sign = (key: Buffer, requestId: string, nonce: string, issuedAt: number): string =>
  createHmac('sha256', key).update(`${requestId}\n${nonce}\n${issuedAt}`).digest('base64url');
