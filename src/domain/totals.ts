// The totals of quotes, invoices and work orders, as the contract writes them (documents.yaml, `line_total` and
// `total`): exact decimal arithmetic on BigInt (cents, hundredths of a unit or of a percent), never floating
// point. Every rounding is half away from zero ("half up": 0.005 → 0.01 and −0.005 → −0.01), so a deduction
// line rounds like the same amount charged.
import { fromCents } from './money.ts';

export type DocumentItemType = 'product' | 'service' | 'labor' | 'material' | 'travel' | 'discount' | 'text';

/** One line as a request sends it (numbers are JSON numbers; strings with decimals are accepted too). */
export type LineInput = {
  type?: DocumentItemType;
  quantity?: number | string;
  unit_price?: number | string | null;
  unit_price_incl?: number | string | null;
  discount_percentage?: number | string;
  discount_amount?: number | string;
  tax_rate?: number | string;
  is_taxable?: boolean;
};

/** A line's calculated amounts, every one a string with two decimals (the contract's Decimal). */
export type LineTotals = {
  type: DocumentItemType;
  quantity: string;
  unit_price: string;
  unit_price_incl: string | null;
  discount_percentage: string;
  discount_amount: string;
  line_total: string;
  line_total_incl: string | null;
  is_taxable: boolean;
  tax_rate: string;
};

/**
 * The tax of one rate: its lines' base, its share of the document discount, what is taxed, and the tax. Lines
 * exempt from VAT (`is_taxable` false) have a row of their own (`exempt` true, rate 0), apart from the lines
 * taxed at 0 %: an invoice must say which is which.
 */
export type RateTotals = {
  rate: string;
  exempt: boolean;
  base: string;
  discount: string;
  taxable: string;
  tax: string;
};

export type DocumentTotals = {
  lines: LineTotals[];
  subtotal: string;
  discount_percentage: string;
  discount_amount: string;
  tax_amount: string;
  total: string;
  /** Per rate, lowest rate first (exempt before 0 %); rates without lines are absent. */
  taxes: RateTotals[];
};

export type DocumentInput = {
  lines: readonly LineInput[];
  discount_percentage?: number | string;
  discount_amount?: number | string;
  /** The company's standard VAT rate, for lines that send none. */
  default_tax_rate: number | string;
};

/**
 * An input the rules refuse: `pointer` is relative to the document body (`/items/2/discount_amount`), `code`
 * is the contract's field error code.
 */
export type TotalsError = {
  pointer: string;
  code: 'too_big' | 'invalid_combination';
  reason: 'line_discount_above_gross' | 'both_prices' | 'text_line_amount' | 'document_discount_above_subtotal';
};

export type TotalsResult = { ok: true; totals: DocumentTotals } | { ok: false; errors: TotalsError[] };

/** Numbers with at most this many decimals are exact (JSON numbers arrive with their shortest decimal form). */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/**
 * `value × 10^scale`, rounded half away from zero to an integer. A JSON number is read through its shortest
 * decimal form (String(n), also in exponent form such as 1e-7), which is exactly the digits the client sent.
 */
export function scaled(value: number | string, scale: number): bigint {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new RangeError(`not a decimal: ${text}`);
  const digits = `${match[2]}${match[3] ?? ''}`;
  const exponent = Number(match[4] ?? 0) - (match[3] ?? '').length + scale;
  let magnitude: bigint;
  if (exponent >= 0) magnitude = BigInt(digits) * 10n ** BigInt(exponent);
  else magnitude = roundDiv(BigInt(digits), 10n ** BigInt(-exponent));
  return match[1] === '-' ? -magnitude : magnitude;
}

/** `n / d` rounded half away from zero (d > 0). */
export function roundDiv(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const abs = n < 0n ? -n : n;
  const q = (2n * abs + d) / (2n * d);
  return n < 0n ? -q : q;
}

/** `n / d` rounded down (towards −∞), d > 0. */
const floorDiv = (n: bigint, d: bigint): bigint => (n >= 0n ? n / d : -((-n + d - 1n) / d));

/** Hundredths (cents, hundredths of a percent or of a unit) as a string with two decimals. */
const two = fromCents;

type ComputedLine = { totals: LineTotals; cents: bigint; rate: bigint };

function computeLine(line: LineInput, index: number, defaultRate: bigint, errors: TotalsError[]): ComputedLine {
  const at = (field: string) => `/items/${index}/${field}`;
  const type = line.type ?? 'product';
  const hasIncl = line.unit_price_incl !== undefined && line.unit_price_incl !== null;
  const hasExcl = line.unit_price !== undefined && line.unit_price !== null;
  if (hasIncl && hasExcl)
    errors.push({ pointer: at('unit_price_incl'), code: 'invalid_combination', reason: 'both_prices' });
  const quantity = scaled(line.quantity ?? 1, 2);
  const discountPct = scaled(line.discount_percentage ?? 0, 2);
  const discountFixed = scaled(line.discount_amount ?? 0, 2);

  if (type === 'text') {
    // A text line has no amounts: prices or discounts sent with a value other than zero are refused rather than
    // dropped. Its quantity is ignored (the request schema's default of 1 arrives for every line).
    const amounts: [string, number | string | null | undefined][] = [
      ['unit_price', line.unit_price],
      ['unit_price_incl', line.unit_price_incl],
      ['discount_percentage', line.discount_percentage],
      ['discount_amount', line.discount_amount],
    ];
    for (const [field, value] of amounts)
      if (value !== undefined && value !== null && scaled(value, 2) !== 0n)
        errors.push({ pointer: at(field), code: 'invalid_combination', reason: 'text_line_amount' });
    return {
      cents: 0n,
      rate: 0n,
      totals: {
        type,
        quantity: '0.00',
        unit_price: '0.00',
        unit_price_incl: null,
        discount_percentage: '0.00',
        discount_amount: '0.00',
        line_total: '0.00',
        line_total_incl: null,
        is_taxable: false,
        tax_rate: '0.00',
      },
    };
  }

  const isTaxable = line.is_taxable ?? true;
  const rate = isTaxable ? (line.tax_rate === undefined ? defaultRate : scaled(line.tax_rate, 2)) : 0n;
  // 1 + rate/100 in ten-thousandths: a rate in hundredths of a percent is rate/10000 of the amount.
  const factor = 10000n + rate;

  if (hasIncl && !hasExcl) {
    const priceIncl = scaled(line.unit_price_incl as number | string, 2);
    const grossIncl = quantity * priceIncl; // ten-thousandths
    // The percentage takes precedence; a fixed discount on a line priced including tax includes tax too.
    const discountIncl = discountPct > 0n ? grossIncl * discountPct : discountFixed * 100n * 10000n; // 10^-8
    checkLineDiscount(grossIncl * 10000n, discountIncl, at, discountPct > 0n, errors);
    const totalIncl = roundDiv(grossIncl * 10000n - discountIncl, 10n ** 6n);
    const total = roundDiv(totalIncl * 10000n, factor);
    return {
      cents: total,
      rate,
      totals: {
        type,
        quantity: two(quantity),
        unit_price: two(roundDiv(priceIncl * 10000n, factor)),
        unit_price_incl: two(priceIncl),
        discount_percentage: two(discountPct),
        discount_amount: two(roundDiv(discountIncl, 10n ** 2n * factor)),
        line_total: two(total),
        line_total_incl: two(totalIncl),
        is_taxable: isTaxable,
        tax_rate: two(rate),
      },
    };
  }

  const price = hasExcl ? scaled(line.unit_price as number | string, 2) : 0n;
  const gross = quantity * price; // ten-thousandths
  const discount = discountPct > 0n ? gross * discountPct : discountFixed * 100n * 10000n; // 10^-8
  checkLineDiscount(gross * 10000n, discount, at, discountPct > 0n, errors);
  const total = roundDiv(gross * 10000n - discount, 10n ** 6n);
  return {
    cents: total,
    rate,
    totals: {
      type,
      quantity: two(quantity),
      unit_price: two(price),
      unit_price_incl: null,
      discount_percentage: two(discountPct),
      discount_amount: two(roundDiv(discount, 10n ** 6n)),
      line_total: two(total),
      line_total_incl: null,
      is_taxable: isTaxable,
      tax_rate: two(rate),
    },
  };
}

/**
 * A line discount is at most the line's gross amount; a line whose gross amount is negative or zero (a
 * deduction) takes no discount at all, so a discount never turns into a surcharge.
 */
function checkLineDiscount(
  gross: bigint,
  discount: bigint,
  at: (field: string) => string,
  byPercentage: boolean,
  errors: TotalsError[],
) {
  if (discount === 0n) return;
  if (gross > 0n ? discount <= gross : false) return;
  errors.push({
    pointer: at(byPercentage ? 'discount_percentage' : 'discount_amount'),
    code: 'too_big',
    reason: 'line_discount_above_gross',
  });
}

/**
 * Spreads `discount` over the rates in proportion to their base (each rate's share of the subtotal), in whole
 * cents that add up to `discount` exactly: every share is rounded down, and the cents left go one each to the
 * rates with the largest remainders (ties: the larger base, then the higher rate).
 */
export function spreadDiscount(discount: bigint, bases: readonly { rate: bigint; base: bigint }[]): bigint[] {
  const subtotal = bases.reduce((sum, b) => sum + b.base, 0n);
  if (discount === 0n || subtotal <= 0n) return bases.map(() => 0n);
  const shares = bases.map((b, index) => {
    const exact = discount * b.base;
    const floor = floorDiv(exact, subtotal);
    return { index, floor, remainder: exact - floor * subtotal, base: b.base, rate: b.rate };
  });
  let left = discount - shares.reduce((sum, s) => sum + s.floor, 0n);
  const order = [...shares].sort((a, b) =>
    a.remainder !== b.remainder
      ? a.remainder > b.remainder
        ? -1
        : 1
      : a.base !== b.base
        ? a.base > b.base
          ? -1
          : 1
        : a.rate > b.rate
          ? -1
          : 1,
  );
  const result = shares.map((s) => s.floor);
  for (const share of order) {
    if (left === 0n) break;
    result[share.index] += 1n;
    left -= 1n;
  }
  return result;
}

/**
 * The totals of a document. Errors are collected for every line and the document discount, so one answer
 * names every refused input.
 */
export function documentTotals(input: DocumentInput): TotalsResult {
  const errors: TotalsError[] = [];
  const defaultRate = scaled(input.default_tax_rate, 2);
  const lines = input.lines.map((line, index) => computeLine(line, index, defaultRate, errors));
  const subtotal = lines.reduce((sum, line) => sum + line.cents, 0n);

  const pct = scaled(input.discount_percentage ?? 0, 2);
  const fixed = scaled(input.discount_amount ?? 0, 2);
  // A percentage of a subtotal that is not positive gives no discount (it would be a surcharge).
  const discount = pct > 0n ? (subtotal > 0n ? roundDiv(subtotal * pct, 10000n) : 0n) : fixed;
  if (pct === 0n && fixed > 0n && fixed > (subtotal > 0n ? subtotal : 0n))
    errors.push({ pointer: '/discount_amount', code: 'too_big', reason: 'document_discount_above_subtotal' });
  if (errors.length > 0) return { ok: false, errors };

  const taxes = taxesOf(
    lines.map((line) => ({
      type: line.totals.type,
      cents: line.cents,
      rate: line.rate,
      exempt: !line.totals.is_taxable,
    })),
    discount,
  );
  const tax = taxes.reduce((sum, t) => sum + t.tax, 0n);
  return {
    ok: true,
    totals: {
      lines: lines.map((line) => line.totals),
      subtotal: two(subtotal),
      discount_percentage: two(pct),
      discount_amount: two(discount),
      tax_amount: two(tax),
      total: two(subtotal - discount + tax),
      taxes: taxes.map((t) => ({
        rate: two(t.rate),
        exempt: t.exempt,
        base: two(t.base),
        discount: two(t.discount),
        taxable: two(t.taxable),
        tax: two(t.tax),
      })),
    },
  };
}

type TaxedLine = { type: DocumentItemType; cents: bigint; rate: bigint; exempt: boolean };
type RateCents = { rate: bigint; exempt: boolean; base: bigint; discount: bigint; taxable: bigint; tax: bigint };

/**
 * Tax per rate of calculated lines. The discount is spread over the rates with exempt lines counted at rate 0
 * (as the contract describes), and rate 0's share is then split between the exempt and the 0 % lines the same
 * way, so marking exempt lines apart never moves a cent of tax.
 */
function taxesOf(lines: readonly TaxedLine[], discount: bigint): RateCents[] {
  const byRate = new Map<bigint, { base: bigint; zeroRated: bigint | null; exempt: bigint | null }>();
  for (const line of lines) {
    if (line.type === 'text') continue;
    const entry = byRate.get(line.rate) ?? { base: 0n, zeroRated: null, exempt: null };
    entry.base += line.cents;
    if (line.exempt) entry.exempt = (entry.exempt ?? 0n) + line.cents;
    else entry.zeroRated = (entry.zeroRated ?? 0n) + line.cents;
    byRate.set(line.rate, entry);
  }
  const rates = [...byRate.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const shares = spreadDiscount(
    discount,
    rates.map(([rate, entry]) => ({ rate, base: entry.base })),
  );
  const result: RateCents[] = [];
  const push = (rate: bigint, exempt: boolean, base: bigint, share: bigint) => {
    const taxable = base - share;
    result.push({ rate, exempt, base, discount: share, taxable, tax: roundDiv(taxable * rate, 10000n) });
  };
  for (const [index, [rate, entry]] of rates.entries()) {
    if (entry.exempt === null) {
      push(rate, false, entry.base, shares[index]);
      continue;
    }
    // Exempt lines are at rate 0 only; rate 1 (exempt) and 2 (0 %) only order a tie between the two parts.
    const zeroRated = entry.zeroRated ?? 0n;
    let [exemptShare, zeroShare] = spreadDiscount(shares[index], [
      { rate: 1n, base: entry.exempt },
      { rate: 2n, base: zeroRated },
    ]);
    // Parts that do not add up to a positive base take no proportional split: the larger part (or the only one)
    // carries the share.
    if (exemptShare + zeroShare !== shares[index]) {
      const toExempt = entry.zeroRated === null || entry.exempt >= entry.zeroRated;
      [exemptShare, zeroShare] = toExempt ? [shares[index], 0n] : [0n, shares[index]];
    }
    push(rate, true, entry.exempt, exemptShare);
    if (entry.zeroRated !== null) push(rate, false, zeroRated, zeroShare);
  }
  return result;
}

/** A stored line, as documents keep them (amounts as strings with two decimals). */
export type StoredLine = { type: DocumentItemType; line_total: string; tax_rate: string; is_taxable: boolean };

/**
 * Tax per rate of a stored document: its lines as calculated and its effective document discount. It gives what
 * `documentTotals` gave when the document was written, so the API's answer, the PDF and the e-invoice
 * (src/einvoicing) carry the same rows.
 */
export function taxBreakdown(lines: readonly StoredLine[], discountAmount: string): RateTotals[] {
  const taxes = taxesOf(
    lines.map((line) => ({
      type: line.type,
      cents: scaled(line.line_total, 2),
      rate: line.is_taxable ? scaled(line.tax_rate, 2) : 0n,
      exempt: !line.is_taxable,
    })),
    scaled(discountAmount, 2),
  );
  return taxes.map((t) => ({
    rate: two(t.rate),
    exempt: t.exempt,
    base: two(t.base),
    discount: two(t.discount),
    taxable: two(t.taxable),
    tax: two(t.tax),
  }));
}
