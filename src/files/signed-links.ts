// Signed download links: `{PUBLIC_URL}/api/v1/files/{token}` names one file of one company until it expires, and
// needs no API key. The token is the company, the file and the expiry (36 bytes) with an HMAC-SHA256 over them,
// both base64url: whoever changes a bit of it, or keeps it past its time, gets the same 404 as for a file that
// never existed (the verifier answers only "valid" or "not").
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link works after the response that carried it. */
export const LINK_SECONDS = 15 * 60;

/** What a link names. */
export type LinkedFile = { companyId: string; fileId: string };

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (bytes: Buffer) =>
  bytes.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

const linkKey = (secret: string) => createHmac('sha256', secret).update('crm file links v1').digest();

export class FileLinks {
  private readonly key: Buffer;
  /** The key before a rotation, still accepted (never used to sign). */
  private readonly previousKey: Buffer | undefined;

  /**
   * @param secret the installation's link secret (src/files/link-secret.ts); the signing key is derived from it
   *   for this one use, so the same secret used elsewhere signs nothing a link would accept.
   * @param baseUrl where `GET /files/{token}` is served, e.g. `https://crm.example.com/api/v1/files`.
   * @param previous the secret before a rotation, accepted for the links it signed until they expire.
   */
  constructor(
    secret: string,
    private readonly baseUrl: string,
    previous?: string,
  ) {
    this.key = linkKey(secret);
    this.previousKey = previous === undefined ? undefined : linkKey(previous);
  }

  /** A link valid for LINK_SECONDS from `now`. */
  url(file: LinkedFile, now = Date.now()): string {
    return `${this.baseUrl}/${this.token(file, Math.floor(now / 1000) + LINK_SECONDS)}`;
  }

  /** The token of a link expiring at `expiresAt` (Unix seconds). */
  token({ companyId, fileId }: LinkedFile, expiresAt: number): string {
    const payload = Buffer.alloc(36);
    uuidBytes(companyId).copy(payload, 0);
    uuidBytes(fileId).copy(payload, 16);
    payload.writeUInt32BE(expiresAt, 32);
    return `${payload.toString('base64url')}.${sign(this.key, payload).toString('base64url')}`;
  }

  /** The file a token names, or null for one that is malformed, altered or expired (not saying which). */
  verify(token: string, now = Date.now()): LinkedFile | null {
    const [encoded, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !encoded || !signature) return null;
    const payload = Buffer.from(encoded, 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (payload.length !== 36 || payload.toString('base64url') !== encoded) return null;
    const signedBy = (key: Buffer) => {
      const expected = sign(key, payload);
      return given.length === expected.length && timingSafeEqual(given, expected);
    };
    if (!signedBy(this.key) && !(this.previousKey && signedBy(this.previousKey))) return null;
    if (payload.readUInt32BE(32) * 1000 <= now) return null;
    return { companyId: uuidText(payload.subarray(0, 16)), fileId: uuidText(payload.subarray(16, 32)) };
  }
}

const sign = (key: Buffer, payload: Buffer): Buffer => createHmac('sha256', key).update(payload).digest();
