// Ids: UUID v7 for records (time-ordered, good for B-tree locality); prefixed base62 for the rest.
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

export const newId = (): string => v7();

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGITS = 22;

/**
 * Random bytes drawn 4 KiB at a time (409 ids' worth): a call into the generator for every new millisecond was 2% of
 * the API process's CPU for a GET (scripts/bench/README.md, issue 50). The same generator, fewer calls.
 */
const RANDOM_POOL = Buffer.alloc(4090);
let poolAt = RANDOM_POOL.length;
function tenRandomBytes(): Buffer {
  if (poolAt === RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    poolAt = 0;
  }
  poolAt += 10;
  return RANDOM_POOL.subarray(poolAt - 10, poolAt);
}

let lastMs = 0;
/** The 80 random bits of the last id, as five 16-bit limbs, most significant first. */
const lastRandom = new Uint16Array(5);
/** The 128-bit number being encoded, as eight 16-bit limbs (reused: this runs for every delivery). */
const limbs = new Uint16Array(8);

/**
 * `prefix_` + 22 base62 characters: 48 bits of milliseconds then 80 random bits, so ids sort by time. Within
 * one millisecond the random part counts up from the previous id (as monotonic ULIDs do), so ids made one
 * after another in a process also sort in that order: events recorded in one transaction share their
 * created_at and are listed in the order they happened (byte by byte: their columns are COLLATE "C", see
 * prefixedIdColumn in src/db/schema/columns.ts).
 *
 * Plain numbers in 16-bit limbs rather than BigInt: the webhook worker makes two ids per delivery, and the
 * BigInt version was 1.5% of its thread in the webhooks bench (test/platform/ids.test.ts checks it against BigInt arithmetic).
 */
export function prefixedId(prefix: string): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    const bytes = tenRandomBytes();
    for (let i = 0; i < 5; i++) lastRandom[i] = bytes.readUInt16BE(2 * i);
  } else {
    // Counts up with carry; all ones wraps to zero (modulo 2^80).
    for (let i = 4; i >= 0; i--) {
      lastRandom[i] = ((lastRandom[i] as number) + 1) & 0xffff;
      if (lastRandom[i] !== 0) break;
    }
  }
  limbs[0] = Math.floor(lastMs / 2 ** 32) & 0xffff;
  limbs[1] = Math.floor(lastMs / 2 ** 16) & 0xffff;
  limbs[2] = lastMs & 0xffff;
  limbs.set(lastRandom, 3);
  return `${prefix}_${base62(limbs)}`;
}

/** The 22 base62 digits of the number in `n` (consumed: divided down to zero), by long division. */
function base62(n: Uint16Array): string {
  let out = '';
  for (let d = 0; d < DIGITS; d++) {
    let rest = 0;
    for (let i = 0; i < n.length; i++) {
      const value = rest * 0x10000 + (n[i] as number);
      n[i] = Math.floor(value / 62);
      rest = value % 62;
    }
    out = ALPHABET[rest] + out;
  }
  return out;
}
