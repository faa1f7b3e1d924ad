// The four languages of the service (problem texts, localized names, event summaries, the contract's overlays).
export const LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
/** One text in each language (the rows of the texts tables of pages, emails and messages). */
export type Texts = Readonly<Record<Language, string>>;
