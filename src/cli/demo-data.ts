// The demo company's data: an installation firm in Rotterdam with its team, pipeline, task boards, customers
// and notes. Times are days before now, so the demo always looks recent. Email addresses use reserved domains
// (example.com/.net/.org and the .example top-level domain), so nothing can ever reach a real person.

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

export type DemoNote = { author: string; afterDays: number; content: string; important?: boolean };

export type DemoCustomer = {
  type: 'individual' | 'business';
  name: string;
  email: string;
  phone: string;
  companyName?: string;
  vatNumber?: string;
  cocNumber?: string;
  /** The customer's address on the Peppol network, where it has one of its own (else derived from its KvK). */
  peppolId?: string;
  address: string;
  postalCode: string;
  city: string;
  daysAgo: number;
  /** Days after creation the lead became a customer; absent for a lead. */
  convertedAfterDays?: number;
  emailUnsubscribed?: boolean;
  notes?: DemoNote[];
};

export const DEMO_CUSTOMERS: DemoCustomer[] = [
  {
    type: 'individual',
    name: 'Jan de Vries',
    email: 'jan.devries@example.com',
    phone: '+31 6 2145 8832',
    address: 'Beukelsdijk 112A',
    postalCode: '3022 DJ',
    city: 'Rotterdam',
    daysAgo: 172,
    convertedAfterDays: 12,
    notes: [
      {
        author: 'mark',
        afterDays: 1,
        content:
          'Cv-ketel (Remeha Calenta uit 2009) maakt veel lawaai en slaat af. Vervanging besproken; klant wil een offerte voor een hybride warmtepomp.',
      },
      {
        author: 'sanne',
        afterDays: 12,
        content: 'Offerte akkoord. Installatie ingepland; de sleutel ligt bij de buren op nummer 114.',
        important: true,
      },
    ],
  },
  {
    type: 'individual',
    name: 'Fatima Bouzid',
    email: 'f.bouzid@example.net',
    phone: '+31 6 4877 1290',
    address: 'Schiedamseweg 45B',
    postalCode: '3025 AB',
    city: 'Rotterdam',
    daysAgo: 6,
    notes: [
      {
        author: 'sanne',
        afterDays: 0,
        content: 'Belde over zonnepanelen: ca. 12 panelen op een plat dak, oost-west. Terugbellen na 17.00 uur.',
      },
    ],
  },
  {
    type: 'individual',
    name: 'Kees Bakker',
    email: 'kees.bakker@example.org',
    phone: '+31 180 612 447',
    address: 'Dorpsstraat 8',
    postalCode: '2991 BA',
    city: 'Barendrecht',
    daysAgo: 150,
    convertedAfterDays: 9,
  },
  {
    type: 'individual',
    name: 'Anouk Smit',
    email: 'anouk.smit@example.com',
    phone: '+31 6 1933 5561',
    address: 'Lange Haven 77',
    postalCode: '3111 CD',
    city: 'Schiedam',
    daysAgo: 138,
    convertedAfterDays: 21,
  },
  {
    type: 'individual',
    name: 'Willem Mulder',
    email: 'w.mulder@example.net',
    phone: '+31 10 458 2210',
    address: 'Kerkweg 23',
    postalCode: '2902 AB',
    city: 'Capelle aan den IJssel',
    daysAgo: 47,
  },
  {
    type: 'individual',
    name: 'Priya Ramdin',
    email: 'priya.ramdin@example.com',
    phone: '+31 6 5520 7714',
    address: 'Mathenesserlaan 301',
    postalCode: '3021 HB',
    city: 'Rotterdam',
    daysAgo: 121,
    convertedAfterDays: 3,
    notes: [
      {
        author: 'ahmed',
        afterDays: 4,
        content:
          'Lekkage onder het bad verholpen (sifon vervangen). Klant geadviseerd de boiler jaarlijks te ontkalken.',
      },
    ],
  },
  {
    type: 'individual',
    name: 'Thomas van den Berg',
    email: 'thomas.vandenberg@example.org',
    phone: '+31 15 214 9087',
    address: 'Oude Delft 150',
    postalCode: '2611 CD',
    city: 'Delft',
    daysAgo: 33,
  },
  {
    type: 'individual',
    name: 'Emma Hendriks',
    email: 'emma.hendriks@example.com',
    phone: '+31 6 3004 6628',
    address: 'Westhavenkade 34',
    postalCode: '3131 AG',
    city: 'Vlaardingen',
    daysAgo: 95,
    emailUnsubscribed: true,
    notes: [
      {
        author: 'sanne',
        afterDays: 2,
        content: 'Wil geen nieuwsbrief meer ontvangen; offertes en facturen wel graag per e-mail.',
      },
    ],
  },
  {
    type: 'individual',
    name: 'Mohamed Ait Taleb',
    email: 'm.aittaleb@example.net',
    phone: '+31 6 2871 4409',
    address: 'Putselaan 88',
    postalCode: '3074 JE',
    city: 'Rotterdam',
    daysAgo: 110,
    convertedAfterDays: 15,
  },
  {
    type: 'individual',
    name: 'Sophie Meijer',
    email: 'sophie.meijer@example.com',
    phone: '+31 180 427 731',
    address: 'Ringdijk 5',
    postalCode: '2987 VX',
    city: 'Ridderkerk',
    daysAgo: 19,
  },
  {
    type: 'individual',
    name: 'Daan Vermeulen',
    email: 'daan.vermeulen@example.org',
    phone: '+31 6 1167 3390',
    address: 'Noordeinde 19',
    postalCode: '3201 BC',
    city: 'Spijkenisse',
    daysAgo: 84,
    convertedAfterDays: 7,
  },
  {
    type: 'individual',
    name: 'Lotte de Graaf',
    email: 'lotte.degraaf@example.com',
    phone: '+31 6 4312 0075',
    address: 'Kralingse Plaslaan 60',
    postalCode: '3062 DE',
    city: 'Rotterdam',
    daysAgo: 12,
  },
  {
    type: 'individual',
    name: 'Ruud Koster',
    email: 'ruud.koster@example.net',
    phone: '+31 78 613 5528',
    address: 'Burgemeester de Raadtsingel 41',
    postalCode: '3311 JG',
    city: 'Dordrecht',
    daysAgo: 58,
  },
  {
    type: 'individual',
    name: 'Yasmina El Idrissi',
    email: 'y.elidrissi@example.com',
    phone: '+31 6 5986 2143',
    address: 'Pleinweg 210',
    postalCode: '3083 EM',
    city: 'Rotterdam',
    daysAgo: 2,
  },
  {
    type: 'individual',
    name: 'Henk Brouwer',
    email: 'henk.brouwer@example.org',
    phone: '+31 78 612 0954',
    address: 'Molenweg 4',
    postalCode: '3331 LB',
    city: 'Zwijndrecht',
    daysAgo: 163,
    convertedAfterDays: 30,
  },
  {
    type: 'business',
    name: 'Jan Jansen',
    email: 'info@bakkerijjansen.example',
    phone: '+31 10 477 1832',
    companyName: 'Bakkerij Jansen B.V.',
    vatNumber: 'NL853746217B01',
    cocNumber: '34123456',
    peppolId: '0106:34123456',
    address: 'Nieuwe Binnenweg 205',
    postalCode: '3021 GC',
    city: 'Rotterdam',
    daysAgo: 176,
    convertedAfterDays: 5,
    notes: [
      {
        author: 'mark',
        afterDays: 6,
        content:
          'Onderhoudscontract koelcel en ovenafzuiging afgesloten. Toegang alleen op maandag vóór 7.00 uur, dan is de winkel nog dicht.',
        important: true,
      },
      {
        author: 'ahmed',
        afterDays: 90,
        content: 'Storing koelcel verholpen: ventilator van de condensor vervangen. Temperatuur weer stabiel op 3 °C.',
      },
    ],
  },
  {
    type: 'business',
    name: 'Marieke Dekker',
    email: 'bestuur@vveparkzicht.example',
    phone: '+31 10 450 6671',
    companyName: 'VvE Parkzicht',
    cocNumber: '24487120',
    address: 'Parkweg 40',
    postalCode: '3034 TA',
    city: 'Rotterdam',
    daysAgo: 131,
    convertedAfterDays: 40,
    notes: [
      {
        author: 'peter',
        afterDays: 3,
        content:
          'Collectieve vervanging van de mechanische ventilatie in 24 appartementen. De ledenvergadering beslist over zes weken.',
      },
      {
        author: 'peter',
        afterDays: 40,
        content:
          'ALV akkoord. Planning per portiek afstemmen met de beheerder; bewoners twee weken vooraf per brief informeren.',
        important: true,
      },
    ],
  },
  {
    type: 'business',
    name: 'Erik Postma',
    email: 'erik@dezeemeeuw.example',
    phone: '+31 10 413 9025',
    companyName: 'De Zeemeeuw Horeca B.V.',
    vatNumber: 'NL819203373B01',
    cocNumber: '62019384',
    address: 'Boompjes 550',
    postalCode: '3011 XZ',
    city: 'Rotterdam',
    daysAgo: 26,
    notes: [
      {
        author: 'mark',
        afterDays: 1,
        content:
          'Wil airco voor zaal en serre (ca. 120 m²). Offerte voor twee split-units sturen; beslissing na overleg met de mede-eigenaar.',
      },
    ],
  },
  {
    type: 'business',
    name: 'Ingrid Willems',
    email: 'administratie@obsderegenboog.example',
    phone: '+31 10 422 7310',
    companyName: 'Stichting Openbare Basisschool De Regenboog',
    cocNumber: '41128834',
    address: 'Peppelweg 101',
    postalCode: '3053 GM',
    city: 'Rotterdam',
    daysAgo: 71,
  },
  {
    type: 'business',
    name: 'Robert van Leeuwen',
    email: 'r.vanleeuwen@vanleeuwenvastgoed.example',
    phone: '+31 10 436 2280',
    companyName: 'Van Leeuwen Vastgoedbeheer B.V.',
    vatNumber: 'NL807311947B01',
    cocNumber: '24311876',
    address: 'Westersingel 30',
    postalCode: '3014 GP',
    city: 'Rotterdam',
    daysAgo: 158,
    convertedAfterDays: 18,
    notes: [
      {
        author: 'peter',
        afterDays: 2,
        content:
          'Beheert ca. 40 huurwoningen in Rotterdam-Zuid en wil een raamcontract voor cv-onderhoud en storingen.',
      },
      {
        author: 'sanne',
        afterDays: 18,
        content:
          'Raamcontract getekend voor drie jaar. Facturen graag per woning, met het complexnummer in de omschrijving.',
        important: true,
      },
    ],
  },
  {
    type: 'business',
    name: 'Nadia Bos',
    email: 'praktijk@fysiokralingen.example',
    phone: '+31 10 452 1198',
    companyName: 'Fysiotherapie Kralingen',
    vatNumber: 'NL862001470B01',
    cocNumber: '58830211',
    address: 'Oudedijk 180',
    postalCode: '3061 AN',
    city: 'Rotterdam',
    daysAgo: 102,
    convertedAfterDays: 11,
  },
  {
    type: 'business',
    name: 'Gerrit Schipper',
    email: 'gerrit@autobedrijfschipper.example',
    phone: '+31 180 416 662',
    companyName: 'Autobedrijf Schipper V.O.F.',
    vatNumber: 'NL850477311B01',
    cocNumber: '23076541',
    address: 'Donkerslootweg 12',
    postalCode: '2983 GK',
    city: 'Ridderkerk',
    daysAgo: 40,
  },
  {
    type: 'business',
    name: 'Esther Kok',
    email: 'info@hetspeelhuis.example',
    phone: '+31 10 442 8054',
    companyName: 'Kinderdagverblijf Het Speelhuis',
    vatNumber: 'NL859912085B01',
    cocNumber: '67452190',
    address: 'Slotlaan 77',
    postalCode: '2902 AK',
    city: 'Capelle aan den IJssel',
    daysAgo: 15,
  },
  {
    type: 'business',
    name: 'Frank de Jong',
    email: 'f.dejong@hotelmaasoever.example',
    phone: '+31 10 414 0031',
    companyName: 'Hotel Maasoever B.V.',
    vatNumber: 'NL822675018B01',
    cocNumber: '24450912',
    address: 'Maasboulevard 8',
    postalCode: '3011 TX',
    city: 'Rotterdam',
    daysAgo: 8,
  },
  {
    type: 'business',
    name: 'Joyce Peters',
    email: 'joyce@knipenco.example',
    phone: '+31 10 411 7746',
    companyName: 'Kapsalon Knip & Co',
    vatNumber: 'NL864590118B01',
    cocNumber: '70128845',
    address: 'Hoogstraat 88',
    postalCode: '3011 PR',
    city: 'Rotterdam',
    daysAgo: 66,
    convertedAfterDays: 4,
  },
  {
    type: 'business',
    name: 'Sander Kuipers',
    email: 'praktijk@tandartsblijdorp.example',
    phone: '+31 10 466 3021',
    companyName: 'Tandartspraktijk Blijdorp',
    vatNumber: 'NL818845624B01',
    cocNumber: '27765013',
    address: 'Statenweg 150',
    postalCode: '3039 JM',
    city: 'Rotterdam',
    daysAgo: 52,
    notes: [
      {
        author: 'mark',
        afterDays: 5,
        content:
          'Offerte voor warmtepomp en vloerverwarming in de nieuwe behandelkamers verstuurd. Nabellen over twee weken.',
      },
    ],
  },
];

/** A deal of a demo customer and how it moved over the board; days count from the customer's creation. */
export type DemoDeal = {
  customer: string;
  title: string;
  description: string;
  /** A manual amount; without one the value follows the deal's quotes (none yet in the demo: null). */
  value?: string;
  owner?: string;
  afterDays: number;
  /** Stages it entered later, in order (index into DEFAULT_PIPELINE); a lost stage may carry the reason. */
  moves?: { afterDays: number; stage: number; lostReason?: string }[];
  archivedAfterDays?: number;
  notes?: DemoNote[];
};

/** Open deals in several stages, won, lost (with and without a reason) and archived ones. */
export const DEMO_DEALS: DemoDeal[] = [
  {
    customer: 'Jan de Vries',
    title: 'Hybride warmtepomp',
    description: 'Remeha Elga Ace naast de bestaande cv-ketel, inclusief buitenunit en thermostaat.',
    value: '8950.00',
    owner: 'mark',
    afterDays: 1,
    moves: [
      { afterDays: 4, stage: 2 },
      { afterDays: 12, stage: 4 },
    ],
    notes: [{ author: 'mark', afterDays: 5, content: 'Offerte besproken; klant twijfelt tussen 5 en 8 kW.' }],
  },
  {
    customer: 'Fatima Bouzid',
    title: 'Zonnepanelen plat dak',
    description: 'Circa 12 panelen oost-west op een plat dak.',
    owner: 'sanne',
    afterDays: 0,
    notes: [{ author: 'sanne', afterDays: 1, content: 'Dakinspectie inplannen voordat we een offerte maken.' }],
  },
  {
    customer: 'Kees Bakker',
    title: 'Vervanging cv-ketel',
    description: 'Nieuwe HR-combiketel met slimme thermostaat.',
    value: '3250.00',
    owner: 'ahmed',
    afterDays: 1,
    moves: [
      { afterDays: 3, stage: 1 },
      { afterDays: 8, stage: 5, lostReason: 'Koos voor een goedkopere aanbieder.' },
    ],
    archivedAfterDays: 20,
  },
  {
    customer: 'Willem Mulder',
    title: 'Airco slaapkamers',
    description: 'Twee split-units voor de slaapkamers op de eerste verdieping.',
    value: '4200.00',
    owner: 'ahmed',
    afterDays: 2,
    moves: [
      { afterDays: 5, stage: 1 },
      { afterDays: 9, stage: 2 },
    ],
  },
  {
    customer: 'Priya Ramdin',
    title: 'Vloerverwarming benedenverdieping',
    description: 'Infrezen van vloerverwarming in woonkamer en keuken, 48 m².',
    value: '12500.50',
    owner: 'peter',
    afterDays: 4,
    moves: [
      { afterDays: 8, stage: 2 },
      { afterDays: 20, stage: 3 },
    ],
    notes: [
      {
        author: 'peter',
        afterDays: 21,
        content: 'Klant vraagt 5% korting bij opdracht voor eind van de maand.',
        important: true,
      },
    ],
  },
  {
    customer: 'Thomas van den Berg',
    title: 'Thuisbatterij',
    description: 'Thuisbatterij van 10 kWh bij de bestaande zonnepanelen.',
    afterDays: 3,
    moves: [{ afterDays: 6, stage: 1 }],
  },
  {
    customer: 'Henk Brouwer',
    title: 'Warmtepomp met zonneboiler',
    description: 'Lucht-water warmtepomp en zonneboiler van 200 liter.',
    value: '17450.00',
    owner: 'mark',
    afterDays: 2,
    moves: [
      { afterDays: 10, stage: 2 },
      { afterDays: 25, stage: 3 },
      { afterDays: 30, stage: 4 },
    ],
    archivedAfterDays: 60,
  },
  {
    customer: 'Mohamed Ait Taleb',
    title: 'Laadpaal oprit',
    description: 'Laadpaal van 11 kW op de oprit, met aparte groep in de meterkast.',
    value: '1895.00',
    owner: 'sanne',
    afterDays: 5,
    moves: [{ afterDays: 14, stage: 5 }],
  },
  {
    customer: 'Emma Hendriks',
    title: 'Badkamerventilatie',
    description: 'Mechanische ventilatie in de badkamer; klant wacht de verbouwing af.',
    afterDays: 2,
    archivedAfterDays: 12,
  },
];

/** A task on a demo board; days count back from now. Links name demo customers and (by customer) their deals. */
export type DemoTask = {
  board: number;
  /** Index into the board's columns. */
  column: number;
  title: string;
  description?: string;
  priority: 'low' | 'normal' | 'high' | 'urgent';
  daysAgo: number;
  /** Due date in days from now (negative: overdue). */
  dueInDays?: number;
  assignee?: string;
  creator?: string;
  customers?: string[];
  /** Deals by their customer's name. */
  deals?: string[];
  /** Checklist points and whether each is checked. */
  checklist?: [string, boolean][];
  /** User comments (`author` null: posted through the API), days after creation. */
  comments?: { author: string | null; afterDays: number; body: string }[];
  /** Days after creation it reached its column (a system line "moved" is written then). */
  movedAfterDays?: number;
};

/** Tasks in every column of both boards, with links, checklists and comments. */
export const DEMO_TASKS: DemoTask[] = [
  {
    board: 0,
    column: 0,
    title: 'Offerte zonnepanelen Fatima Bouzid opstellen',
    description: 'Circa 12 panelen oost-west op een plat dak. Eerst dakinspectie.',
    priority: 'high',
    daysAgo: 5,
    dueInDays: 3,
    assignee: 'sanne',
    creator: 'sanne',
    customers: ['Fatima Bouzid'],
    deals: ['Fatima Bouzid'],
    checklist: [
      ['Dakinspectie inplannen', true],
      ['Offerte in het boekhoudpakket zetten', false],
    ],
    comments: [{ author: 'sanne', afterDays: 1, body: 'Klant is na 17.00 uur bereikbaar.' }],
  },
  {
    board: 0,
    column: 0,
    title: 'Terugbellen over thuisbatterij',
    priority: 'normal',
    daysAgo: 2,
    dueInDays: 1,
    customers: ['Thomas van den Berg'],
    deals: ['Thomas van den Berg'],
  },
  {
    board: 0,
    column: 1,
    title: 'Vloerverwarming Priya Ramdin: korting afstemmen',
    description: 'Klant vraagt 5% korting bij opdracht voor eind van de maand.',
    priority: 'urgent',
    daysAgo: 9,
    dueInDays: -1,
    assignee: 'peter',
    creator: 'mark',
    customers: ['Priya Ramdin'],
    deals: ['Priya Ramdin'],
    movedAfterDays: 2,
    comments: [
      { author: 'peter', afterDays: 3, body: 'Marge laat 3% toe; voorstel gedaan.' },
      { author: null, afterDays: 4, body: 'Offerte OFF-2026-0042 aangepast in het boekhoudpakket.' },
    ],
  },
  {
    board: 0,
    column: 2,
    title: 'Laadpaal Mohamed Ait Taleb: nazorg',
    priority: 'low',
    daysAgo: 30,
    assignee: 'sanne',
    creator: 'sanne',
    customers: ['Mohamed Ait Taleb'],
    movedAfterDays: 6,
    checklist: [['Klant gebeld', true]],
  },
  {
    board: 0,
    column: 3,
    title: 'Airco offerte herzien',
    description: 'Klant koos voorlopig voor ventilatoren.',
    priority: 'normal',
    daysAgo: 40,
    assignee: 'ahmed',
    creator: 'mark',
    customers: ['Willem Mulder'],
    deals: ['Willem Mulder'],
    movedAfterDays: 10,
  },
  {
    board: 1,
    column: 0,
    title: 'Storing cv-ketel Jan de Vries',
    description: 'Ketel slaat af bij warm water; foutcode E119.',
    priority: 'urgent',
    daysAgo: 1,
    dueInDays: 0,
    creator: 'mark',
    customers: ['Jan de Vries'],
  },
  {
    board: 1,
    column: 1,
    title: 'Jaarlijks onderhoud warmtepomp Henk Brouwer',
    priority: 'normal',
    daysAgo: 14,
    dueInDays: 6,
    assignee: 'ahmed',
    creator: 'mark',
    customers: ['Henk Brouwer'],
    movedAfterDays: 2,
    checklist: [
      ['Filters vervangen', false],
      ['Druk controleren', false],
    ],
  },
  {
    board: 1,
    column: 2,
    title: 'Lekkage radiator Anouk Smit',
    priority: 'high',
    daysAgo: 3,
    dueInDays: 0,
    assignee: 'ahmed',
    creator: 'sanne',
    customers: ['Anouk Smit'],
    movedAfterDays: 1,
    comments: [{ author: 'ahmed', afterDays: 2, body: 'Onderweg, verwacht rond 14.00 uur.' }],
  },
  {
    board: 1,
    column: 3,
    title: 'Thermostaat vervangen Kees Bakker',
    priority: 'normal',
    daysAgo: 8,
    dueInDays: 4,
    assignee: 'ahmed',
    creator: 'mark',
    customers: ['Kees Bakker'],
    movedAfterDays: 2,
    comments: [{ author: 'ahmed', afterDays: 2, body: 'Thermostaat besteld, levering volgende week.' }],
  },
  {
    board: 1,
    column: 4,
    title: 'Expansievat vervangen Emma Hendriks',
    priority: 'normal',
    daysAgo: 25,
    assignee: 'ahmed',
    creator: 'sanne',
    customers: ['Emma Hendriks'],
    movedAfterDays: 5,
    checklist: [['Werkbon getekend', true]],
  },
  {
    board: 1,
    column: 5,
    title: 'Onderhoud airco Sophie Meijer',
    description: 'Klant heeft het contract opgezegd.',
    priority: 'low',
    daysAgo: 60,
    creator: 'mark',
    customers: ['Sophie Meijer'],
    movedAfterDays: 7,
  },
];
