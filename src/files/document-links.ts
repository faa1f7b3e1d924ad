// The online quote and invoice: `{PUBLIC_URL}/quote/{token}` and `{PUBLIC_URL}/invoice/{token}` name one document of
// one company and need no key. The token is the kind, the company and the document (33 bytes) with an HMAC-SHA256
// over them (the first 16 bytes), both base64url. It has no expiry: the link in an email works as long as the
// document exists. Whoever changes a bit of it gets the page of a link that never existed (the verifier answers
// only "valid" or "not"). The key is derived from the installation's link secret for this one use.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type DocumentKind = 'quote' | 'invoice';

/** What a document link names. */
export type LinkedDocument = { kind: DocumentKind; companyId: string; documentId: string };

const KINDS: readonly DocumentKind[] = ['quote', 'invoice'];
const SIGNATURE_BYTES = 16;

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

const linkKey = (secret: string) => createHmac('sha256', secret).update('crm document links v1').digest();
const sign = (key: Buffer, payload: Buffer) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);

export class DocumentLinks {
  private readonly key: Buffer;
  /** The key before a rotation, still accepted (never used to sign). */
  private readonly previousKey: Buffer | undefined;

  /**
   * @param secret the installation's link secret (src/files/link-secret.ts).
   * @param publicUrl the service's public address; pages are served at `{publicUrl}/quote/…` and `/invoice/…`.
   * @param previous the secret before a rotation, still accepted.
   */
  constructor(
    secret: string,
    private readonly publicUrl: string,
    previous?: string,
  ) {
    this.key = linkKey(secret);
    this.previousKey = previous === undefined ? undefined : linkKey(previous);
  }

  url(document: LinkedDocument): string {
    return `${this.publicUrl}/${document.kind}/${this.token(document)}`;
  }

  token({ kind, companyId, documentId }: LinkedDocument): string {
    const payload = Buffer.alloc(33);
    payload.writeUInt8(KINDS.indexOf(kind), 0);
    uuidBytes(companyId).copy(payload, 1);
    uuidBytes(documentId).copy(payload, 17);
    return `${payload.toString('base64url')}.${sign(this.key, payload).toString('base64url')}`;
  }

  /** The document a token of this kind names, or null for one that is malformed, altered or of another kind. */
  verify(kind: DocumentKind, token: string): LinkedDocument | null {
    const [encoded, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !encoded || !signature) return null;
    const payload = Buffer.from(encoded, 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (payload.length !== 33 || payload.toString('base64url') !== encoded) return null;
    if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== signature) return null;
    const signedBy = (key: Buffer) => timingSafeEqual(given, sign(key, payload));
    if (!signedBy(this.key) && !(this.previousKey && signedBy(this.previousKey))) return null;
    if (KINDS[payload.readUInt8(0)] !== kind) return null;
    return { kind, companyId: uuidText(payload.subarray(1, 17)), documentId: uuidText(payload.subarray(17, 33)) };
  }
}
