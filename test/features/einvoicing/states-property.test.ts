// Random invoices with random payment histories in every state (open, partly paid, paid, overdue, cancelled,
// refunded; a partly refunded one is partly paid again), made and paid through the API, and what each of their
// documents says, figure by figure (issue 47, point 9): the API's answer, the UBL, the CII of the Factur-X file,
// the text of the PDF and of the Factur-X page (pdftotext), and the online invoice page. A cancelled or refunded
// invoice is judged by its credit note, whose own page and XML must agree with the API's figures too. Every XML
// then goes through the official rules, one Saxon run per rule set: no fatal assertion.
// Reproduce a failure with STATES_SEED=<seed>.

import { existsSync } from 'node:fs';
import fc from 'fast-check';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPercent } from '../../../src/domain/locale-format.ts';
import { fromCents, toCents } from '../../../src/domain/money.ts';
import { taskList } from '../../../src/jobs/worker.ts';
import { PDF_LABELS } from '../../../src/pdf/labels.ts';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { CII_RULES, fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import {
  ciiHeader,
  getter,
  type Language,
  money,
  POPPLER,
  pageAmountDue,
  pageFigure,
  pdfFigure,
  pdfFolder,
  tag,
  tags,
} from './documents.ts';
import { BELGIAN_BUSINESS, DUTCH_BUSINESS, PRIVATE_PERSON, SELLER_DETAILS } from './fixtures.ts';

const SEED = Number(process.env.STATES_SEED ?? Date.now() % 2 ** 31);
const STATES = ['open', 'partial', 'paid', 'overdue', 'cancelled', 'refunded'] as const;
type State = (typeof STATES)[number];
/**
 * Invoices per state (STATES_PER_STATE): one in `npm test`, whose seed changes every run, so that every buyer and
 * language is met over a few runs within the file's time budget; more by hand.
 */
const PER_STATE = Number(process.env.STATES_PER_STATE ?? 1);

const unavailable = rulesUnavailable();
let api: TestApi;
let key: string;
let download: ReturnType<typeof getter>;
const pdfs = pdfFolder();
const ubls = new Map<string, string>();
const ciis = new Map<string, string>();
/** The UBL's reports, asked for before the PDFs are rendered. */
let ublReports: ReturnType<typeof validate> | undefined;

/** The buyers: a Dutch business, a Belgian business (reverse charge on 0 % lines), a private person. */
const BUYERS = [DUTCH_BUSINESS, BELGIAN_BUSINESS, PRIVATE_PERSON] as const;
const buyerIds: string[] = [];
/** The buyers' countries whose businesses are reverse-charged on 0 % lines (another EU country than the seller's). */
const REVERSE_CHARGED: readonly string[] = ['BE'];

const amount = (min: number, max: number) => fc.integer({ min, max }).map((n) => n / 100);
const sample = fc.record({
  language: fc.constantFrom<Language>('nl', 'en', 'de', 'fr'),
  /** Replaced by the buyers in turn (see below). */
  buyer: fc.constant<number>(0),
  lines: fc.array(
    fc.record({
      quantity: amount(100, 2000),
      price: amount(500, 250_000),
      includesTax: fc.boolean(),
      rate: fc.constantFrom(21, 9, 0),
      taxable: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      discount: fc.oneof(
        fc.constant(null),
        fc.record({ discount_percentage: fc.integer({ min: 1, max: 30 }) }),
        fc.record({ discount_amount: amount(1, 500) }),
      ),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  discount: fc.oneof(
    fc.constant(null),
    fc.record({ discount_percentage: fc.integer({ min: 1, max: 20 }) }),
    fc.record({ discount_amount: amount(1, 2000) }),
  ),
  /** Shares (per cent) of what is left that each payment or refund takes. */
  shares: fc.array(fc.integer({ min: 5, max: 95 }), { minLength: 3, maxLength: 3 }),
  /** How many payments (or refunds) a history makes before its last step. */
  steps: fc.integer({ min: 1, max: 3 }),
  /** A partly paid invoice that got there by a partial refund of a paid one. */
  byRefund: fc.boolean(),
  /** The legal ground of the invoice's exempt lines (one per invoice, BR-E-01; an exempt line needs one, BR-E-10). */
  exemption: fc.constantFrom('VATEX-EU-132-1B', 'VATEX-EU-132-1I', 'VATEX-EU-143', 'VATEX-EU-79-C'),
});
type Sample = typeof sample extends fc.Arbitrary<infer T> ? T : never;

type Invoice = {
  id: string;
  number: string;
  status: string;
  language: Language;
  subtotal: string;
  discount_amount: string;
  tax_amount: string;
  total: string;
  amount_paid: string;
  amount_due: string;
  public_url: string;
  tax_breakdown: { tax_rate: string; is_taxable: boolean; taxable_amount: string; tax_amount: string }[];
};
type Made = { state: State; sample: Sample; invoice: Invoice };

beforeAll(async () => {
  api = await setupApi({ TRUSTED_PROXIES: '127.0.0.1' });
  let companyId: string;
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
  download = getter(api, key);
  for (const buyer of BUYERS) {
    const res = await api.call('createCustomer', {
      key,
      body: { email: `${buyer.name.split(' ')[0]}@example.nl`, ...buyer },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    buyerIds.push(res.body.data.id);
  }
});
afterAll(() => pdfs.done());

/** `part` per cent of `cents`, at least one cent and at most `cents` − 1 (so something is left). */
const share = (cents: bigint, part: number) => {
  const taken = (cents * BigInt(part)) / 100n;
  return taken < 1n ? 1n : taken >= cents ? cents - 1n : taken;
};

async function pay(invoice: string, cents: bigint, refund = false) {
  const res = await api.call('createInvoicePayment', {
    key,
    params: { invoice },
    body: { amount: Number(fromCents(cents)), ...(refund ? { type: 'refund' } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** A sent invoice from `s` with the payment history of `state`; undefined when the API refuses its lines (422). */
async function make(state: State, s: Sample): Promise<Invoice | undefined> {
  const created = await api.call('createInvoice', {
    key,
    body: {
      customer_id: buyerIds[s.buyer],
      title: `Onderhoud ${state}`,
      language: s.language,
      items: s.lines.map((l, i) => ({
        name: `Regel ${i + 1}`,
        quantity: l.quantity,
        ...(l.includesTax ? { unit_price_incl: l.price } : { unit_price: l.price }),
        ...(l.taxable ? { tax_rate: l.rate } : { is_taxable: false, vat_exemption_reason: s.exemption }),
        ...(l.discount ?? {}),
      })),
      ...(s.discount ?? {}),
    },
  });
  if (created.status === 422) return undefined;
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id: string = created.body.data.id;
  if (toCents(created.body.data.total) < 100n) return undefined;
  expect((await api.call('sendInvoice', { key, params: { invoice: id } })).status).toBe(200);
  const total = toCents(created.body.data.total);
  let paid = 0n;
  const payments = (steps: number) => async () => {
    for (let i = 0; i < steps; i++) {
      const cents = share(total - paid, s.shares[i]);
      await pay(id, cents);
      paid += cents;
    }
  };
  switch (state) {
    case 'open':
    case 'cancelled':
      break;
    case 'partial':
      if (s.byRefund) {
        await pay(id, total);
        await pay(id, share(total, s.shares[0]), true);
      } else await payments(s.steps)();
      break;
    case 'overdue':
      await payments(s.steps - 1)();
      break;
    case 'paid':
      await payments(s.steps - 1)();
      await pay(id, total - paid);
      break;
    case 'refunded': {
      await payments(s.steps - 1)();
      await pay(id, total - paid);
      let left = total;
      for (let i = 0; i < s.steps - 1; i++) {
        const cents = share(left, s.shares[i]);
        await pay(id, cents, true);
        left -= cents;
      }
      await pay(id, left, true);
      break;
    }
  }
  if (state === 'cancelled')
    expect((await api.call('cancelInvoice', { key, params: { invoice: id } })).status).toBe(200);
  if (state === 'overdue')
    await api.sql`update invoices set invoice_date = current_date - 30, due_date = current_date - 2 where id = ${id}`;
  return created.body.data;
}

let visitor = 0;
/** The online invoice page in the invoice's language, from an address of its own (the page limit is per address). */
const visit = (url: string, language: Language) =>
  api.app.request(`${new URL(url).pathname}?lang=${language}`, {
    headers: { 'x-forwarded-for': `198.51.100.${++visitor % 250}` },
  });

/** The totals rows of a page (PDF text) that must carry the API's figures, with the amounts they must show. */
function totalsRows(inv: Invoice, reverseCharge: boolean, withPayments: boolean): [string, string][] {
  const l = inv.language;
  const labels = PDF_LABELS[l];
  const rows: [string, string][] = [
    [labels.subtotal, money(inv.subtotal, l)],
    [labels.total, money(inv.total, l)],
  ];
  if (inv.discount_amount !== '0.00') rows.push([labels.documentDiscount, money(`-${inv.discount_amount}`, l)]);
  for (const row of inv.tax_breakdown) {
    const base = money(row.taxable_amount, l);
    const label = !row.is_taxable
      ? labels.taxExempt(base)
      : reverseCharge && Number(row.tax_rate) === 0
        ? labels.reverseCharged(base)
        : labels.taxAt(formatPercent(row.tax_rate, l), base);
    rows.push([label, money(row.tax_amount, l)]);
  }
  if (withPayments) {
    rows.push([labels.amountPaid, money(inv.amount_paid, l)]);
    rows.push([labels.amountDue, money(inv.amount_due, l)]);
  }
  return rows;
}

/** The EN 16931 totals a document of `inv` must carry, as [element, amount] (UBL's names, then CII's). */
function xmlTotals(inv: Invoice, credit: boolean) {
  const prepaid = credit ? '0.00' : inv.amount_paid;
  const payable = credit ? inv.total : inv.amount_due;
  const taxExclusive = fromCents(toCents(inv.subtotal) - toCents(inv.discount_amount));
  const optional = (value: string) => (value === '0.00' ? null : value);
  return {
    ubl: {
      LineExtensionAmount: inv.subtotal,
      AllowanceTotalAmount: optional(inv.discount_amount),
      TaxExclusiveAmount: taxExclusive,
      TaxAmount: inv.tax_amount,
      TaxInclusiveAmount: inv.total,
      PrepaidAmount: optional(prepaid),
      PayableAmount: payable,
    },
    cii: {
      LineTotalAmount: inv.subtotal,
      AllowanceTotalAmount: optional(inv.discount_amount),
      TaxBasisTotalAmount: taxExclusive,
      TaxTotalAmount: inv.tax_amount,
      GrandTotalAmount: inv.total,
      TotalPrepaidAmount: optional(prepaid),
      DuePayableAmount: payable,
    },
  };
}

const read = (xml: string, names: Record<string, string | null>) =>
  Object.fromEntries(Object.keys(names).map((name) => [name, tag(xml, name)]));

/** The tax amounts of the breakdown, sorted: the API's rows and the XML's groups must be the same. */
const breakdownTaxes = (inv: Invoice) => inv.tax_breakdown.map((r) => r.tax_amount).sort();

describe.skipIf(!existsSync(POPPLER))(`random invoices in every state (seed ${SEED})`, () => {
  const made: Made[] = [];

  it('are made and paid through the API, overdue ones by the daily task', async () => {
    const samples = fc.sample(sample, { seed: SEED, numRuns: STATES.length * PER_STATE * 4 });
    let next = 0;
    for (const state of STATES) {
      for (let n = 0; n < PER_STATE; n++) {
        let invoice: Invoice | undefined;
        let s: Sample;
        // Every buyer in turn, so that each meets several states whatever the seed.
        const buyer = made.length % BUYERS.length;
        do {
          s = { ...samples[next++], buyer };
          invoice = await make(state, s);
        } while (!invoice);
        made.push({ state, sample: s, invoice });
      }
    }
    await taskList({ ...api.deps, config: api.config }).sales_documents_daily(
      { _cron: { ts: new Date().toISOString() } },
      {} as JobHelpers,
    );
    for (const m of made) {
      const res = await api.call('getInvoice', { key, params: { invoice: m.invoice.id } });
      m.invoice = res.body.data;
      const expected = {
        open: ['sent'],
        partial: ['partial'],
        paid: ['paid'],
        overdue: ['overdue'],
        cancelled: ['cancelled'],
        refunded: ['refunded'],
      }[m.state];
      expect(expected, `${m.invoice.number} (${m.state})`).toContain(m.invoice.status);
      const paidOff = m.state === 'cancelled' || m.state === 'refunded';
      // The API's own figures: what is due is the total less what was paid, and nothing once cancelled or refunded.
      expect(m.invoice.amount_due).toBe(
        paidOff ? '0.00' : fromCents(toCents(m.invoice.total) - toCents(m.invoice.amount_paid)),
      );
      if (paidOff) expect(m.invoice.amount_paid).toBe('0.00');
    }
  }, 120_000);

  it('say the same figures in the API, the UBL and the online page', async () => {
    for (const { state, sample: s, invoice: inv } of made) {
      const where = `${inv.number} (${state}, ${inv.language}, buyer ${s.buyer}, seed ${SEED})`;
      const l = inv.language;
      const labels = PDF_LABELS[l];
      const credited = state === 'cancelled' || state === 'refunded';

      // The e-invoice: the invoice's own for an invoice that stands, else its credit note.
      if (credited) {
        for (const path of [`/invoices/${inv.id}/ubl`, `/invoices/${inv.id}/pdf?format=facturx`]) {
          const res = await download(path);
          expect(res.status, `${where} ${path}`).toBe(409);
          expect(((await res.json()) as { detail: string }).detail).toContain('document=credit_note');
        }
      }
      const ubl = await download(`/invoices/${inv.id}/ubl?document=${credited ? 'credit_note' : 'invoice'}`);
      if (BUYERS[s.buyer].type === 'business') {
        expect(ubl.status, where).toBe(200);
        const xml = await ubl.text();
        const totals = xmlTotals(inv, credited).ubl;
        expect(read(xml, totals), `${where} UBL`).toEqual(totals);
        expect(tag(xml, 'ID'), where).toBe(credited ? `${inv.number}-C` : inv.number);
        expect(tags(xml, 'TaxAmount').slice(1).sort(), `${where} UBL breakdown`).toEqual(breakdownTaxes(inv));
        ubls.set(`${inv.number}.xml`, xml);
      } else {
        // Peppol needs the buyer's network address, which a private person has not.
        expect(ubl.status, where).toBe(409);
      }

      // The online page: cancelled invoices are gone (410); the others show the API's figures.
      const online = await visit(inv.public_url, l);
      if (state === 'cancelled') {
        expect(online.status, where).toBe(410);
        continue;
      }
      expect(online.status, where).toBe(200);
      const html = await online.text();
      expect(pageFigure(html, labels.subtotal), `${where} page`).toBe(money(inv.subtotal, l));
      expect(pageFigure(html, labels.total), `${where} page`).toBe(money(inv.total, l));
      const paidSome = inv.amount_paid !== '0.00';
      expect(pageFigure(html, labels.amountPaid), `${where} page`).toBe(paidSome ? money(inv.amount_paid, l) : null);
      if (paidSome) expect(pageFigure(html, labels.amountDue), `${where} page`).toBe(money(inv.amount_due, l));
      const asked = inv.amount_due === '0.00' ? null : money(inv.amount_due, l);
      expect(pageAmountDue(html, l), `${where} payment box`).toBe(asked);
    }
    // The rules judge the UBL while the PDFs below are rendered.
    if (unavailable === null) {
      ublReports = validate(ubls, UBL_RULES);
      ublReports.catch(() => undefined);
    }
  }, 120_000);

  it('say the same figures in the PDF, the Factur-X page and its CII', async () => {
    for (const { state, sample: s, invoice: inv } of made) {
      const where = `${inv.number} (${state}, ${inv.language}, buyer ${s.buyer}, seed ${SEED})`;
      const labels = PDF_LABELS[inv.language];
      const reverseCharge = REVERSE_CHARGED.includes(BUYERS[s.buyer].country);
      const credited = state === 'cancelled' || state === 'refunded';

      // The PDF of a cancelled or refunded invoice is its own page, marked, with nothing due; any other invoice's
      // is the page of its Factur-X file below (the same view, rendered with the XML).
      if (credited) {
        const plain = await download(`/invoices/${inv.id}/pdf`);
        expect(plain.status, where).toBe(200);
        const page = pdfs.read(new Uint8Array(await plain.arrayBuffer())).text;
        expect(page, where).toContain(`${labels.title.invoice} ${inv.number}`);
        for (const [label, value] of totalsRows(inv, reverseCharge, true))
          expect(pdfFigure(page, label), `${where} PDF ${label}\n${page}`).toBe(value);
      }

      const document = credited ? 'credit_note' : 'invoice';
      const facturX = await download(`/invoices/${inv.id}/pdf?format=facturx&document=${document}`);
      expect(facturX.status, where).toBe(200);
      const { text, xml } = pdfs.read(new Uint8Array(await facturX.arrayBuffer()));
      const cii = xml ?? '';
      // The header's sums (a line's LineTotalAmount comes before them).
      const sums = cii.slice(cii.indexOf('<ram:SpecifiedTradeSettlementHeaderMonetarySummation>'));
      const totals = xmlTotals(inv, credited).cii;
      expect(read(sums, totals), `${where} CII`).toEqual(totals);
      const number = credited ? `${inv.number}-C` : inv.number;
      expect(ciiHeader(cii), where).toEqual({ number, typeCode: credited ? '381' : '380' });
      expect(tags(cii, 'CalculatedAmount').sort(), `${where} CII breakdown`).toEqual(breakdownTaxes(inv));
      ciis.set(`${inv.number}.xml`, cii);
      // The Factur-X page is the XML's document: its title and number, its figures; a credit note asks for nothing.
      expect(text, where).toContain(`${credited ? labels.title.credit_note : labels.title.invoice} ${number}`);
      for (const [label, value] of totalsRows(inv, reverseCharge, !credited))
        expect(pdfFigure(text, label), `${where} Factur-X page ${label}\n${text}`).toBe(value);
      if (credited) expect(pdfFigure(text, labels.amountDue), where).toBeNull();
    }
  }, 120_000);

  describe.skipIf(unavailable !== null)('every XML above, by the official rules', () => {
    it('passes EN 16931 and Peppol BIS 3.0 (UBL) and EN 16931 (CII) with no fatal assertion', async () => {
      expect(ciis.size).toBe(STATES.length * PER_STATE);
      expect(ublReports, 'the UBL went to the rules').toBeDefined();
      const [ubl, ciiReports] = await Promise.all([ublReports, validate(ciis, CII_RULES)]);
      for (const name of ubls.keys()) expect(fatalLines(ubl?.get(name) ?? []), `UBL ${name}`).toEqual([]);
      for (const name of ciis.keys()) expect(fatalLines(ciiReports.get(name) ?? []), `CII ${name}`).toEqual([]);
    }, 600_000);
  });
});
