// Random invoices for the e-invoicing property tests (UBL and CII share them): 1 to 200 lines at mixed rates,
// exempt and reverse-charge lines, line and document discounts (percentages and amounts), prices including VAT,
// deductions, Dutch, Belgian, German, Swiss and Norwegian buyers, as the totals engine (src/domain/totals.ts) stores them. A sample
// the engine refuses (422 in the API) is null. Reproduce a failure with EINVOICE_SEED=<seed>.
import fc from 'fast-check';
import { documentTotals, type LineInput, type RateTotals } from '../../../src/domain/totals.ts';
import { eInvoiceOf, type SourceCompany, type SourceInvoice } from '../../../src/einvoicing/from-invoice.ts';
import type { EInvoice } from '../../../src/einvoicing/model.ts';
import { BELGIAN_BUSINESS, DUTCH_BUSINESS, SELLER_DETAILS } from './fixtures.ts';

export const SEED = Number(process.env.EINVOICE_SEED ?? Date.now() % 2 ** 31);

export const COMPANY: SourceCompany = {
  name: 'Van Dijk Installatie',
  email: 'info@vandijkinstallatie.nl',
  phone: '+31 10 234 5678',
  peppolId: null,
  // No default exemption reason: each sample's exempt lines name theirs (one per invoice, BR-E-01).
  vatExemptionReason: null,
  ...SELLER_DETAILS,
};

export const BUYERS: SourceInvoice['customer'][] = [
  { ...DUTCH_BUSINESS, email: 'jan@devriesbouw.nl', phone: null, peppol_id: null },
  {
    type: 'individual',
    name: 'Emma Hendriks',
    company_name: null,
    email: 'emma@example.nl',
    phone: null,
    address: 'Kerkstraat 7',
    postal_code: '3511 LK',
    city: 'Utrecht',
    country: 'NL',
    vat_number: null,
    coc_number: null,
    peppol_id: '0106:99887766',
  },
  // Belgian and German businesses: reverse charge on their 0 % lines.
  { ...BELGIAN_BUSINESS, email: 'luc@peeters.be', phone: null, peppol_id: null },
  {
    type: 'business',
    name: 'Anna Schmidt',
    company_name: 'Schmidt GmbH',
    email: 'anna@schmidt.de',
    phone: null,
    address: 'Hauptstraße 3',
    postal_code: '47051',
    city: 'Duisburg',
    country: 'DE',
    vat_number: 'DE123456788',
    coc_number: null,
    peppol_id: null,
  },
  // Swiss and Norwegian businesses with VAT numbers: outside the EU, so their 0 % lines are Z, never reverse charge.
  {
    type: 'business',
    name: 'Urs Keller',
    company_name: 'Keller AG',
    email: 'urs@keller.ch',
    phone: null,
    address: 'Bahnhofstrasse 10',
    postal_code: '8001',
    city: 'Zürich',
    country: 'CH',
    vat_number: 'CHE123456788MWST',
    coc_number: null,
    // Their Peppol addresses: the Swiss UID (0183) and the Norwegian organisation number (0192).
    peppol_id: '0183:CHE123456788',
  },
  {
    type: 'business',
    name: 'Ingrid Berg',
    company_name: 'Berg AS',
    email: 'ingrid@berg.no',
    phone: null,
    address: 'Karl Johans gate 5',
    postal_code: '0154',
    city: 'Oslo',
    country: 'NO',
    vat_number: 'NO123456785MVA',
    coc_number: null,
    peppol_id: '0192:123456785',
  },
];

/** The buyers' countries within the EU other than the seller's (NL): their businesses are reverse charge. */
const OTHER_EU = new Set(['BE', 'DE']);

const cents = (min: number, max: number) => fc.integer({ min, max }).map((n) => (n / 100).toFixed(2));

const line = fc.record(
  {
    type: fc.constantFrom('product', 'service', 'labor', 'material', 'travel', 'discount', 'text'),
    quantity: fc.oneof(cents(1, 500), cents(1, 100_000)),
    price: fc.oneof(cents(-50_000, 500_000), cents(1, 999)),
    includesTax: fc.boolean(),
    rate: fc.constantFrom('21', '9', '6', '0', '0', '12.5'),
    isTaxable: fc.boolean(),
    discount: fc.oneof(fc.constant(null), fc.record({ percentage: fc.boolean(), value: cents(1, 5000) })),
    unit: fc.constantFrom(null, 'uur', 'stuk', 'm2', 'kg'),
  },
  { requiredKeys: ['type', 'quantity', 'price', 'includesTax', 'rate', 'isTaxable', 'discount', 'unit'] },
);

export const invoice = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 200 }),
  discount: fc.oneof(fc.constant(null), fc.record({ percentage: fc.boolean(), value: cents(1, 3000) })),
  buyer: fc.integer({ min: 0, max: BUYERS.length - 1 }),
  credit: fc.boolean(),
  /** The legal ground of the sample's exempt lines (a VATEX code of an exemption). */
  exemption: fc.constantFrom(
    'VATEX-EU-132-1B',
    'VATEX-EU-132-1I',
    'VATEX-EU-143',
    'VATEX-EU-79-C',
    'VATEX-FR-FRANCHISE',
  ),
});

export type Sample = typeof invoice extends fc.Arbitrary<infer T> ? T : never;

/** The invoice as the API would store it, or null when the totals engine refuses the input (422 there). */
export function source(sample: Sample, index: number): (SourceInvoice & { breakdown: RateTotals[] }) | null {
  const inputs: (LineInput & { name: string; unit: string | null })[] = sample.lines.map((l, i) => {
    if (l.type === 'text') return { type: 'text', name: `Tekst ${i}`, unit: null };
    const price = l.includesTax ? { unit_price_incl: l.price } : { unit_price: l.price };
    const discount = l.discount
      ? l.discount.percentage
        ? { discount_percentage: Math.min(Number(l.discount.value), 100) }
        : { discount_amount: l.discount.value }
      : {};
    return {
      type: l.type as LineInput['type'],
      name: `Regel ${i} <&> "Ääñ"`,
      unit: l.unit,
      quantity: l.quantity,
      ...price,
      ...discount,
      tax_rate: l.isTaxable ? l.rate : undefined,
      is_taxable: l.isTaxable,
    };
  });
  const result = documentTotals({
    lines: inputs,
    discount_percentage: sample.discount?.percentage ? Math.min(Number(sample.discount.value), 100) : 0,
    discount_amount: sample.discount && !sample.discount.percentage ? sample.discount.value : 0,
    default_tax_rate: '21',
  });
  if (!result.ok) return null;
  const t = result.totals;
  return {
    number: `2026-${String(index).padStart(5, '0')}`,
    title: 'Onderhoud installatie',
    language: 'nl',
    currency: 'EUR',
    invoiceDate: '2026-11-20',
    dueDate: '2026-12-04',
    subtotal: t.subtotal,
    discountAmount: t.discount_amount,
    discountDescription: null,
    taxAmount: t.tax_amount,
    total: t.total,
    items: t.lines.map((l, i) => ({
      ...l,
      name: inputs[i].name,
      description: i % 3 === 0 ? 'Omschrijving' : null,
      sku: i % 4 === 0 ? `SKU-${i}` : null,
      unit: inputs[i].unit,
      discount_description: null,
      vat_exemption_reason: l.is_taxable ? null : sample.exemption,
    })),
    customer: BUYERS[sample.buyer],
    breakdown: t.taxes,
  };
}

/** The API's tax_breakdown as the rows an e-invoice must carry: E for exempt rows, else the category by rate. */
export const apiBreakdown = (source: SourceInvoice & { breakdown: RateTotals[] }) => {
  // The Belgian and German businesses are reverse charge; the Dutch ones, the private customer and the Swiss and
  // Norwegian businesses (outside the EU) are not.
  const reverseCharge = OTHER_EU.has(source.customer.country ?? '') && source.customer.vat_number !== null;
  return source.breakdown.map(
    (r) => `${r.exempt ? 'E' : r.rate !== '0.00' ? 'S' : reverseCharge ? 'AE' : 'Z'} ${r.rate} ${r.taxable} ${r.tax}`,
  );
};

/**
 * `count` random e-invoices the rules must accept (samples the totals engine refuses are replaced), each with its
 * source and, when all its lines are text, the refusal it must get. Throws on any other refusal.
 */
export function randomEInvoices(count: number, seed = SEED) {
  const documents: { name: string; source: SourceInvoice & { breakdown: RateTotals[] }; document: EInvoice }[] = [];
  let refused = 0;
  const samples = fc.sample(invoice, { seed, numRuns: count * 10 });
  for (const [index, sample] of samples.entries()) {
    if (documents.length === count) break;
    const src = source(sample, index);
    if (!src) {
      refused += 1;
      continue;
    }
    // A credit note only for an invoice with something to credit; an invoice of 0 or less stays an invoice.
    const kind = sample.credit && Number(src.total) > 0 ? 'credit_note' : 'invoice';
    const result = eInvoiceOf(src, COMPANY, { kind, issueDate: '2026-11-27' });
    // Text lines only: nothing to invoice, refused by name (BR-16) rather than written invalid.
    if (src.items.every((item) => item.type === 'text')) {
      if (result.ok || result.missing.length !== 1 || result.missing[0].rule !== 'BR-16')
        throw new Error(`seed ${seed} sample ${index}: text lines only must be refused by BR-16`);
      refused += 1;
      continue;
    }
    if (!result.ok) throw new Error(`seed ${seed} sample ${index}: missing ${JSON.stringify(result.missing)}`);
    documents.push({ name: `${kind}-${index}.xml`, source: src, document: result.document });
  }
  return { documents, refused };
}
