// Money as exact decimals: amounts travel as strings with two decimals and are added as whole cents
// (BigInt), never as floating-point numbers.

const TWO_DECIMALS = /^(\d+)(?:\.(\d{1,2}))?$/;

export type ParsedAmount = { ok: true; amount: string } | { ok: false; reason: 'format' | 'too_big' };

/**
 * An input amount (a JSON number or a string with two decimals) as a string with exactly two decimals; refused
 * with more than two decimals (format) or above `max` (too_big). A JSON number is read through its shortest
 * decimal form (String(n)), which for amounts of this size is exactly the digits the client sent: 18450.5 and
 * 18450.50 both become "18450.50", 0.125 is refused rather than rounded.
 */
export function parseAmount(input: number | string, max: string): ParsedAmount {
  const match = TWO_DECIMALS.exec(typeof input === 'number' ? String(input) : input);
  if (!match) return { ok: false, reason: 'format' };
  const amount = `${BigInt(match[1])}.${(match[2] ?? '').padEnd(2, '0')}`;
  return toCents(amount) <= toCents(max) ? { ok: true, amount } : { ok: false, reason: 'too_big' };
}

export const toCents = (amount: string): bigint => {
  const [units, cents = ''] = amount.split('.');
  const sign = units.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(units.replace('-', '')) * 100n + BigInt(cents.padEnd(2, '0').slice(0, 2)));
};

export function fromCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** The exact sum of amounts with two decimals. */
export const sumAmounts = (amounts: readonly string[]): string =>
  fromCents(amounts.reduce((total, amount) => total + toCents(amount), 0n));
