// The e-invoicing tests' seller and buyer: a Dutch installer with every detail the rules need, and a Dutch
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
