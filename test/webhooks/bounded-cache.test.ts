import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/webhooks/bounded-cache.ts';

describe('BoundedCache', () => {
  it('keeps up to max values, then drops them all before keeping the next', () => {
    const kept = new BoundedCache<number>(2);
    expect(kept.set('a', 1)).toBe(1);
    kept.set('b', 2);
    expect([kept.get('a'), kept.get('b')]).toEqual([1, 2]);
    kept.set('c', 3);
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([undefined, undefined, 3]);
  });
});
