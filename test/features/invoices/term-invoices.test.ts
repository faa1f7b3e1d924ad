// Term (instalment) invoices through the API: quote_id + term_percentage without items makes one line per VAT
// rate of the quote (the percentage of what the quote taxes at that rate, after its discount), the terms of a
// quote add up to it and may not pass 100 % (cancelled terms give their share back), and every refused input is
// reported at its pointer.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'nl' }));
});

/** A quote of 1000.00 at 21 % and 500.00 at 9 % with 10 % discount (total 1579.50), sent and accepted. */
async function acceptedQuote(customer_id: string, accept = true) {
  const created = await api.call<'createQuote'>('createQuote', {
    key,
    body: {
      customer_id,
      title: 'Verbouwing',
      discount_percentage: 10,
      items: [
        { name: 'Timmerwerk', quantity: 10, unit_price: 100, tax_rate: 21 },
        { name: 'Schilderwerk woning', quantity: 1, unit_price: 500, tax_rate: 9 },
        { type: 'text', name: 'Inclusief opruimen' },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.data.total).toBe('1579.50');
  const id = created.body.data.id;
  expect((await api.call('sendQuote', { key, params: { quote: id } })).status).toBe(200);
  if (accept) expect((await api.call('acceptQuote', { key, params: { quote: id } })).status).toBe(200);
  return created.body.data;
}

const term = (customer_id: string, quote_id: string | undefined, term_percentage: number, extra = {}) =>
  api.call('createInvoice', {
    key,
    body: { customer_id, title: 'Verbouwing, termijn', quote_id, term_percentage, ...extra },
  });

const errorsOf = (body: { errors: { pointer: string; code: string }[] }) => body.errors.map((e) => [e.pointer, e.code]);

describe('term invoices', () => {
  it('bills a percentage of the quote per VAT rate, completes the quote, and the terms add up to the quote', async () => {
    const customer = await customerOf(api, key);
    const quote = await acceptedQuote(customer);

    const first = await term(customer, quote.id, 30);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({
      status: 'draft',
      is_term_invoice: true,
      term_percentage: '30.00',
      quote_id: quote.id,
      subtotal: '405.00',
      discount_amount: '0.00',
      tax_amount: '68.85',
      total: '473.85',
    });
    expect(
      first.body.data.items.map((i: { name: string; line_total: string; tax_rate: string }) => [
        i.name,
        i.line_total,
        i.tax_rate,
      ]),
    ).toEqual([
      [`Termijn 30% van offerte ${quote.number}`, '135.00', '9.00'],
      [`Termijn 30% van offerte ${quote.number}`, '270.00', '21.00'],
    ]);
    const read = await api.call('getQuote', { key, params: { quote: quote.id } });
    expect(read.body.data).toMatchObject({ status: 'completed', invoice_id: first.body.data.id });

    // The rest, from the now completed quote: together exactly the quote's total.
    const rest = await term(customer, quote.id, 70);
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    // 473.85 + 1105.65 = 1579.50, the quote's total.
    expect(rest.body.data).toMatchObject({ term_percentage: '70.00', total: '1105.65' });

    // Nothing is left: 0.01 % more is too much, until a term is cancelled.
    const over = await term(customer, quote.id, 0.01);
    expect(over.status).toBe(422);
    expect(errorsOf(over.body)).toEqual([['/term_percentage', 'too_big']]);
    expect(over.body.errors[0].detail).toContain('0.00');
    expect((await api.call('cancelInvoice', { key, params: { invoice: rest.body.data.id } })).status).toBe(200);
    const again = await term(customer, quote.id, 50);
    expect(again.status).toBe(201);
    expect(again.body.data.total).toBe('789.75');
    const tooMuch = await term(customer, quote.id, 20.5);
    expect(errorsOf(tooMuch.body)).toEqual([['/term_percentage', 'too_big']]);
    expect(tooMuch.body.errors[0].detail).toContain('20.00');
  });

  it('refuses a term without its quote, with items or a discount, or outside 0.01–100', async () => {
    const customer = await customerOf(api, key);
    const quote = await acceptedQuote(customer);
    const noQuote = await term(customer, undefined, 30);
    expect(noQuote.status).toBe(422);
    expect(errorsOf(noQuote.body)).toEqual([['/quote_id', 'required']]);

    const withLines = await term(customer, quote.id, 30, {
      items: [{ name: 'Extra', quantity: 1, unit_price: 10 }],
      discount_percentage: 5,
    });
    expect(withLines.status).toBe(422);
    expect(errorsOf(withLines.body)).toEqual([
      ['/items', 'invalid_combination'],
      ['/discount_percentage', 'invalid_combination'],
    ]);

    for (const outside of [0, 100.01, -5]) {
      const res = await term(customer, quote.id, outside);
      expect(res.status, String(outside)).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/term_percentage');
    }
    const [{ count }] = await api.sql`select count(*)::int as count from invoices where quote_id = ${quote.id}`;
    expect(count).toBe(0);
  });

  it("needs an accepted quote of the customer: a sent quote, another customer's → 422 at /quote_id", async () => {
    const customer = await customerOf(api, key);
    const sent = await acceptedQuote(customer, false);
    const notAccepted = await term(customer, sent.id, 30);
    expect(notAccepted.status).toBe(422);
    expect(errorsOf(notAccepted.body)).toEqual([['/quote_id', 'invalid_combination']]);

    const otherCustomer = await customerOf(api, key);
    const othersQuote = await acceptedQuote(otherCustomer);
    const foreign = await term(customer, othersQuote.id, 30);
    expect(errorsOf(foreign.body)).toEqual([['/quote_id', 'invalid_reference']]);
  });

  it('rounds the percentage half-up to two decimals', async () => {
    const customer = await customerOf(api, key);
    const quote = await acceptedQuote(customer);
    const third = await term(customer, quote.id, 33.335);
    expect(third.status).toBe(201);
    // 33.34 % of 900.00 at 21 % and 450.00 at 9 %: 300.06 and 150.03.
    expect(third.body.data).toMatchObject({ term_percentage: '33.34', subtotal: '450.09' });
  });

  it('an ordinary invoice still needs its items', async () => {
    const customer = await customerOf(api, key);
    const res = await api.call('createInvoice', { key, body: { customer_id: customer, title: 'Zonder regels' } });
    expect(res.status).toBe(422);
    expect(errorsOf(res.body)).toEqual([['/items', 'required']]);
  });

  it('keeps the lines, quote and discount of a term draft fixed on update; other fields change', async () => {
    const customer = await customerOf(api, key);
    const quote = await acceptedQuote(customer);
    const created = await term(customer, quote.id, 40);
    const id = created.body.data.id;
    const refused = await api.call('updateInvoice', {
      key,
      params: { invoice: id },
      body: { items: [{ name: 'Anders', quantity: 1, unit_price: 1 }], discount_amount: 5 },
    });
    expect(refused.status).toBe(422);
    expect(errorsOf(refused.body)).toEqual([
      ['/items', 'invalid_combination'],
      ['/discount_amount', 'invalid_combination'],
    ]);
    const renamed = await api.call<'updateInvoice'>('updateInvoice', {
      key,
      params: { invoice: id },
      body: { title: 'Tweede termijn', payment_term_days: 30 },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({
      title: 'Tweede termijn',
      is_term_invoice: true,
      term_percentage: '40.00',
      total: created.body.data.total,
    });
  });
});
