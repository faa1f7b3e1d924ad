// The terms of one quote never add up to more than the quote: each term brings what has been billed, per row of
// the quote's VAT breakdown and including VAT, to its cumulative percentage, and the term that reaches 100 % takes
// the remainder. A line of the quote exempt from VAT stays exempt on its terms (is_taxable false, not 0 %).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let customerId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'nl' }));
  const res = await api.call('createCustomer', {
    key,
    body: { name: 'Termijn Klant', email: `t-${randomUUID()}@x.nl` },
  });
  expect(res.status).toBe(201);
  customerId = res.body.data.id;
});

const cents = (amount: string) => BigInt(Math.round(Number(amount) * 100));

async function acceptedQuote(body: Record<string, unknown>) {
  const created = await api.call('createQuote', { key, body: { customer_id: customerId, title: 'Werk', ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.id;
  expect((await api.call('sendQuote', { key, params: { quote: id } })).status).toBe(200);
  expect((await api.call('acceptQuote', { key, params: { quote: id } })).status).toBe(200);
  return created.body.data;
}

async function term(quoteId: string, termPercentage: number) {
  const res = await api.call('createInvoice', {
    key,
    body: { customer_id: customerId, title: 'Termijn', quote_id: quoteId, term_percentage: termPercentage },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('term invoices add up to the quote', () => {
  it('30 % + 70 % of a quote of 312.32 is exactly 312.32; the exempt line stays exempt', async () => {
    const quote = await acceptedQuote({
      items: [
        // The company's default rate (21 %), 9 % and an exempt line.
        { name: 'Arbeid', quantity: 1, unit_price: 143.57 },
        { name: 'Materiaal', quantity: 1, unit_price: 77.68, tax_rate: 9 },
        { name: 'Leges', quantity: 1, unit_price: 53.93, is_taxable: false },
      ],
    });
    expect(quote.total).toBe('312.32');
    const first = await term(quote.id, 30);
    const second = await term(quote.id, 70);
    expect(cents(first.total) + cents(second.total)).toBe(31232n);
    for (const invoice of [first, second]) {
      const exempt = invoice.items.filter((line: { is_taxable: boolean }) => !line.is_taxable);
      expect(exempt).toHaveLength(1);
      expect(
        invoice.tax_breakdown.map((row: { tax_rate: string; is_taxable: boolean }) => [row.tax_rate, row.is_taxable]),
      ).toEqual([
        ['0.00', false],
        ['9.00', true],
        ['21.00', true],
      ]);
    }
    // Per row too: the bases and the VAT of the terms are the quote's.
    const sumRows = (field: 'taxable_amount' | 'tax_amount', index: number) =>
      cents(first.tax_breakdown[index][field]) + cents(second.tax_breakdown[index][field]);
    for (const [index, row] of quote.tax_breakdown.entries()) {
      expect(sumRows('taxable_amount', index)).toBe(cents(row.taxable_amount));
      expect(sumRows('tax_amount', index)).toBe(cents(row.tax_amount));
    }
  });

  it('random quotes and splits: the terms never exceed the quote, and at 100 % fall short by at most a cent per row', async () => {
    const lineArb = fc.record({
      name: fc.constant('Regel'),
      quantity: fc.integer({ min: 1, max: 500 }).map((n) => n / 100 + 1),
      unit_price: fc.integer({ min: 1, max: 200_000 }).map((n) => n / 100),
      tax_rate: fc.constantFrom(0, 9, 21, 5.5),
      is_taxable: fc.boolean(),
    });
    const caseArb = fc.record({
      lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
      discount_percentage: fc.integer({ min: 0, max: 2000 }).map((n) => n / 100),
      // Cut points of 100 % into 2–4 terms (percentages with two decimals).
      cuts: fc.uniqueArray(fc.integer({ min: 1, max: 9999 }), { minLength: 1, maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ lines, discount_percentage, cuts }) => {
        const quote = await acceptedQuote({
          items: lines.map(({ is_taxable, tax_rate, ...line }) =>
            is_taxable ? { ...line, tax_rate } : { ...line, is_taxable },
          ),
          discount_percentage,
        });
        const points = [...cuts.sort((a, b) => a - b), 10000];
        let billed = 0n;
        let previous = 0;
        for (const point of points) {
          const invoice = await term(quote.id, (point - previous) / 100);
          previous = point;
          billed += cents(invoice.total);
          expect(billed).toBeLessThanOrEqual(cents(quote.total));
          for (const line of invoice.items) if (!line.is_taxable) expect(line.tax_rate).toBe('0.00');
        }
        expect(billed).toBeGreaterThanOrEqual(cents(quote.total) - BigInt(quote.tax_breakdown.length));
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
