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

export class FileLinks {
  private readonly key: Buffer;

  /**
   * @param secret FILE_LINK_SECRET; the signing key is derived from it for this one use, so the same secret used
   *   elsewhere signs nothing a link would accept.
   * @param baseUrl where `GET /files/{token}` is served, e.g. `https://crm.example.com/api/v1/files`.
   */
  constructor(
    secret: string,
    private readonly baseUrl: string,
  ) {
    this.key = createHmac('sha256', secret).update('crm file links v1').digest();
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
    return `${payload.toString('base64url')}.${this.sign(payload).toString('base64url')}`;
  }

  /** The file a token names, or null for one that is malformed, altered or expired (not saying which). */
  verify(token: string, now = Date.now()): LinkedFile | null {
    const [encoded, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !encoded || !signature) return null;
    const payload = Buffer.from(encoded, 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (payload.length !== 36 || payload.toString('base64url') !== encoded) return null;
    const expected = this.sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (payload.readUInt32BE(32) * 1000 <= now) return null;
    return { companyId: uuidText(payload.subarray(0, 16)), fileId: uuidText(payload.subarray(16, 32)) };
  }

  private sign(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }
}
