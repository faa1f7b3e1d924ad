// An invoice as an e-invoice (EN 16931 semantic model, Peppol BIS Billing 3.0): plain serializable data built
// from the API's invoice, company and customer (from-invoice.ts), written as UBL by ubl.ts. Amounts are the
// API's strings with two decimals, never recomputed otherwise than by src/domain/totals.ts.

/** An electronic address on the Peppol network: an EAS scheme code and the identifier within it. */
export type PeppolId = { scheme: string; id: string };

export type EParty = {
  /** Trading name (BT-28 / BT-45). */
  name: string;
  /** Registration name (BT-27 / BT-44). */
  legalName: string;
  street: string | null;
  city: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  vatNumber: string | null;
  /** Legal registration id (BT-30 / BT-47) with its ICD scheme (0106 Dutch KvK, 0208 Belgian enterprise number). */
  legalId: { scheme: string | null; id: string } | null;
  /** Its network address (BT-34 / BT-49): always for Peppol (UBL); EN 16931 (CII) needs none. */
  endpoint: PeppolId | null;
  email: string | null;
  phone: string | null;
};

/**
 * VAT category (UNCL5305 subset): S standard or reduced rate, Z zero rated, E exempt, AE reverse charge within
 * the EU.
 */
export type VatCategory = 'S' | 'Z' | 'E' | 'AE';

export type ETaxGroup = {
  category: VatCategory;
  /** Percent with two decimals. */
  rate: string;
  /** The document discount's share of this group (BT-92 per category), "0.00" when none. */
  discount: string;
  taxable: string;
  tax: string;
  /** For E and AE: the exemption reason code (VATEX) and text. */
  exemption: { code: string; text: string } | null;
};

export type ELine = {
  id: string;
  name: string;
  description: string | null;
  sku: string | null;
  /** Positive for a charge; a deduction has a negative quantity (an item's price is never negative, BR-27). */
  quantity: string;
  /** UN/ECE Recommendation 20 unit code. */
  unitCode: string;
  /** Net price per unit, without VAT; may have more than two decimals for a price that included VAT. */
  price: string;
  /** The line discount (an allowance on the line), "0.00" when none. */
  discount: string;
  discountReason: string | null;
  lineTotal: string;
  category: VatCategory;
  rate: string;
};

export type EInvoice = {
  kind: 'invoice' | 'credit_note';
  number: string;
  issueDate: string;
  /** The invoice's due date; none on a credit note. */
  dueDate: string | null;
  currency: string;
  /** One note (BT-22): the invoice's title. */
  note: string | null;
  buyerReference: string;
  /** For a credit note: the invoice it credits. */
  invoiceReference: { number: string; issueDate: string } | null;
  seller: EParty;
  buyer: EParty;
  payment: { iban: string; bic: string | null; reference: string } | null;
  lines: ELine[];
  documentDiscountReason: string | null;
  taxes: ETaxGroup[];
  totals: {
    /** Sum of the lines' totals (BT-106). */
    lines: string;
    /** Document discount (BT-107). */
    discount: string;
    taxExclusive: string;
    tax: string;
    taxInclusive: string;
    /** What was paid already (BT-113): the invoice's amount_paid; "0.00" when nothing. */
    prepaid: string;
    /** What is due (BT-115): the total with VAT less what was paid (BR-CO-16), the invoice's amount_due. */
    payable: string;
  };
  /** The PDF as an additional document (BG-24), when asked. */
  attachment: { filename: string; mimeCode: 'application/pdf'; base64: string } | null;
};
