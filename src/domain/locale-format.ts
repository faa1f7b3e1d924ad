// How amounts, numbers and dates are written in each language of the service: one formatter for everything a
// customer reads (PDFs, emails, pages, the reviews widget), so an email never says `EUR 3413.62` next to a PDF
// that says `3.413,62 €`. English is British English everywhere (12 March 2026, 24-hour clock), the way a
// European business writes to its customers.
import type { Language } from '../languages.ts';

/** The Intl locale of each language. */
export const LOCALES: Record<Language, string> = { nl: 'nl-NL', en: 'en-GB', de: 'de-DE', fr: 'fr-FR' };

// Building an Intl formatter costs far more than using one (a 200-line PDF formats about a thousand figures), so
// each is built once per language and options.
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function numberFormat(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[language], options);
    numberFormats.set(key, format);
  }
  return format;
}
function dateFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[language], options);
    dateFormats.set(key, format);
  }
  return format;
}

/** An amount (a decimal string such as `-1234.50`) as money in the language's format; exact, no float on the way. */
export function formatMoney(amount: string, currency: string, language: Language): string {
  const format = numberFormat(language, { style: 'currency', currency });
  // Intl formats decimal strings exactly (NumberFormat v3); its type still says number.
  return format.format(amount as unknown as number);
}

/** A quantity, rate or count (`2.00`, `21.00`, `5.50`, 1200) without needless decimals: 2, 21, 5,5, 1.200. */
export function formatNumber(value: string | number, language: Language, maximumFractionDigits = 4): string {
  const format = numberFormat(language, { maximumFractionDigits });
  return format.format(value as unknown as number);
}

/** A calendar date (`2026-03-02`, or the date part of an instant) as the language writes it (2 maart 2026). */
export function formatDate(date: string, language: Language): string {
  const format = dateFormat(language, { dateStyle: 'long', timeZone: 'UTC' });
  return format.format(new Date(`${date.slice(0, 10)}T00:00:00Z`));
}

/** An instant as date and time on the company's clock (2 maart 2026 om 14:30). */
export function formatDateTime(instant: string | Date, language: Language, timeZone: string): string {
  const format = dateFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone });
  return format.format(new Date(instant));
}

/** An instant's calendar day on the company's clock, with the weekday (maandag 2 maart 2026). */
export function formatDay(instant: Date, language: Language, timeZone: string): string {
  const format = dateFormat(language, { dateStyle: 'full', timeZone });
  return format.format(instant);
}

/** An instant's time of day on the company's clock (14:30). */
export function formatTime(instant: Date, language: Language, timeZone: string): string {
  const format = dateFormat(language, { timeStyle: 'short', timeZone });
  return format.format(instant);
}

/**
 * A label followed by a colon as the language punctuates it: French puts a no-break space before the colon
 * ("Quand : …"), the others none.
 */
export function labelled(label: string, value: string, language: Language): string {
  return language === 'fr' ? `${label}\u00A0: ${value}` : `${label}: ${value}`;
}
