// The public pages' forms (the review form, the online quote's answer) and their protection against cross-site
// request forgery: the page sets a random nonce in a cookie (HttpOnly, SameSite=Strict, scoped to the page's path)
// and puts a signed token in the form binding that nonce to the record and the time it was issued. A POST is
// accepted only with both, and they must match: another site can neither read the token nor send the cookie. The
// token's key is derived from the installation's link secret (src/files/link-secret.ts) for each kind of form, so
// one page's token is worth nothing on another; a form signed with the secret before a rotation stays valid.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a form stays usable after the page was opened. */
export const FORM_SECONDS = 24 * 3600;

/** What a nonce cookie may hold (an earlier visit's is kept, so a form open in another tab stays valid). */
export const NONCE = /^[A-Za-z0-9_-]{24}$/;

const formKey = (secret: string, kind: string) => createHmac('sha256', secret).update(`crm ${kind} forms v1`).digest();

export class FormTokens {
  private readonly key: Buffer;
  private readonly previousKey: Buffer | undefined;

  /** @param kind the kind of form (`review`, `quote`): its tokens are signed with a key of their own. */
  constructor(kind: string, secret: string, previous?: string) {
    this.key = formKey(secret, kind);
    this.previousKey = previous === undefined ? undefined : formKey(previous, kind);
  }

  newNonce(): string {
    return randomBytes(18).toString('base64url');
  }

  /** The form's token for this record and nonce, issued at `now`. */
  issue(recordId: string, nonce: string, now = Date.now()): string {
    const issuedAt = Math.floor(now / 1000);
    return `${issuedAt}.${this.sign(recordId, nonce, issuedAt)}`;
  }

  /** Whether `token` was issued for this record and nonce less than FORM_SECONDS ago. */
  verify(token: string, recordId: string, nonce: string | undefined, now = Date.now()): boolean {
    if (!nonce) return false;
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match?.[1] || !match[2]) return false;
    const issuedAt = Number(match[1]);
    const age = Math.floor(now / 1000) - issuedAt;
    if (age < 0 || age > FORM_SECONDS) return false;
    const given = Buffer.from(match[2], 'base64url');
    const signedBy = (key: Buffer) => {
      const expected = Buffer.from(sign(key, recordId, nonce, issuedAt), 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    return signedBy(this.key) || (this.previousKey !== undefined && signedBy(this.previousKey));
  }

  private sign(recordId: string, nonce: string, issuedAt: number): string {
    return sign(this.key, recordId, nonce, issuedAt);
  }
}

const sign = (key: Buffer, recordId: string, nonce: string, issuedAt: number): string =>
  createHmac('sha256', key).update(`${recordId}\n${nonce}\n${issuedAt}`).digest('base64url');
