// The language of titles and localized names: the first of nl/en/de/fr in Accept-Language (by q-value),
// otherwise the company's language, otherwise English.
import { LANGUAGES, type Language } from '../languages.ts';

export { LANGUAGES, type Language };

const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

export function languageFromHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      // Parameter names are case-insensitive (RFC 9110): `Q=0.2` is a weight too.
      const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
      return { primary: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isLanguage);
}

export function chooseLanguage(header: string | undefined, companyLanguage?: string): Language {
  return languageFromHeader(header) ?? (companyLanguage && isLanguage(companyLanguage) ? companyLanguage : 'en');
}

/**
 * The language of a public page that has no record to take it from (an unknown link): `?lang=`, else
 * Accept-Language, else English.
 */
export function pageLanguage(lang: string | undefined, acceptLanguage: string | undefined): Language {
  return lang !== undefined && isLanguage(lang) ? lang : chooseLanguage(acceptLanguage);
}
