// prefixedId's encoding, checked against BigInt arithmetic: 48 bits of milliseconds, then 80 random bits that
// count up within one millisecond (wrapping at 2^80), as 22 base62 digits.
import { afterEach, describe, expect, it, vi } from 'vitest';

const random = vi.hoisted(() => ({ bytes: null as Buffer | null }));
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  // prefixedId draws its random bits from a pool of 409 ids' worth: filled here with the test's bytes, repeated.
  const randomFillSync = (buffer: Buffer) => {
    if (!random.bytes) return actual.randomFillSync(buffer);
    for (let at = 0; at < buffer.length; at += random.bytes.length) random.bytes.copy(buffer, at);
    return buffer;
  };
  return { ...actual, randomFillSync };
});

const { prefixedId } = await import('../../src/ids.ts');

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const decode = (id: string) => {
  const digits = id.slice(id.indexOf('_') + 1);
  expect(digits).toMatch(/^[0-9A-Za-z]{22}$/);
  return [...digits].reduce((n, c) => n * 62n + BigInt(ALPHABET.indexOf(c)), 0n);
};
const parts = (id: string) => ({ ms: Number(decode(id) >> 80n), random: decode(id) & ((1n << 80n) - 1n) });

let clock = Date.UTC(2026, 10, 23);
const tick = () => vi.spyOn(Date, 'now').mockReturnValue(++clock);

/** The next id's random bits are `hex`: the pool is used up (an id per millisecond) and filled with them. */
function nextRandom(hex: string) {
  random.bytes = Buffer.from(hex, 'hex');
  // Past every millisecond an id was made in so far (the tests before may have used the real clock).
  clock = Math.max(clock, Date.now());
  for (let i = 0; i < 409; i++) {
    tick();
    prefixedId('drain');
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  random.bytes = null;
});

describe('prefixedId', () => {
  it('encodes the millisecond and the random bits exactly', () => {
    for (const hex of [
      '00000000000000000000',
      'ffffffffffffffffffff',
      '0123456789abcdef0123',
      '8000000000000000ffff',
    ]) {
      nextRandom(hex);
      tick();
      const id = prefixedId('wd');
      expect(id.startsWith('wd_')).toBe(true);
      expect(parts(id)).toEqual({ ms: clock, random: BigInt(`0x${hex}`) });
    }
  });

  it('counts up within one millisecond, carrying across limbs', () => {
    nextRandom('0000000000000000fffe');
    tick();
    const ids = Array.from({ length: 3 }, () => prefixedId('wa'));
    expect(ids.map((id) => parts(id).random)).toEqual([0xfffen, 0xffffn, 0x10000n]);
    expect([...ids].sort()).toEqual(ids);
  });

  it('sorts by time, and in call order within a millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => prefixedId('evt'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  // Last: no later millisecond exists for the tests after it.
  it('encodes the largest 48-bit millisecond, and wraps the random part at 2^80', () => {
    nextRandom('ffffffffffffffffffff');
    vi.spyOn(Date, 'now').mockReturnValue(2 ** 48 - 1);
    expect(decode(prefixedId('x'))).toBe((1n << 128n) - 1n);
    expect(parts(prefixedId('x'))).toEqual({ ms: 2 ** 48 - 1, random: 0n });
  });
});
