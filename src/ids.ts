// Ids: UUID v7 for records (time-ordered, good for B-tree locality); prefixed base62 for the rest.
import { randomBytes } from 'node:crypto';
import { v7 } from 'uuid';

export const newId = (): string => v7();

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

let lastMs = 0;
let lastRandom = 0n;
const RANDOM_LIMIT = 1n << 80n;

/**
 * `prefix_` + 22 base62 characters: 48 bits of milliseconds then 80 random bits, so ids sort by time. Within
 * one millisecond the random part counts up from the previous id (as monotonic ULIDs do), so ids made one
 * after another in a process also sort in that order: events recorded in one transaction share their
 * created_at and are listed in the order they happened.
 */
export function prefixedId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    lastRandom = BigInt(`0x${randomBytes(10).toString('hex')}`);
  } else {
    lastRandom = (lastRandom + 1n) % RANDOM_LIMIT;
  }
  let n = (BigInt(lastMs) << 80n) | lastRandom;
  let out = '';
  for (let i = 0; i < 22; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return `${prefix}_${out}`;
}
