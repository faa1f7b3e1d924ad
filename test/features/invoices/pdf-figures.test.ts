// What a PDF prints is what the API answers. Random quotes, invoices and work orders (mixed rates, the company's
// default rate, exempt lines, line and document discounts, prices including and excluding VAT, four languages)
// are created through the API; their PDF is read back with pdftotext and every figure of the answer (subtotal,
// discount, each tax_breakdown row, total, amount paid and due) must be printed as the PDF formats it in the
// document's language, with no other VAT row. And an invoice's PDF says what its status is: cancelled,
// refunded and paid invoices ask for nothing, a partly paid one only for what is open.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../../src/languages.ts';
import { formatDate, formatMoney, formatPercent, PDF_LABELS } from '../../../src/pdf/labels.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const OUT = join(process.cwd(), 'test-results', 'pdf');
if (!existsSync(PDFTOTEXT)) console.warn(`pdf-figures tests skipped: ${PDFTOTEXT} missing (install poppler-utils)`);

let api: TestApi;
let key: string;
let customerId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'nl' }));
  const res = await api.call('createCustomer', {
    key,
    body: { name: 'Pieter de Boer', email: `klant-${randomUUID()}@example.nl` },
  });
  expect(res.status).toBe(201);
  customerId = res.body.data.id;
});

/** The PDF's text, one printed line per line, with runs of (no-break) spaces as one space. */
async function pdfText(path: string, name: string): Promise<string[]> {
  const res = await api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync(PDFTOTEXT, ['-layout', file, '-'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => squash(line))
    .filter(Boolean);
}

const squash = (text: string) => text.replace(/[\s\u00A0]+/g, ' ').trim();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Breakdown = { tax_rate: string; is_taxable: boolean; taxable_amount: string; tax_amount: string }[];
type Figures = {
  currency: string;
  language: Language;
  subtotal: string;
  discount_amount?: string;
  tax_breakdown: Breakdown;
  total: string;
  amount_paid?: string;
  amount_due?: string;
};

/** Every figure of the answer is printed as `label amount` on one line, and no VAT row is printed besides. */
function expectFigures(lines: string[], doc: Figures) {
  const labels = PDF_LABELS[doc.language];
  const money = (amount: string) => squash(formatMoney(amount, doc.currency, doc.language));
  const expected = [`${labels.subtotal} ${money(doc.subtotal)}`, `${labels.total} ${money(doc.total)}`];
  if (doc.discount_amount && doc.discount_amount !== '0.00')
    expected.push(`${labels.documentDiscount} ${money(`-${doc.discount_amount}`)}`);
  for (const row of doc.tax_breakdown) {
    const label = row.is_taxable
      ? labels.taxAt(squash(formatPercent(row.tax_rate, doc.language)), money(row.taxable_amount))
      : labels.taxExempt(money(row.taxable_amount));
    expected.push(`${squash(label)} ${money(row.tax_amount)}`);
  }
  if (doc.amount_paid !== undefined) expected.push(`${labels.amountPaid} ${money(doc.amount_paid)}`);
  if (doc.amount_due !== undefined) expected.push(`${labels.amountDue} ${money(doc.amount_due)}`);
  for (const row of expected) expect(lines, row).toContain(row);
  // Any VAT row at all, in this language's words: exactly as many as the breakdown has.
  const anyRow = (template: string) =>
    new RegExp(`^${escapeRegExp(squash(template)).replace('RATE', '.+?').replace('BASE', '.+')} `);
  const rowPatterns = [anyRow(labels.taxAt('RATE', 'BASE')), anyRow(labels.taxExempt('BASE'))];
  expect(lines.filter((line) => rowPatterns.some((pattern) => pattern.test(line)))).toHaveLength(
    doc.tax_breakdown.length,
  );
}

const cents = (min: number, max: number) => fc.integer({ min: min * 100, max: max * 100 }).map((n) => n / 100);

const line = (kind: 'quote' | 'invoice' | 'work_order') =>
  fc.record(
    {
      name: fc.constantFrom('Arbeid', 'Materiaal', 'Voorrijkosten'),
      quantity: cents(0.5, 12),
      price: cents(1, 2500),
      incl: kind === 'work_order' ? fc.constant(false) : fc.boolean(),
      // undefined: the company's default rate (21 %).
      tax_rate: fc.constantFrom(undefined, 0, 5.5, 9, 21),
      exempt: fc.boolean(),
      discount_percentage: fc.option(cents(0, 50), { nil: undefined }),
    },
    { requiredKeys: ['name', 'quantity', 'price', 'incl', 'exempt'] },
  );

const documentArb = fc.constantFrom('quote' as const, 'invoice' as const, 'work_order' as const).chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    language: fc.constantFrom<Language>('nl', 'en', 'de', 'fr'),
    lines: fc.array(line(kind), { minLength: 1, maxLength: 5 }),
    discount: fc.oneof(
      fc.constant({}),
      cents(0, 30).map((value) => ({ discount_percentage: value })),
      cents(0, 0.2).map((value) => ({ discount_amount: value })),
    ),
  }),
);

type DocumentCase = typeof documentArb extends fc.Arbitrary<infer T> ? T : never;

function itemsOf(doc: DocumentCase) {
  return doc.lines.map((l) => ({
    name: l.name,
    quantity: l.quantity,
    ...(l.incl ? { unit_price_incl: l.price } : { unit_price: l.price }),
    ...(l.exempt ? { is_taxable: false } : l.tax_rate === undefined ? {} : { tax_rate: l.tax_rate }),
    ...(l.discount_percentage === undefined ? {} : { discount_percentage: l.discount_percentage }),
  }));
}

/** Creates the document through the API; its answer and the path of its PDF. */
async function create(doc: DocumentCase) {
  const items = itemsOf(doc);
  if (doc.kind === 'work_order') {
    const res = await api.call('createWorkOrder', {
      key,
      body: { customer_id: customerId, title: 'Onderhoud', language: doc.language, items },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { data: res.body.data, path: `/work-orders/${res.body.data.id}/pdf` };
  }
  const operation = doc.kind === 'quote' ? 'createQuote' : 'createInvoice';
  const res = await api.call(operation, {
    key,
    body: { customer_id: customerId, title: 'Vervanging cv-ketel', language: doc.language, items, ...doc.discount },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { data: res.body.data, path: `/${doc.kind === 'quote' ? 'quotes' : 'invoices'}/${res.body.data.id}/pdf` };
}

describe.skipIf(!existsSync(PDFTOTEXT))('a PDF prints the figures of the API', () => {
  it('for random quotes, invoices and work orders in four languages', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(documentArb, async (doc) => {
        const { data, path } = await create(doc);
        const lines = await pdfText(path, `figures-${run++}`);
        expectFigures(lines, data);
        // The answer's own rows add up (the PDF prints them, so they must).
        const sum = (values: string[]) => values.reduce((total, value) => total + Math.round(Number(value) * 100), 0);
        expect(sum(data.tax_breakdown.map((row: Breakdown[number]) => row.tax_amount))).toBe(
          Math.round(Number(data.tax_amount) * 100),
        );
      }),
      { numRuns: 24 },
    );
  }, 240_000);

  it('a line at the default rate, an exempt line and a 0 % line: three VAT rows, each marked as what it is', async () => {
    const res = await api.call('createInvoice', {
      key,
      body: {
        customer_id: customerId,
        title: 'Gemengd',
        items: [
          { name: 'Standaard', unit_price: 100 },
          { name: 'Vrijgesteld', unit_price: 40, is_taxable: false },
          { name: 'Nultarief', unit_price: 10, tax_rate: 0 },
        ],
      },
    });
    expect(res.status).toBe(201);
    const invoice = res.body.data;
    expect(invoice.tax_breakdown).toEqual([
      {
        tax_rate: '0.00',
        is_taxable: false,
        subtotal: '40.00',
        discount_amount: '0.00',
        taxable_amount: '40.00',
        tax_amount: '0.00',
      },
      {
        tax_rate: '0.00',
        is_taxable: true,
        subtotal: '10.00',
        discount_amount: '0.00',
        taxable_amount: '10.00',
        tax_amount: '0.00',
      },
      {
        tax_rate: '21.00',
        is_taxable: true,
        subtotal: '100.00',
        discount_amount: '0.00',
        taxable_amount: '100.00',
        tax_amount: '21.00',
      },
    ]);
    const lines = await pdfText(`/invoices/${invoice.id}/pdf`, 'figures-mixed');
    expect(lines).toContain('Btw 21% over € 100,00 € 21,00');
    expect(lines).toContain('Vrijgesteld van btw over € 40,00 € 0,00');
    expect(lines).toContain('Btw 0% over € 10,00 € 0,00');
    expectFigures(lines, invoice);
  });
});

describe.skipIf(!existsSync(PDFTOTEXT))('an invoice PDF says what its status is', () => {
  async function sentInvoice(language: Language) {
    const res = await api.call('createInvoice', {
      key,
      body: {
        customer_id: customerId,
        title: 'Status',
        language,
        // 286.53 + 9 % = 312.32
        items: [{ name: 'Onderhoud', unit_price: 286.53, tax_rate: 9 }],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.total).toBe('312.32');
    const sent = await api.call('sendInvoice', { key, params: { invoice: res.body.data.id } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body.data;
  }
  const pay = async (id: string, amount: number, type?: 'refund') => {
    const res = await api.call('createInvoicePayment', {
      key,
      params: { invoice: id },
      body: { amount, ...(type ? { type } : {}) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  const current = async (id: string) => (await api.call('getInvoice', { key, params: { invoice: id } })).body.data;

  for (const language of ['nl', 'en', 'de', 'fr'] as const) {
    it(`${language}: open, partly paid, paid, refunded and cancelled`, async () => {
      const labels = PDF_LABELS[language];
      const money = (amount: string) => squash(formatMoney(amount, 'EUR', language));
      const asks = (amount: string, invoice: { due_date: string; number: string }) =>
        squash(labels.payBy(money(amount), formatDate(invoice.due_date, language), null, invoice.number));
      const marks = Object.values(labels.mark).map((mark) => mark.toUpperCase());

      const open = await sentInvoice(language);
      let text = await pdfText(`/invoices/${open.id}/pdf`, `status-${language}-open`);
      expect(text.join('\n')).toContain(asks('312.32', open));
      expect(text.filter((line) => marks.includes(line))).toEqual([]);
      expectFigures(text, open);

      await pay(open.id, 100);
      const partly = await current(open.id);
      expect(partly.status).toBe('partial');
      text = await pdfText(`/invoices/${open.id}/pdf`, `status-${language}-partial`);
      expect(text).toContain(labels.mark.partly_paid.toUpperCase());
      expect(text.join('\n')).toContain(asks('212.32', partly));
      expect(text.join('\n')).not.toContain(money('312.32').concat(' '));
      expectFigures(text, partly);

      await pay(open.id, 212.32);
      const paid = await current(open.id);
      expect(paid.status).toBe('paid');
      text = await pdfText(`/invoices/${open.id}/pdf`, `status-${language}-paid`);
      expect(text).toContain(labels.mark.paid.toUpperCase());
      expect(text.join('\n')).toContain(squash(labels.settled.paid ?? ''));
      expect(text.join('\n')).not.toContain(squash(labels.payBy('', '', null, '')).slice(0, 12));
      expectFigures(text, paid);

      await pay(open.id, 312.32, 'refund');
      const refunded = await current(open.id);
      expect(refunded.status).toBe('refunded');
      text = await pdfText(`/invoices/${open.id}/pdf`, `status-${language}-refunded`);
      expect(text).toContain(labels.mark.refunded.toUpperCase());
      expect(text.join('\n')).toContain(squash(labels.settled.refunded ?? ''));
      expect(text.join('\n')).not.toContain(squash(labels.payBy('', '', null, '')).slice(0, 12));
      expectFigures(text, refunded);

      const other = await sentInvoice(language);
      const cancel = await api.call('cancelInvoice', { key, params: { invoice: other.id } });
      expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
      text = await pdfText(`/invoices/${other.id}/pdf`, `status-${language}-cancelled`);
      expect(text).toContain(labels.mark.cancelled.toUpperCase());
      expect(text.join('\n')).toContain(squash(labels.settled.cancelled ?? ''));
      expect(text.join('\n')).not.toContain(squash(labels.payBy('', '', null, '')).slice(0, 12));
      expectFigures(text, cancel.body.data);
    }, 60_000);
  }
});
