// The e-invoice of an invoice: its lines and the API's totals, the company as seller and the customer as buyer.
// What the rules need and the data lacks is answered as a list of missing fields, each with the rule it breaks,
// never as an invalid document. Pure: the caller reads the rows (src/resources/invoices/ubl.ts).
import type { CompanyIdentity } from '../domain/company-identity.ts';
import {
  bicRule,
  cocNumberRule,
  compactIdentifier,
  EU,
  type IdentifierRule,
  ibanRule,
  PEPPOL_ID,
  peppolIdOfVatNumber,
  peppolIdRule,
  vatCountry,
  vatNumberRule,
} from '../domain/identifiers.ts';
import { fromCents, toCents } from '../domain/money.ts';
import { type DocumentItemType, scaled, taxBreakdown } from '../domain/totals.ts';
import { exemptionText } from '../domain/vat-exemption.ts';
import type { EInvoice, ELine, EParty, ETaxGroup, PeppolId, VatCategory } from './model.ts';

export type SourceLine = {
  type: DocumentItemType;
  name: string;
  description: string | null;
  sku: string | null;
  quantity: string;
  unit: string | null;
  unit_price: string;
  unit_price_incl: string | null;
  discount_amount: string;
  discount_description: string | null;
  line_total: string;
  is_taxable: boolean;
  tax_rate: string;
  /** An exempt line's own VATEX code; else the company's default applies. */
  vat_exemption_reason?: string | null;
};

/** The seller: the company as its documents name it. */
export type SourceCompany = CompanyIdentity;

export type SourceCustomer = {
  type: 'individual' | 'business';
  name: string | null;
  company_name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  vat_number: string | null;
  coc_number: string | null;
  peppol_id: string | null;
};

export type SourceInvoice = {
  number: string;
  title: string;
  language: 'nl' | 'en' | 'de' | 'fr';
  currency: string;
  invoiceDate: string;
  dueDate: string;
  subtotal: string;
  discountAmount: string;
  discountDescription: string | null;
  taxAmount: string;
  total: string;
  /** What the customer paid (the API's amount_paid); absent or "0.00" for nothing. */
  amountPaid?: string;
  items: readonly SourceLine[];
  customer: SourceCustomer;
};

/** A field the e-invoice needs: missing, or `invalid` when its stored value breaks `rule` (stored before the checks). */
export type Missing = { field: MissingField; rule: string; invalid?: true };
export type MissingField =
  | 'invoice.items'
  | 'company.vat_number'
  | 'company.coc_number'
  | 'company.peppol_id'
  | 'company.bic'
  | 'company.vat_exemption_reason'
  | 'company.address'
  | 'company.postal_code'
  | 'company.city'
  | 'company.iban'
  | 'customer.name'
  | 'customer.country'
  | 'customer.vat_number'
  | 'customer.coc_number'
  | 'customer.peppol_id'
  | 'customer.address'
  | 'customer.postal_code'
  | 'customer.city';

export type EInvoiceResult = { ok: true; document: EInvoice } | { ok: false; missing: Missing[] };

export { PEPPOL_ID } from '../domain/identifiers.ts';

export function parsePeppolId(value: string | null): PeppolId | null {
  const match = value ? PEPPOL_ID.exec(value.trim()) : null;
  return match ? { scheme: match[1], id: match[2] } : null;
}

/** The ICD scheme of a chamber-of-commerce or enterprise number, per country: Dutch KvK, Belgian KBO/BCE. */
const LEGAL_SCHEME: Record<string, string> = { NL: '0106', BE: '0208' };

const compact = compactIdentifier;

/**
 * The party's Peppol address: the one it has, else one the network accepts from its registration: the Dutch KvK
 * or Belgian enterprise number, else its VAT number where its country has a VAT scheme in the EAS code list.
 */
function endpointOf(explicit: string | null, country: string, coc: string | null, vat: string | null): PeppolId | null {
  const own = parsePeppolId(explicit);
  if (own) return own;
  const legal = LEGAL_SCHEME[country];
  if (legal && coc) return { scheme: legal, id: country === 'BE' ? coc.replace(/\D/g, '') : coc };
  return peppolIdOfVatNumber(vat);
}

const REVERSE_CHARGE: Record<SourceInvoice['language'], { code: string; text: string }> = {
  nl: { code: 'VATEX-EU-AE', text: 'Btw verlegd' },
  en: { code: 'VATEX-EU-AE', text: 'Reverse charge' },
  de: { code: 'VATEX-EU-AE', text: 'Steuerschuldnerschaft des Leistungsempfängers' },
  fr: { code: 'VATEX-EU-AE', text: 'Autoliquidation' },
};
const DISCOUNT: Record<SourceInvoice['language'], string> = {
  nl: 'Korting',
  en: 'Discount',
  de: 'Rabatt',
  fr: 'Remise',
};

/** UN/ECE Recommendation 20 codes of the units people write; anything else is a piece (C62, "one"). */
const UNITS: Record<string, string> = {
  uur: 'HUR',
  u: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  h: 'HUR',
  stunde: 'HUR',
  std: 'HUR',
  heure: 'HUR',
  dag: 'DAY',
  day: 'DAY',
  tag: 'DAY',
  jour: 'DAY',
  m: 'MTR',
  m1: 'MTR',
  m2: 'MTK',
  'm²': 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  kg: 'KGM',
  km: 'KMT',
  l: 'LTR',
  liter: 'LTR',
  litre: 'LTR',
};
const unitCode = (unit: string | null) => UNITS[unit?.trim().toLowerCase() ?? ''] ?? 'C62';

const negate = (amount: string) => fromCents(-toCents(amount));

/**
 * The net price of a line without VAT: the API's unit price, or for a price including VAT that price divided by
 * (1 + rate) to six decimals, so that quantity × price is the line's amount (PEPPOL-EN16931-R120).
 */
function netPrice(line: SourceLine): bigint {
  if (line.unit_price_incl === null) return scaled(line.unit_price, 6);
  const incl = scaled(line.unit_price_incl, 6); // millionths
  const factor = 10000n + scaled(line.tax_rate, 2);
  const n = incl * 10000n;
  const q = (2n * (n < 0n ? -n : n) + factor) / (2n * factor);
  return n < 0n ? -q : q;
}

function decimal(millionths: bigint): string {
  const sign = millionths < 0n ? '-' : '';
  const abs = millionths < 0n ? -millionths : millionths;
  const fraction = String(abs % 1_000_000n)
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  return `${sign}${abs / 1_000_000n}.${fraction.padEnd(2, '0')}`;
}

/**
 * Reverse charge within the EU: a business buyer with a VAT number of another member state than the seller's. Its
 * 0 % lines are then reverse-charged (category AE), and the PDF says so (document-pdf.ts).
 */
export function reverseChargeApplies(
  sellerCountry: string,
  sellerVatNumber: string | null,
  buyerVatNumber: string | null,
) {
  const sellerVat = compact(sellerVatNumber);
  const buyerVat = compact(buyerVatNumber);
  return (
    buyerVat !== null &&
    EU.has(sellerCountry.toUpperCase()) &&
    EU.has(vatCountry(buyerVat) ?? '') &&
    vatCountry(buyerVat) !== (vatCountry(sellerVat) ?? sellerCountry.toUpperCase())
  );
}

export function eInvoiceOf(
  invoice: SourceInvoice,
  company: SourceCompany,
  options: {
    kind: 'invoice' | 'credit_note';
    /** A credit note's own date (the day of the cancellation or refund); an invoice's is its invoice date. */
    issueDate?: string;
    attachment?: EInvoice['attachment'];
    /**
     * The rules the document must meet: `peppol` (UBL for the Peppol network, the default) needs both parties'
     * network addresses (PEPPOL-EN16931-R010, R020); `en16931` (the CII of a Factur-X PDF) needs none, so a
     * private customer without any identifier gets one.
     */
    rules?: 'peppol' | 'en16931';
  },
): EInvoiceResult {
  const missing: Missing[] = [];
  // A stored value the checks at entry would refuse (stored before them): named, never written into the XML.
  const invalid = (field: MissingField, rule: IdentifierRule | null) => {
    if (rule) missing.push({ field, rule, invalid: true });
  };
  const customer = invoice.customer;
  const sellerCountry = company.country.toUpperCase();
  const sellerVat = compact(company.vatNumber);
  const buyerVat = compact(customer.vat_number);
  const buyerCountry = customer.country?.toUpperCase() ?? vatCountry(buyerVat);
  const lines = invoice.items.filter((line) => line.type !== 'text');

  const reverseCharge = reverseChargeApplies(company.country, company.vatNumber, customer.vat_number);
  // One category per row of the API's tax_breakdown: exempt lines (is_taxable false) are E, 0 % lines Z (AE under
  // reverse charge), any other rate S. The rows are the API's own, so the XML's breakdown is the answer's.
  const categoryOf = (exempt: boolean, rate: bigint): VatCategory =>
    exempt ? 'E' : rate !== 0n ? 'S' : reverseCharge ? 'AE' : 'Z';
  // The legal ground of the exempt lines (BT-121/BT-120): each line's own VATEX code, else the company's default.
  // An e-invoice has one group of exempt lines (BR-E-01), so one reason.
  const exemptReasons = new Set(
    lines.filter((line) => !line.is_taxable).map((line) => line.vat_exemption_reason ?? company.vatExemptionReason),
  );
  const exemptCode = exemptReasons.size === 1 ? [...exemptReasons][0] : null;
  const breakdown = taxBreakdown(lines, invoice.discountAmount);
  const groups: ETaxGroup[] = breakdown.map((row) => {
    const category = categoryOf(row.exempt, scaled(row.rate, 2));
    return {
      category,
      rate: row.rate,
      discount: row.discount,
      taxable: row.taxable,
      tax: row.tax,
      exemption:
        category === 'AE'
          ? REVERSE_CHARGE[invoice.language]
          : category === 'E' && exemptCode
            ? { code: exemptCode, text: exemptionText(exemptCode, invoice.language) }
            : null,
    };
  });
  const tax = breakdown.reduce((sum, row) => sum + toCents(row.tax), 0n);
  const base = breakdown.reduce((sum, row) => sum + toCents(row.base), 0n);
  if (fromCents(tax) !== invoice.taxAmount || fromCents(base) !== invoice.subtotal)
    throw new Error(`invoice ${invoice.number}: stored totals differ from its lines`);

  // An invoice of text lines only has nothing to invoice.
  if (lines.length === 0) missing.push({ field: 'invoice.items', rule: 'BR-16' });
  if (exemptReasons.has(null)) missing.push({ field: 'company.vat_exemption_reason', rule: 'BR-E-10' });
  else if (exemptReasons.size > 1) missing.push({ field: 'invoice.items', rule: 'BR-E-01', invalid: true });
  // The seller.
  // The rule named is the standard rate's when the invoice has one (the usual case), else its first category's.
  const vatRule = `BR-${groups.some((g) => g.category === 'S') ? 'S' : (groups[0]?.category ?? 'S')}-02`;
  if (!sellerVat) missing.push({ field: 'company.vat_number', rule: vatRule });
  else invalid('company.vat_number', vatNumberRule(sellerVat));
  const sellerCoc = compact(company.cocNumber);
  if (sellerCoc) invalid('company.coc_number', cocNumberRule(sellerCoc, sellerCountry));
  if (company.peppolId?.trim()) invalid('company.peppol_id', peppolIdRule(company.peppolId));
  const sellerEndpoint = endpointOf(company.peppolId, sellerCountry, sellerCoc, sellerVat);
  const peppol = (options.rules ?? 'peppol') === 'peppol';
  if (!sellerEndpoint && peppol) missing.push({ field: 'company.peppol_id', rule: 'PEPPOL-EN16931-R020' });
  if (sellerCountry === 'NL') {
    if (!company.address) missing.push({ field: 'company.address', rule: 'NL-R-002' });
    if (!company.postalCode) missing.push({ field: 'company.postal_code', rule: 'NL-R-002' });
    if (!company.city) missing.push({ field: 'company.city', rule: 'NL-R-002' });
  }
  const payable = options.kind === 'invoice' && toCents(invoice.total) > 0n;
  if (payable && !company.iban) missing.push({ field: 'company.iban', rule: 'BR-61' });
  if (payable && company.iban) invalid('company.iban', ibanRule(company.iban));
  if (payable && company.bic?.trim()) invalid('company.bic', bicRule(company.bic));

  // The buyer.
  const buyerName =
    (customer.type === 'business' ? customer.company_name : null) ?? customer.name ?? customer.company_name;
  if (!buyerName) missing.push({ field: 'customer.name', rule: 'BR-07' });
  if (!buyerCountry) missing.push({ field: 'customer.country', rule: 'BR-11' });
  if (buyerVat) invalid('customer.vat_number', vatNumberRule(buyerVat));
  const buyerCoc = compact(customer.coc_number);
  if (buyerCoc) invalid('customer.coc_number', cocNumberRule(buyerCoc, buyerCountry));
  if (customer.peppol_id?.trim()) invalid('customer.peppol_id', peppolIdRule(customer.peppol_id));
  const buyerEndpoint = endpointOf(customer.peppol_id, buyerCountry ?? '', buyerCoc, buyerVat);
  if (!buyerEndpoint && peppol) missing.push({ field: 'customer.peppol_id', rule: 'PEPPOL-EN16931-R010' });
  if (sellerCountry === 'NL' && buyerCountry === 'NL') {
    if (!customer.address) missing.push({ field: 'customer.address', rule: 'NL-R-004' });
    if (!customer.postal_code) missing.push({ field: 'customer.postal_code', rule: 'NL-R-004' });
    if (!customer.city) missing.push({ field: 'customer.city', rule: 'NL-R-004' });
  }
  if (missing.length > 0 || !buyerName || !buyerCountry) return { ok: false, missing };

  const seller: EParty = {
    name: company.name,
    legalName: company.legalName ?? company.name,
    street: company.address,
    city: company.city,
    postalCode: company.postalCode,
    country: sellerCountry,
    vatNumber: sellerVat,
    legalId: sellerCoc ? { scheme: LEGAL_SCHEME[sellerCountry] ?? null, id: sellerCoc } : null,
    endpoint: sellerEndpoint,
    email: company.email,
    phone: company.phone,
  };
  const buyer: EParty = {
    name: buyerName,
    legalName: buyerName,
    street: customer.address,
    city: customer.city,
    postalCode: customer.postal_code,
    country: buyerCountry,
    vatNumber: buyerVat,
    legalId: buyerCoc ? { scheme: LEGAL_SCHEME[buyerCountry] ?? null, id: buyerCoc } : null,
    endpoint: buyerEndpoint,
    email: customer.email,
    phone: customer.phone,
  };

  const eLines: ELine[] = lines.map((line, index) => {
    let price = netPrice(line);
    let quantity = line.quantity;
    // An item's price is never negative (BR-27): a deduction is a negative quantity of a positive price.
    if (price < 0n) {
      price = -price;
      quantity = negate(quantity);
    }
    return {
      id: String(index + 1),
      name: line.name,
      description: line.description,
      sku: line.sku,
      quantity,
      unitCode: unitCode(line.unit),
      price: decimal(price),
      discount: line.discount_amount,
      discountReason: line.discount_description ?? DISCOUNT[invoice.language],
      lineTotal: line.line_total,
      category: categoryOf(!line.is_taxable, scaled(line.tax_rate, 2)),
      rate: fromCents(scaled(line.tax_rate, 2)),
    };
  });

  const taxExclusive = fromCents(toCents(invoice.subtotal) - toCents(invoice.discountAmount));
  // What was paid is prepaid (BT-113) and the rest is payable (BT-115 = BT-112 − BT-113, BR-CO-16): the API's
  // amount_paid and amount_due of an invoice in every state. A credit note credits the whole invoice.
  const prepaid = options.kind === 'invoice' ? toCents(invoice.amountPaid ?? '0.00') : 0n;
  return {
    ok: true,
    document: {
      kind: options.kind,
      number: options.kind === 'credit_note' ? `${invoice.number}-C` : invoice.number,
      issueDate: options.issueDate ?? invoice.invoiceDate,
      dueDate: options.kind === 'invoice' ? invoice.dueDate : null,
      currency: invoice.currency,
      note: invoice.title,
      // No buyer reference is kept yet: the invoice number stands in (Peppol needs one, PEPPOL-EN16931-R003).
      buyerReference: invoice.number,
      invoiceReference:
        options.kind === 'credit_note' ? { number: invoice.number, issueDate: invoice.invoiceDate } : null,
      seller,
      buyer,
      payment:
        payable && company.iban
          ? { iban: compact(company.iban) ?? '', bic: compact(company.bic), reference: invoice.number }
          : null,
      lines: eLines,
      documentDiscountReason: invoice.discountDescription ?? DISCOUNT[invoice.language],
      taxes: groups,
      totals: {
        lines: invoice.subtotal,
        discount: invoice.discountAmount,
        taxExclusive,
        tax: invoice.taxAmount,
        taxInclusive: invoice.total,
        prepaid: fromCents(prepaid),
        payable: fromCents(toCents(invoice.total) - prepaid),
      },
      attachment: options.attachment ?? null,
    },
  };
}
