// API key format: `svc_` + 43 random base62 characters + a 6-character base62 CRC-32 of them (49 after the
// prefix). The checksum lets a mistyped key be refused before any database lookup; only a SHA-256 hash of
// the whole key is stored.
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'svc_';
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const KEY_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const checksumOf = (random: string) => base62(crc32(random), CHECKSUM_LENGTH);

export function generateKey(): string {
  const bytes = randomBytes(RANDOM_LENGTH * 2);
  let random = '';
  for (let i = 0; random.length < RANDOM_LENGTH; i++) {
    // Rejection sampling keeps every character equally likely.
    if (bytes[i] < 248) random += ALPHABET[bytes[i] % 62];
    if (i === bytes.length - 1) return generateKey();
  }
  return `${PREFIX}${random}${checksumOf(random)}`;
}

/** True when the key has the right shape and its checksum matches. */
export function isWellFormedKey(key: string): boolean {
  if (key.length !== KEY_LENGTH || !KEY_PATTERN.test(key)) return false;
  const random = key.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  return checksumOf(random) === key.slice(PREFIX.length + RANDOM_LENGTH);
}

export const hashKey = (key: string): Buffer => createHash('sha256').update(key).digest();
export const keyPrefix = (key: string) => key.slice(0, PREFIX.length + 4);
