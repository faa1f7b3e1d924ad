// What a quote, invoice or work order PDF shows: a plain view of the document, already calculated and copied
// (amounts as decimal strings, the customer copy as printed), built by each resource (its pdf.ts) and posted to
// the worker thread that renders it (render-pool.ts, document-pdf.ts). Plain data only: strings, numbers, byte
// arrays.
import type { Language } from '../languages.ts';
import type { DocumentKind, InvoiceMark } from './labels.ts';

export type { DocumentKind, InvoiceMark } from './labels.ts';

export interface PdfAddress {
  /** Street and house number. */
  line: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
}

export interface DocumentPdfLine {
  /** `text` lines print their name and description only. */
  type?: 'text' | 'other';
  name: string;
  description?: string | null;
  /** Decimal strings as the API answers them (`2.00`, `10.00`, `21.00`). */
  quantity: string;
  unit?: string | null;
  unitPrice: string;
  /** The effective line discount in money (`0.00` for none). */
  discount: string;
  taxRate: string;
  /** `false`: exempt from VAT, printed as exempt rather than as 0 %. */
  isTaxable?: boolean;
  /** Line total excluding tax, after its discount. */
  total: string;
}

export interface DocumentPdfView {
  kind: DocumentKind;
  number: string;
  /** Every label, date and amount is written in this language. */
  language: Language;
  /** ISO 4217, e.g. `EUR`. */
  currency: string;
  /** The company's time zone, for times (a signature's); default Europe/Amsterdam. */
  timeZone?: string;
  title?: string | null;
  /** Quotes: the opening text, printed above the lines before the description. */
  introText?: string | null;
  /** Quotes and invoices: the text printed above the lines. */
  description?: string | null;
  reference?: string | null;
  /** Credit notes: the invoice it credits, in full. */
  creditedInvoice?: { number: string; issueDate: string } | null;
  /** Calendar dates, `YYYY-MM-DD`. */
  issueDate: string;
  dueDate?: string | null;
  validUntil?: string | null;
  company: {
    name: string;
    legalName?: string | null;
    address?: PdfAddress | null;
    vatNumber?: string | null;
    cocNumber?: string | null;
    iban?: string | null;
    email?: string | null;
    phone?: string | null;
  };
  customer: {
    name?: string | null;
    companyName?: string | null;
    address?: PdfAddress | null;
    email?: string | null;
    /** Printed with the address: a reverse-charged invoice must name it (VAT Directive art. 226 (4)). */
    vatNumber?: string | null;
  };
  /**
   * The EU reverse charge applies (a business customer with a VAT number of another member state: einvoicing's
   * reverseChargeApplies): the 0 % rows print as reverse-charged, with a sentence that says so.
   */
  reverseCharge?: boolean;
  /**
   * The legal grounds of the exempt lines (VAT Directive art. 226 (11)): each VATEX code with its text in the
   * document's language, printed below the totals.
   */
  exemptions?: { code: string; text: string }[];
  lines: DocumentPdfLine[];
  /** Print only what each line is and how much of it, no prices (the document's `hide_line_amounts`). */
  hideLineAmounts?: boolean;
  totals: {
    subtotal: string;
    /** The effective document discount in money. */
    discount?: string | null;
    /**
     * Tax per rate as the API answers it: the base after the discount share, and the tax on it; every row is
     * printed, 0 % included, and an `exempt` row is printed as exempt.
     */
    taxes: { rate: string; exempt?: boolean; base: string; amount: string }[];
    total: string;
    amountPaid?: string | null;
    amountDue?: string | null;
  };
  /** Invoices: a mark of the status by the title; cancelled, refunded and paid invoices ask for no payment. */
  mark?: InvoiceMark | null;
  /** Free text of the company's or document's payment terms, printed as given. */
  paymentTerms?: string | null;
  notes?: string | null;
  /** Work orders: what had to be done, what was done, the checklist and the customer's notes, each its own section. */
  work?: {
    description?: string | null;
    workPerformed?: string | null;
    customerNotes?: string | null;
    checklist?: { label: string; checked: boolean; required: boolean; note?: string | null }[];
  } | null;
  /** Work orders: photos in display order. JPEG and PNG are drawn; other types are named only. */
  photos?: { image: Uint8Array; mimeType: string; caption?: string | null }[];
  /** Work orders: the signature block; `null` prints an empty one to sign on paper. */
  signature?: { signedBy: string; signedAt: string; image?: Uint8Array | null } | null;
  /**
   * Invoices as Factur-X (EN 16931 profile): the Cross Industry Invoice XML to embed as `factur-x.xml`; the PDF is
   * then a PDF/A-3b with its fonts embedded (facturx.ts).
   */
  facturX?: { xml: string } | null;
}
