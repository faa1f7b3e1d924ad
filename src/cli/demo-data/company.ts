// The demo company: an installation firm in Rotterdam, its team and its task boards. Times are days before now,
// so the demo always looks recent. Email addresses use reserved domains (example.com/.net/.org and the .example
// top-level domain), so nothing can ever reach a real person: the same holds for every file of demo data.

export const DEMO_COMPANY = {
  name: 'Installatiebedrijf Van Dijk',
  legalName: 'Installatiebedrijf Van Dijk B.V.',
  email: 'info@vandijkinstallatie.example',
  phone: '+31 10 412 3456',
  website: 'https://www.vandijkinstallatie.example',
  address: 'Marconistraat 16',
  postalCode: '3029 AK',
  city: 'Rotterdam',
  country: 'NL',
  language: 'nl',
  timeZone: 'Europe/Amsterdam',
  currency: 'EUR',
  vatNumber: 'NL862345110B01',
  cocNumber: '24398761',
  iban: 'NL91ABNA0417164300',
  // With the legal name, VAT, KvK number and IBAN above: everything its invoices need as e-invoices (UBL, Factur-X).
  bic: 'ABNANL2A',
  peppolId: '0106:24398761',
  pricesIncludeTax: false,
  defaultTaxRate: '21.00',
  defaultPaymentTermDays: 14,
  defaultQuoteValidityDays: 30,
} as const;

/** How long ago the company started using the CRM. */
export const COMPANY_DAYS_AGO = 420;

export type DemoUser = {
  key: string;
  name: string;
  email: string;
  role: 'administrator' | 'manager' | 'employee';
  isOwner?: boolean;
  inactive?: boolean;
  daysAgo: number;
};

export const DEMO_USERS: DemoUser[] = [
  {
    key: 'peter',
    name: 'Peter van Dijk',
    email: 'peter@vandijkinstallatie.example',
    role: 'administrator',
    isOwner: true,
    daysAgo: 420,
  },
  {
    key: 'sanne',
    name: 'Sanne de Vries',
    email: 'sanne@vandijkinstallatie.example',
    role: 'administrator',
    daysAgo: 410,
  },
  { key: 'mark', name: 'Mark Visser', email: 'mark@vandijkinstallatie.example', role: 'manager', daysAgo: 300 },
  { key: 'ahmed', name: 'Ahmed El Amrani', email: 'ahmed@vandijkinstallatie.example', role: 'employee', daysAgo: 210 },
  {
    key: 'lisa',
    name: 'Lisa Jansen',
    email: 'lisa@vandijkinstallatie.example',
    role: 'employee',
    inactive: true,
    daysAgo: 380,
  },
];

type Category = 'open' | 'in_progress' | 'completed' | 'cancelled';

export type DemoBoard = {
  name: string;
  isDefault?: boolean;
  /** The first column of each category is that category's default. */
  columns: { name: string; category: Category; color: string }[];
};

export const DEMO_BOARDS: DemoBoard[] = [
  {
    name: 'Algemeen',
    isDefault: true,
    columns: [
      { name: 'Te doen', category: 'open', color: '#64748B' },
      { name: 'Bezig', category: 'in_progress', color: '#3B82F6' },
      { name: 'Afgerond', category: 'completed', color: '#10B981' },
      { name: 'Geannuleerd', category: 'cancelled', color: '#9CA3AF' },
    ],
  },
  {
    name: 'Service & onderhoud',
    columns: [
      { name: 'Nieuwe melding', category: 'open', color: '#F97316' },
      { name: 'Ingepland', category: 'open', color: '#0EA5E9' },
      { name: 'Monteur onderweg', category: 'in_progress', color: '#6366F1' },
      { name: 'Wacht op onderdelen', category: 'in_progress', color: '#EAB308' },
      { name: 'Gereed', category: 'completed', color: '#22C55E' },
      { name: 'Vervallen', category: 'cancelled', color: '#9CA3AF' },
    ],
  },
];
