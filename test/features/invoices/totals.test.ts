// The totals engine (src/domain/totals.ts) against the rules of documents.yaml: worked examples, every quote
// and invoice example of the contract recalculated by the same code, and properties over any lines.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCents } from '../../../src/domain/money.ts';
import {
  type DocumentTotals,
  documentTotals,
  type LineInput,
  roundDiv,
  scaled,
  spreadDiscount,
} from '../../../src/domain/totals.ts';

const totalsOf = (input: Parameters<typeof documentTotals>[0]): DocumentTotals => {
  const result = documentTotals(input);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors)}`);
  return result.totals;
};

describe('worked examples', () => {
  it('2 × 10.00 at 21 % → 20.00 / 4.20 / 24.20', () => {
    const t = totalsOf({ lines: [{ quantity: 2, unit_price: 10, tax_rate: 21 }], default_tax_rate: 21 });
    expect([t.subtotal, t.tax_amount, t.total]).toEqual(['20.00', '4.20', '24.20']);
  });

  it('prices including tax: the price excluding tax is derived, tax per rate', () => {
    const t = totalsOf({
      lines: [
        { quantity: 3, unit_price_incl: 12.1, tax_rate: 21 },
        { quantity: 2, unit_price_incl: 5.45, tax_rate: 9 },
      ],
      default_tax_rate: 21,
    });
    expect(t.lines.map((l) => [l.unit_price, l.line_total, l.line_total_incl])).toEqual([
      ['10.00', '30.00', '36.30'],
      ['5.00', '10.00', '10.90'],
    ]);
    expect([t.subtotal, t.tax_amount, t.total]).toEqual(['40.00', '7.20', '47.20']);
  });

  it('mixed rates, with a line without VAT', () => {
    const t = totalsOf({
      lines: [
        { quantity: 1, unit_price: 100, tax_rate: 21 },
        { quantity: 4, unit_price: 12.5, tax_rate: 9 },
        { quantity: 1, unit_price: 30, tax_rate: 21, is_taxable: false },
      ],
      default_tax_rate: 21,
    });
    expect(t.lines[2].tax_rate).toBe('0.00');
    expect(t.taxes.map((r) => [r.rate, r.base, r.tax])).toEqual([
      ['0.00', '30.00', '0.00'],
      ['9.00', '50.00', '4.50'],
      ['21.00', '100.00', '21.00'],
    ]);
    expect([t.subtotal, t.tax_amount, t.total]).toEqual(['180.00', '25.50', '205.50']);
  });

  it('a fixed document discount over mixed rates is spread in cents that add up', () => {
    const t = totalsOf({
      lines: [
        { quantity: 1, unit_price: 100, tax_rate: 21 },
        { quantity: 4, unit_price: 12.5, tax_rate: 9 },
      ],
      discount_amount: 10,
      default_tax_rate: 21,
    });
    expect(t.taxes.map((r) => [r.rate, r.discount, r.taxable, r.tax])).toEqual([
      ['9.00', '3.33', '46.67', '4.20'],
      ['21.00', '6.67', '93.33', '19.60'],
    ]);
    expect([t.subtotal, t.discount_amount, t.tax_amount, t.total]).toEqual(['150.00', '10.00', '23.80', '163.80']);
  });

  it("the contract's example of a percentage discount: 1801.31", () => {
    const t = totalsOf({
      lines: [
        { type: 'labor', quantity: 24, unit_price: 52.5, tax_rate: 9 },
        { type: 'material', quantity: 6, unit_price_incl: 96.8, discount_percentage: 10, tax_rate: 21 },
        { type: 'text' },
      ],
      discount_percentage: 5,
      default_tax_rate: 21,
    });
    expect(t.lines[1]).toMatchObject({ unit_price: '80.00', discount_amount: '48.00', line_total: '432.00' });
    expect(t.lines[1].line_total_incl).toBe('522.72');
    expect([t.subtotal, t.discount_amount, t.tax_amount, t.total]).toEqual(['1692.00', '84.60', '193.91', '1801.31']);
  });

  it('rounds half up (away from zero) to cents', () => {
    expect(totalsOf({ lines: [{ quantity: 0.5, unit_price: 0.01 }], default_tax_rate: 0 }).subtotal).toBe('0.01');
    expect(totalsOf({ lines: [{ quantity: 0.5, unit_price: -0.01 }], default_tax_rate: 0 }).subtotal).toBe('-0.01');
    expect(
      totalsOf({ lines: [{ quantity: 1, unit_price: 0.01, discount_percentage: 50 }], default_tax_rate: 0 }).lines[0],
    ).toMatchObject({ discount_amount: '0.01', line_total: '0.01' });
    // 0.05 at 9 % is 0.0045 of tax: rounded down; 0.50 at 1 % is exactly 0.005: up.
    expect(totalsOf({ lines: [{ unit_price: 0.05, tax_rate: 9 }], default_tax_rate: 0 }).tax_amount).toBe('0.00');
    expect(totalsOf({ lines: [{ unit_price: 0.5, tax_rate: 1 }], default_tax_rate: 0 }).tax_amount).toBe('0.01');
    expect(scaled(0.125, 2)).toBe(13n);
    expect(scaled(-0.125, 2)).toBe(-13n);
    expect(scaled(1e-7, 2)).toBe(0n);
    expect(scaled('2.5e3', 2)).toBe(250000n);
  });

  it('the default rate applies to lines without one; a text line counts nowhere', () => {
    const t = totalsOf({ lines: [{ unit_price: 10 }, { type: 'text' }], default_tax_rate: 9 });
    expect(t.lines.map((l) => [l.tax_rate, l.line_total, l.is_taxable])).toEqual([
      ['9.00', '10.00', true],
      ['0.00', '0.00', false],
    ]);
    expect(t.taxes).toHaveLength(1);
    expect(t.total).toBe('10.90');
  });

  it('refuses a line discount above the gross, both prices, amounts on a text line and a discount above the subtotal', () => {
    const result = documentTotals({
      lines: [
        { quantity: 1, unit_price: 10, discount_amount: 10.01 },
        { unit_price: 10, unit_price_incl: 12.1 },
        { type: 'text', unit_price: 5 },
        { unit_price: -5, discount_percentage: 10 },
      ],
      discount_amount: 100,
      default_tax_rate: 21,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.pointer, e.code])).toEqual([
      ['/items/0/discount_amount', 'too_big'],
      ['/items/1/unit_price_incl', 'invalid_format'],
      ['/items/2/unit_price', 'invalid_format'],
      ['/items/3/discount_percentage', 'too_big'],
      ['/discount_amount', 'too_big'],
    ]);
  });
});

type ExampleLine = Record<string, string | boolean | null>;
type ExampleDocument = { object: string; items: ExampleLine[] } & Record<string, unknown>;

/** Every quote and invoice in the contract's examples (responses hold the calculated amounts). */
function contractDocuments(): { where: string; doc: ExampleDocument }[] {
  const spec = JSON.parse(readFileSync(new URL('../../../generated/openapi.en.json', import.meta.url), 'utf8'));
  const found: { where: string; doc: ExampleDocument }[] = [];
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${where}/${i}`);
    } else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if ((record.object === 'quote' || record.object === 'invoice') && Array.isArray(record.items))
        found.push({ where, doc: record as ExampleDocument });
      for (const [key, value] of Object.entries(record)) walk(value, `${where}/${key}`);
    }
  };
  walk(spec.paths, '');
  return found;
}

describe("the contract's examples", () => {
  const documents = contractDocuments();

  it('include the worked examples', () => {
    const names = documents.map((d) => d.where);
    for (const name of [
      'worked_single_rate',
      'worked_prices_including_tax',
      'worked_mixed_rates',
      'worked_document_discount',
    ])
      expect(names.some((where) => where.includes(`/examples/${name}/`))).toBe(true);
    expect(documents.length).toBeGreaterThanOrEqual(18);
  });

  it.each(documents.map((d) => [d.where, d.doc] as const))('%s adds up', (_where, doc) => {
    // A line is sent back as it reads: the price it was entered with, the percentage or the fixed discount.
    const lines: LineInput[] = doc.items.map((item) => ({
      type: item.type as LineInput['type'],
      quantity: item.quantity as string,
      unit_price: item.unit_price_incl === null ? (item.unit_price as string) : null,
      unit_price_incl: item.unit_price_incl as string | null,
      discount_percentage: item.discount_percentage as string,
      discount_amount:
        item.unit_price_incl === null
          ? (item.discount_amount as string)
          : // a fixed discount on a line priced including tax is entered including tax
            '0',
      tax_rate: item.tax_rate as string,
      is_taxable: item.is_taxable as boolean,
    }));
    const t = totalsOf({
      lines,
      discount_percentage: doc.discount_percentage as string,
      discount_amount: doc.discount_amount as string,
      default_tax_rate: 21,
    });
    expect(t.lines.map((l) => [l.unit_price, l.discount_amount, l.line_total, l.line_total_incl, l.tax_rate])).toEqual(
      doc.items.map((i) => [i.unit_price, i.discount_amount, i.line_total, i.line_total_incl, i.tax_rate]),
    );
    expect([t.subtotal, t.discount_amount, t.tax_amount, t.total]).toEqual([
      doc.subtotal,
      doc.discount_amount,
      doc.tax_amount,
      doc.total,
    ]);
  });
});

const RATES = [0, 5.5, 6, 7, 9, 19, 20, 21];
const cents = (min: number, max: number) => fc.integer({ min, max }).map((n) => n / 100);

/** A line the rules accept: a discount never above the line's gross amount (none on a deduction). */
const line = (allowNegative: boolean): fc.Arbitrary<LineInput> =>
  fc
    .record({
      type: fc.constantFrom('product', 'service', 'labor', 'material', 'travel', 'discount', 'text' as const),
      quantity: cents(0, 100_000),
      price: cents(allowNegative ? -1_000_000 : 0, 10_000_000),
      incl: fc.boolean(),
      rate: fc.constantFrom(...RATES),
      taxable: fc.boolean(),
      discount: fc.oneof(
        fc.constant({ kind: 'none' as const }),
        fc.record({ kind: fc.constant('pct' as const), value: cents(1, 10_000) }),
        fc.record({ kind: fc.constant('fixed' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
      ),
    })
    .map(({ type, quantity, price, incl, rate, taxable, discount }): LineInput => {
      if (type === 'text') return { type };
      // The gross amount in whole cents, rounded down: a fixed discount up to it is always allowed.
      const gross = (BigInt(Math.round(quantity * 100)) * BigInt(Math.round(price * 100))) / 100n;
      const out: LineInput = { type, quantity, tax_rate: rate, is_taxable: taxable };
      if (incl) out.unit_price_incl = price;
      else out.unit_price = price;
      if (gross > 0n && discount.kind === 'pct') out.discount_percentage = discount.value;
      if (gross > 0n && discount.kind === 'fixed')
        out.discount_amount = Number((gross * BigInt(Math.floor(discount.share * 1000))) / 1000n) / 100;
      return out;
    });

const documentArb = (allowNegative: boolean) =>
  fc.record({
    lines: fc.array(line(allowNegative), { minLength: 1, maxLength: 30 }),
    discount: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('pct' as const), value: cents(1, 10_000) }),
      fc.record({ kind: fc.constant('fixed' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
    ),
  });

/** The document, with its document discount made valid against the subtotal of its lines. */
function build(doc: { lines: LineInput[]; discount: { kind: string; value?: number; share?: number } }) {
  const plain = totalsOf({ lines: doc.lines, default_tax_rate: 21 });
  const subtotal = toCents(plain.subtotal);
  if (doc.discount.kind === 'pct')
    return { lines: doc.lines, discount_percentage: doc.discount.value, default_tax_rate: 21 };
  if (doc.discount.kind === 'fixed' && subtotal > 0n)
    return {
      lines: doc.lines,
      discount_amount: Number((subtotal * BigInt(Math.floor((doc.discount.share ?? 0) * 1000))) / 1000n) / 100,
      default_tax_rate: 21,
    };
  return { lines: doc.lines, default_tax_rate: 21 };
}

const sum = (amounts: string[]) => amounts.reduce((total, amount) => total + toCents(amount), 0n);

describe('properties', () => {
  it('the parts add up to the totals exactly, for any lines', () => {
    fc.assert(
      fc.property(documentArb(true), (doc) => {
        const t = totalsOf(build(doc));
        expect(sum(t.lines.map((l) => l.line_total))).toBe(toCents(t.subtotal));
        expect(sum(t.taxes.map((r) => r.base))).toBe(toCents(t.subtotal));
        expect(sum(t.taxes.map((r) => r.discount))).toBe(toCents(t.discount_amount));
        expect(sum(t.taxes.map((r) => r.tax))).toBe(toCents(t.tax_amount));
        for (const r of t.taxes) expect(toCents(r.taxable)).toBe(toCents(r.base) - toCents(r.discount));
        expect(toCents(t.total)).toBe(toCents(t.subtotal) - toCents(t.discount_amount) + toCents(t.tax_amount));
      }),
      { numRuns: 500 },
    );
  });

  it('the order of the lines does not change the totals', () => {
    fc.assert(
      fc.property(documentArb(true), (doc) => {
        const forward = totalsOf(build(doc));
        const backward = totalsOf({ ...build(doc), lines: [...doc.lines].reverse() });
        expect([backward.subtotal, backward.discount_amount, backward.tax_amount, backward.total]).toEqual([
          forward.subtotal,
          forward.discount_amount,
          forward.tax_amount,
          forward.total,
        ]);
      }),
      { numRuns: 200 },
    );
  });

  it('prices including tax round-trip: the line keeps its price and comes back within a cent', () => {
    fc.assert(
      fc.property(cents(0, 10_000_000), fc.constantFrom(...RATES), cents(0, 100_000), (price, rate, quantity) => {
        const one = totalsOf({ lines: [{ unit_price_incl: price, tax_rate: rate }], default_tax_rate: 21 });
        // One unit, no discount: the document total is the price including tax, give or take the cent the
        // contract allows (tax is calculated per rate, from the rounded price excluding tax).
        expect(toCents(one.lines[0].unit_price_incl ?? '')).toBe(scaled(price, 2));
        const drift = toCents(one.total) - scaled(price, 2);
        expect(drift >= -1n && drift <= 1n).toBe(true);
        const many = totalsOf({ lines: [{ quantity, unit_price_incl: price, tax_rate: rate }], default_tax_rate: 21 });
        const line = many.lines[0];
        expect(toCents(line.line_total_incl ?? '')).toBe(roundDiv(scaled(quantity, 2) * scaled(price, 2), 100n));
        const back = toCents(line.line_total) * (10000n + scaled(rate, 2));
        const gap = back - toCents(line.line_total_incl ?? '') * 10000n;
        expect(gap >= -10000n && gap <= 10000n).toBe(true);
        const driftMany = toCents(many.total) - toCents(line.line_total_incl ?? '');
        expect(driftMany >= -1n && driftMany <= 1n).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('discounts never make a total negative, nor larger than without them', () => {
    fc.assert(
      fc.property(documentArb(false), (doc) => {
        const discounted = totalsOf(build(doc));
        const plainLines = doc.lines.map(({ discount_amount: _a, discount_percentage: _p, ...rest }) => rest);
        const plain = totalsOf({ lines: plainLines, default_tax_rate: 21 });
        expect(toCents(discounted.total) >= 0n).toBe(true);
        expect(toCents(discounted.subtotal) - toCents(discounted.discount_amount) >= 0n).toBe(true);
        // Rounding per rate may move a cent per rate; beyond that a discount only lowers the total.
        expect(toCents(discounted.total) <= toCents(plain.total) + BigInt(plain.taxes.length)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('a spread discount adds up and no rate takes more than its share plus a cent', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ rate: fc.bigInt({ min: 0n, max: 2100n }), base: fc.bigInt({ min: 0n, max: 10n ** 9n }) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (bases, share) => {
          const subtotal = bases.reduce((s, b) => s + b.base, 0n);
          const discount = (subtotal * BigInt(Math.floor(share * 1000))) / 1000n;
          const parts = spreadDiscount(discount, bases);
          expect(parts.reduce((s, p) => s + p, 0n)).toBe(subtotal > 0n ? discount : 0n);
          bases.forEach((b, i) => {
            if (subtotal === 0n) return;
            const exact = discount * b.base;
            expect(parts[i] * subtotal >= exact - subtotal && parts[i] * subtotal <= exact + subtotal).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
