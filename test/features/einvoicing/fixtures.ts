// The e-invoicing tests' seller and buyers: a Dutch installer with every detail the rules need, and a Dutch
// business customer with a VAT and KvK number, as the API and the operator CLI take them.

/** The company's e-invoicing details, as `company details` (setCompanyDetails) sets them. */
export const SELLER_DETAILS = {
  legalName: 'Installatiebedrijf Van Dijk B.V.',
  address: 'Coolsingel 42',
  postalCode: '3011 AD',
  city: 'Rotterdam',
  country: 'NL',
  vatNumber: 'NL862345110B01',
  cocNumber: '24123456',
  iban: 'NL91ABNA0417164300',
  bic: 'ABNANL2A',
};

/** A Dutch business customer, as POST /customers takes it. */
export const DUTCH_BUSINESS = {
  type: 'business',
  name: 'Jan de Vries',
  company_name: 'De Vries Bouw B.V.',
  address: 'Stationsweg 1',
  postal_code: '2312 AV',
  city: 'Leiden',
  country: 'NL',
  vat_number: 'NL853746217B01',
  coc_number: '28123456',
} as const;

/** A Belgian business customer: reverse charge on a Dutch company's 0 % lines; its Peppol id from its number. */
export const BELGIAN_BUSINESS = {
  type: 'business',
  name: 'Luc Peeters',
  company_name: 'Peeters NV',
  address: 'Meir 12',
  postal_code: '2000',
  city: 'Antwerpen',
  country: 'BE',
  vat_number: 'BE0403019261',
  coc_number: '0403019261',
} as const;

/** A private customer: no VAT, company or Peppol identifier (so no Peppol UBL; Factur-X needs none). */
export const PRIVATE_PERSON = {
  type: 'individual',
  name: 'Emma Hendriks',
  address: 'Kerkstraat 7',
  postal_code: '3511 LK',
  city: 'Utrecht',
  country: 'NL',
} as const;
