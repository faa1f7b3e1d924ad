// The demo customers' deals, how each moved over the board and the notes written about it.
import type { DemoNote } from './customers.ts';

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
