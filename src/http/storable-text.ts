// Text PostgreSQL cannot store: U+0000, and an unpaired surrogate (JSON can escape one, e.g. "\ud800"; it is no
// character, UTF-8 cannot encode it, and the database driver would silently write U+FFFD instead). Every way text
// comes in (JSON bodies, query strings, forms, multipart parts and file names) refuses it with this one check,
// instead of failing on insert (500).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type Unstorable = 'nul' | 'surrogate';

/** Why `text` cannot be stored, or null when it can. */
export const unstorable = (text: string): Unstorable | null =>
  text.includes('\u0000') ? 'nul' : LONE_SURROGATE.test(text) ? 'surrogate' : null;
