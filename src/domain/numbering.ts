// How document numbers read: a letter per kind, the year and a counter of at least four digits that restarts
// every year (O2026-0017 is the 17th quote of 2026). The counter itself is kept in the database
// (src/db/document-numbers.ts).

/** The letter before the year, per kind of document (Dutch: Offerte, Factuur, Werkbon). */
export const NUMBER_PREFIXES = { quote: 'O', invoice: 'F', work_order: 'W' } as const;
export type NumberedKind = keyof typeof NUMBER_PREFIXES;

export const formatDocumentNumber = (kind: NumberedKind, year: number, counter: number): string =>
  `${NUMBER_PREFIXES[kind]}${year}-${String(counter).padStart(4, '0')}`;
