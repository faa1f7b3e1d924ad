// Ids: UUID v7 for records (time-ordered, good for B-tree locality); prefixed base62 for the rest.
import { randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

export const newId = (): string => v7();

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `prefix_` + 22 base62 characters: 48 bits of milliseconds then 80 random bits, so ids sort by time. */
export function prefixedId(prefix: string): string {
  const bytes = Buffer.concat([Buffer.alloc(6), randomBytes(10)]);
  bytes.writeUIntBE(Date.now(), 0, 6);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < 22; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return `${prefix}_${out}`;
}
