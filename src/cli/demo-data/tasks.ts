// The demo company's tasks on its boards, with their links, checklists and comments.

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
