// Who a company is on its documents: the letterhead of every PDF and the seller of every e-invoice read the same
// fields, so they are one type (src/resources/quotes/documents.ts reads them; src/einvoicing writes them).

export type CompanyIdentity = {
  name: string;
  /** Registered name when it differs from the trading name. */
  legalName: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  vatNumber: string | null;
  /** Chamber of Commerce (KvK) or enterprise (KBO/BCE) number. */
  cocNumber: string | null;
  iban: string | null;
  bic: string | null;
  /** `scheme:identifier` on the Peppol network (0106:24123456). */
  peppolId: string | null;
  /** The VATEX code of exempt lines that name none of their own (src/domain/vat-exemption.ts). */
  vatExemptionReason: string | null;
};
