// What quotes and invoices share: the company's defaults, the customer copy, lines and totals from a request's
// items (src/domain/totals.ts) and a linked deal's check. Sending either is send.ts; its PDF is pdf.ts.
import { type AnyColumn, and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { companies, customers, type DocumentCustomerCopy, type DocumentLine, deals } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import type { CompanyIdentity } from '../../domain/company-identity.ts';
import { type DocumentTotals, documentTotals, type LineInput, type TotalsError } from '../../domain/totals.ts';
import { isExemptionReason } from '../../domain/vat-exemption.ts';
import type { Message } from '../../http/message-catalogue.ts';
import type { FieldError } from '../../http/problems.ts';
import { invalidFields } from '../../http/validation.ts';
import { newId } from '../../ids.ts';
import { customerMessages } from '../customers/messages.ts';
import { quoteMessages } from './messages.ts';

export type ItemBody = LineInput & {
  name: string;
  description?: string | null;
  sku?: string | null;
  unit?: string | null;
  discount_description?: string | null;
  vat_exemption_reason?: string | null;
};

export type CompanyDefaults = CompanyIdentity & {
  timeZone: string;
  language: 'nl' | 'en' | 'de' | 'fr';
  currency: string;
  defaultTaxRate: string;
  paymentTermDays: number;
  quoteValidityDays: number;
  /** Whether invoice email carries the UBL: `auto` for customers with a VAT number, `always`, `never`. */
  einvoiceAttachment: 'auto' | 'always' | 'never';
  /** Today in the company's time zone (YYYY-MM-DD). */
  today: string;
};

/** The company's defaults, handed to the connection now (`then`): reads started after it go in the same round trip. */
export function companyDefaults(tx: Tx, companyId: string): Promise<CompanyDefaults> {
  return tx
    .select({
      name: companies.name,
      legalName: companies.legalName,
      email: companies.email,
      phone: companies.phone,
      address: companies.address,
      postalCode: companies.postalCode,
      city: companies.city,
      country: companies.country,
      vatNumber: companies.vatNumber,
      cocNumber: companies.cocNumber,
      iban: companies.iban,
      bic: companies.bic,
      peppolId: companies.peppolId,
      vatExemptionReason: companies.vatExemptionReason,
      einvoiceAttachment: companies.einvoiceAttachment,
      timeZone: companies.timeZone,
      language: companies.language,
      currency: companies.currency,
      defaultTaxRate: companies.defaultTaxRate,
      paymentTermDays: companies.defaultPaymentTermDays,
      quoteValidityDays: companies.defaultQuoteValidityDays,
      today: sql<string>`to_char(app_now() at time zone ${companies.timeZone}, 'YYYY-MM-DD')`,
    })
    .from(companies)
    .where(eq(companies.id, companyId))
    .then(([row]) => row);
}

/** `date` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Collects the invalid inputs of a request; `done` throws them as one 422. */
export class DocumentProblems {
  readonly errors: FieldError[] = [];
  add(pointer: string, code: string, detail: Message) {
    this.errors.push({ pointer, parameter: null, code, detail });
  }
  done() {
    if (this.errors.length > 0) throw invalidFields(this.errors);
  }
}

/**
 * The customer's details as the document prints them, or undefined (and a problem) for an unknown customer. The
 * read is handed to the connection now (`then`), so reads started after it go with it in one round trip.
 * `customerId` may be SQL: an update's current customer, read from the document's row (documentValue).
 */
export function customerCopy(
  tx: Tx,
  companyId: string,
  customerId: string | SQL,
  problems: DocumentProblems,
): Promise<DocumentCustomerCopy | undefined> {
  return tx
    .select()
    .from(customers)
    .where(and(eq(customers.companyId, companyId), eq(customers.id, customerId)))
    .then(([row]) => {
      if (!row) {
        problems.add('/customer_id', 'invalid_reference', customerMessages.message('customer.unknown_reference'));
        return undefined;
      }
      return {
        type: row.type,
        name: row.name,
        email: row.email,
        phone: row.phone,
        address: row.address,
        postal_code: row.postalCode,
        city: row.city,
        country: row.country,
        company_name: row.companyName,
        vat_number: row.vatNumber,
        coc_number: row.cocNumber,
      };
    });
}

/**
 * A column of the document being updated, as SQL that reads it from the document's row: a read that depends on
 * it (the customer to copy again) then goes with the document's lock in one round trip instead of waiting for the
 * locked row. Sent after the lock, the read sees the locked row as it is.
 */
export const documentValue = (
  table: PgTable & { companyId: AnyColumn; id: AnyColumn },
  column: AnyColumn,
  companyId: string,
  id: string,
): SQL => sql`(select ${column} from ${table} where ${table.companyId} = ${companyId} and ${table.id} = ${id})`;

/**
 * Whether the deal is one of the customer's (handed to the connection now); the caller reports it otherwise
 * (dealProblem), in the order of its other problems.
 */
export function isCustomersDeal(
  tx: Tx,
  companyId: string,
  dealId: string | SQL,
  customerId: string | SQL,
): Promise<boolean> {
  return tx
    .select({ id: deals.id })
    .from(deals)
    .where(and(eq(deals.companyId, companyId), eq(deals.id, dealId), eq(deals.customerId, customerId)))
    .then((rows) => rows.length > 0);
}

export const dealProblem = (problems: DocumentProblems) =>
  problems.add('/deal_id', 'invalid_reference', quoteMessages.message('document.deal_unknown_reference'));

const TOTALS_TEXT: Record<TotalsError['reason'], Message> = {
  line_discount_above_gross: quoteMessages.message('document.line_discount_above_gross'),
  both_prices: quoteMessages.message('document.both_prices'),
  text_line_amount: quoteMessages.message('document.text_line_amount'),
  document_discount_above_subtotal: quoteMessages.message('document.discount_above_subtotal'),
};

export type DocumentAmounts = {
  items: DocumentLine[];
  subtotal: string;
  discountPercentage: string;
  discountAmount: string;
  taxAmount: string;
  total: string;
};

/**
 * The lines and totals of a document from the request's items and document discount; refused inputs are
 * reported to `problems` (and undefined returned).
 */
export function documentAmounts(
  items: readonly ItemBody[],
  discount: { percentage: number | string; amount: number | string },
  defaultTaxRate: string,
  problems: DocumentProblems,
): DocumentAmounts | undefined {
  const result = documentTotals({
    lines: items,
    discount_percentage: discount.percentage,
    discount_amount: discount.amount,
    default_tax_rate: defaultTaxRate,
  });
  if (!result.ok) {
    for (const error of result.errors) problems.add(error.pointer, error.code, TOTALS_TEXT[error.reason]);
    return undefined;
  }
  if (!exemptionReasonsValid(items, problems)) return undefined;
  return amountsOf(items, result.totals);
}

/**
 * The exemption reasons of the lines: a code of the VATEX list that is an exemption, only on an exempt line, one
 * reason per document (an e-invoice has one group of exempt lines, BR-E-01). False with the problems reported.
 */
function exemptionReasonsValid(items: readonly ItemBody[], problems: DocumentProblems): boolean {
  const before = problems.errors.length;
  let first: string | null = null;
  for (const [index, item] of items.entries()) {
    const reason = item.vat_exemption_reason;
    if (reason === undefined || reason === null) continue;
    const at = `/items/${index}/vat_exemption_reason`;
    if (!isExemptionReason(reason))
      problems.add(at, 'invalid_enum', quoteMessages.message('document.exemption_unknown'));
    else if (item.is_taxable !== false)
      problems.add(at, 'invalid_combination', quoteMessages.message('document.exemption_on_taxable'));
    else if (first !== null && first !== reason)
      problems.add(at, 'invalid_combination', quoteMessages.message('document.exemption_differs'));
    else first = reason;
  }
  return problems.errors.length === before;
}

function amountsOf(items: readonly ItemBody[], totals: DocumentTotals): DocumentAmounts {
  return {
    items: totals.lines.map((line, index) => ({
      id: newId(),
      ...line,
      name: items[index].name,
      description: items[index].description ?? null,
      sku: items[index].sku ?? null,
      unit: items[index].unit ?? null,
      discount_description: items[index].discount_description ?? null,
      vat_exemption_reason: items[index].vat_exemption_reason ?? null,
      input: items[index],
    })),
    subtotal: totals.subtotal,
    discountPercentage: totals.discount_percentage,
    discountAmount: totals.discount_amount,
    taxAmount: totals.tax_amount,
    total: totals.total,
  };
}

/** The lines as their request sent them, to recalculate the totals when only the document discount changes. */
export const itemsAsInput = (lines: readonly DocumentLine[]): ItemBody[] =>
  lines.map((line) => ({ ...(line.input as ItemBody), name: line.name }));

/** The texts a quote and an invoice both have, as a request gives them (absent: kept; null: cleared). */
export type DocumentTextFields = {
  title?: string;
  description?: string | null;
  terms_conditions?: string | null;
  notes?: string | null;
  outro_text?: string | null;
  hide_line_amounts?: boolean;
  discount_description?: string | null;
};
type DocumentTextColumns = {
  title: string;
  description: string | null;
  termsConditions: string | null;
  notes: string | null;
  outroText: string | null;
  hideLineAmounts: boolean;
  discountDescription: string | null;
};

/** Those texts from the request's fields over the current document's (none for a creation). */
export function documentTexts(body: DocumentTextFields, current?: DocumentTextColumns) {
  const text = (given: string | null | undefined, kept: string | null | undefined) =>
    given !== undefined ? given : (kept ?? null);
  return {
    title: body.title ?? (current?.title as string),
    description: text(body.description, current?.description),
    termsConditions: text(body.terms_conditions, current?.termsConditions),
    notes: text(body.notes, current?.notes),
    outroText: text(body.outro_text, current?.outroText),
    hideLineAmounts: body.hide_line_amounts ?? current?.hideLineAmounts ?? false,
    discountDescription: text(body.discount_description, current?.discountDescription),
  };
}
