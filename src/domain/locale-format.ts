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

/** An instant's calendar day on the company's clock (2 maart 2026): a review at 00:40 in Amsterdam is of that day. */
export function formatDateOn(instant: string | Date, language: Language, timeZone: string): string {
  const format = dateFormat(language, { dateStyle: 'long', timeZone });
  return format.format(new Date(instant));
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

// The percent sign as each language writes it after a number, from the locale's own percent format: `21%` in
// Dutch and English, `21 %` with a no-break space in German and French (French's narrow no-break space becomes a
// plain one: a term line stores its percentage in its text, and every font the PDFs use has that space).
const percentSuffixes = new Map<Language, string>();
function percentSuffix(language: Language): string {
  let suffix = percentSuffixes.get(language);
  if (suffix === undefined) {
    suffix = numberFormat(language, { style: 'percent' })
      .format(0.5)
      .replace(/^[\d.,]+/, '')
      .replace(/\u202F/g, '\u00A0');
    percentSuffixes.set(language, suffix);
  }
  return suffix;
}

/** A percentage (`21.00`, `5.5`, 30) as the language writes it: 21%, 5,5 %, 30 %. The one form for every text. */
export function formatPercent(value: string | number, language: Language, maximumFractionDigits = 2): string {
  return `${formatNumber(value, language, maximumFractionDigits)}${percentSuffix(language)}`;
}

/** A placeholder of a text: `{name}` or `{name|one:# thing|other:# things}`. */
/** A template's `{name}` marks replaced by the values (formatted for the language already); an unknown one by ''. */
export const fill = (template: string, values: Readonly<Record<string, string>>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');

export const PLACEHOLDER = /\{(\w+)(?:\|([^{}]*))?\}/g;

/**
 * A text with counts: `{name}` is replaced by its value, `{name|one:# review|other:# reviews}` by the form the
 * language's plural rules (Intl.PluralRules) choose for the count, `#` written as the language writes numbers.
 * French counts 0 and 1 as `one`; `other` is the form for any category a template does not name.
 */
export function fillCounted(template: string, values: Readonly<Record<string, string | number>>, language: Language) {
  return template.replace(PLACEHOLDER, (whole, name: string, forms: string | undefined) => {
    const value = values[name];
    if (value === undefined) return whole;
    if (forms !== undefined && value !== '' && Number.isFinite(Number(value)))
      return pluralForm(forms, Number(value), language);
    return String(value);
  });
}

const pluralRules = new Map<Language, Intl.PluralRules>();
/** The form of `forms` (`one:# thing|other:# things`) that the language's plural rules choose for `count`. */
export function pluralForm(forms: string, count: number, language: Language): string {
  const byCategory = new Map(
    forms.split('|').map((form) => {
      const colon = form.indexOf(':');
      return [form.slice(0, colon), form.slice(colon + 1)] as const;
    }),
  );
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(LOCALES[language]);
    pluralRules.set(language, rules);
  }
  const form = byCategory.get(rules.select(count)) ?? byCategory.get('other') ?? '#';
  return form.replaceAll('#', formatNumber(count, language));
}

/**
 * A label followed by a colon as the language punctuates it: French puts a no-break space before the colon
 * ("Quand : …"), the others none.
 */
export function labelled(label: string, value: string, language: Language): string {
  return language === 'fr' ? `${label}\u00A0: ${value}` : `${label}: ${value}`;
}
