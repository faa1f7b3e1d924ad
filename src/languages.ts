// The four languages of the service (problem texts, localized names, event summaries, the contract's overlays).
export const LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
