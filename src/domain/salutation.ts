// How every message to a customer opens: one salutation per language, with the customer's name and without one,
// for quote, invoice, order, review and appointment messages alike (a customer without a name used to be greeted
// four ways per language, "Hallo Kundin, Kunde," and "Bonjour cher client," among them).
import type { Language } from '../languages.ts';

const NAMED: Record<Language, (name: string) => string> = {
  en: (name) => `Dear ${name},`,
  nl: (name) => `Beste ${name},`,
  de: (name) => `Guten Tag ${name},`,
  fr: (name) => `Bonjour ${name},`,
};
const NAMELESS: Record<Language, string> = {
  en: 'Dear customer,',
  nl: 'Beste klant,',
  de: 'Guten Tag,',
  fr: 'Bonjour,',
};

/** The opening line of a message to a customer: `Beste Jan Jansen,`, or `Beste klant,` without a name. */
export function salutation(name: string | null | undefined, language: Language): string {
  const trimmed = name?.trim();
  return trimmed ? NAMED[language](trimmed) : NAMELESS[language];
}
