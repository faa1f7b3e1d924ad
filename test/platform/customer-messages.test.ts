// Every customer-facing text in all four languages (point 12 of issue 37): the problem-detail catalogue of every
// resource, problem titles and error pages, the quote/invoice emails, appointment messages, the webhook email,
// review pages, the widget, unsubscribe pages, Redoc's words and the PDF labels. It walks each table generically
// (every registered message, problem code and template, so texts added later are covered) and fails on a text
// left in English, an ISO date or an unformatted amount in a sentence, and a wrong plural for 1.
import { describe, expect, it } from 'vitest';
import { problems } from '../../generated/problems.ts';
import { formatDate, formatMoney } from '../../src/domain/locale-format.ts';
import { REDOC_WORDS } from '../../src/http/docs-labels.ts';
import { localize, type Message } from '../../src/http/messages.ts';
import { LANGUAGES, type Language } from '../../src/languages.ts';
import { PDF_LABELS } from '../../src/pdf/labels.ts';
import { APPOINTMENT_LABELS, APPOINTMENT_TEXTS } from '../../src/resources/appointments/notify.ts';
import { messageCatalogue } from '../../src/resources/index.ts';
import { DOCUMENT_EMAIL_WORDS, documentEmail } from '../../src/resources/quotes/email.ts';
import { WIDGET_TEXTS } from '../../src/resources/reviews/published.ts';
import { PAGE_TEXTS } from '../../src/resources/reviews/review-page-texts.ts';
import { UNSUBSCRIBE_TEXTS } from '../../src/resources/reviews/unsubscribe-page.ts';
import { DISABLED_EMAIL } from '../../src/webhooks/disable-endpoint.ts';

const OTHERS = LANGUAGES.filter((l) => l !== 'en');
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
/** An amount as the API writes it (`3413.62`, `EUR 3413.62`), not as a person reads it. */
const RAW_AMOUNT = /\b[A-Z]{3} \d|(?<![€$£\d.,])\d{4,}\.\d{2}\b/;
/** A decimal point where the language writes a comma. */
const DECIMAL_POINT = /\d\.\d{2}(?!\d)/;
/** "1" with a plural noun: the plural rules were not applied. */
const ONE_PLURAL = /\b1 (characters|bytes|days|inputs|tekens|dagen|Tage|Tagen|Bytes|caractères|octets|jours)\b/;
/** Texts that are the same word in a language (names, codes, loanwords). */
const SAME_WORDS = new Set([
  'IBAN',
  'Webhook',
  'Webhooks',
  'Callbacks',
  'Cookies',
  'Reviews',
  'Photos',
  'Description',
  'Date',
  'Total',
  'Signature',
  'Notes',
  'Page',
  'Client',
  'E-mail',
  'strings',
  'arrays',
  'booleans',
  'Server',
  'Parameter',
  'Query',
  'Schemas',
  'Header',
  'Nummer',
  'Datum',
  'Montant',
  'Variables',
  'Tel.',
  'Btw',
  'Array',
]);

/** Every string leaf of a value, by path (functions are called with sample arguments). */
function leaves(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') {
    const args = Array.from({ length: value.length }, (_, i) => `«${i}»`);
    return [[path, String((value as (...a: string[]) => unknown)(...args))]];
  }
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${path}.${k}`));
  return [];
}

/** A table keyed by language, or by anything then language: the leaves of each language at the same paths. */
function byLanguage(table: unknown): Record<Language, Map<string, string>> {
  const out = Object.fromEntries(LANGUAGES.map((l) => [l, new Map<string, string>()])) as Record<
    Language,
    Map<string, string>
  >;
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    const keys = Object.keys(node);
    if (LANGUAGES.every((l) => keys.includes(l))) {
      for (const l of LANGUAGES)
        for (const [p, text] of leaves((node as Record<Language, unknown>)[l])) out[l].set(path + p, text);
      return;
    }
    for (const [k, v] of Object.entries(node)) walk(v, `${path}.${k}`);
  };
  walk(table, '');
  return out;
}

const TABLES: Record<string, unknown> = {
  'problem details': messageCatalogue,
  'quote and invoice emails': DOCUMENT_EMAIL_WORDS,
  'appointment messages': APPOINTMENT_TEXTS,
  'appointment labels': APPOINTMENT_LABELS,
  'webhook endpoint disabled email': DISABLED_EMAIL,
  'review pages': PAGE_TEXTS,
  'reviews widget': WIDGET_TEXTS,
  'unsubscribe pages': UNSUBSCRIBE_TEXTS,
  'docs words': REDOC_WORDS,
  'PDF labels': PDF_LABELS,
  'problem titles': Object.fromEntries(Object.entries(problems).map(([code, p]) => [code, p.titles])),
  'error pages': Object.fromEntries(Object.entries(problems).map(([code, p]) => [code, p.pages])),
};

describe('every customer-facing text in nl, en, de and fr', () => {
  it.each(Object.keys(TABLES))('%s: every language has every text, translated', (name) => {
    const texts = byLanguage(TABLES[name]);
    expect(texts.en.size, name).toBeGreaterThan(0);
    for (const l of OTHERS) {
      expect([...texts[l].keys()].sort(), `${name} ${l}`).toEqual([...texts.en.keys()].sort());
      for (const [path, english] of texts.en) {
        const text = texts[l].get(path) as string;
        // An example problem's instance and extras are data; only its detail is prose.
        if (/\.example\./.test(path) && !path.endsWith('.detail')) continue;
        expect(text.trim(), `${name} ${l} ${path}`).not.toBe('');
        // A text with words in it differs from the English (codes, names and loanwords may not).
        const words = english.replace(/`[^`]*`|\{[^}]*\}|«\d»/g, '').match(/\p{L}{3,}/gu) ?? [];
        if (words.length > 0 && !SAME_WORDS.has(english.trim()))
          expect(text, `${name} ${l} ${path} is left in English`).not.toBe(english);
      }
    }
  });

  it.each(LANGUAGES)('%s: no problem detail says a type name, a wrong plural or an ISO date', (l) => {
    for (const [id, templates] of Object.entries(messageCatalogue)) {
      const names = [...templates.en.matchAll(/\{(\w+)/g)].map((m) => m[1]);
      for (const n of [1, 2]) {
        const params = Object.fromEntries(names.map((name) => [name, n]));
        const text = localize({ id, templates, params } as Message, l);
        expect(text, `${id} ${l}`).not.toMatch(ONE_PLURAL);
        expect(text, `${id} ${l}`).not.toMatch(
          /\b(im Format|valeur|of type|van het type|vom Typ|de type) (email|uuid|url|date|datetime|string|number|integer|boolean|object|array)\b/,
        );
        // Formats are explained by an example (field.format_*); no other text carries a date.
        if (!id.startsWith('field.format_')) expect(text, `${id} ${l}`).not.toMatch(ISO_DATE);
      }
    }
  });

  it.each(LANGUAGES)('%s: the quote and invoice emails carry formatted amounts and dates only', (l) => {
    for (const kind of ['quote', 'invoice'] as const)
      for (const name of ['Pieter de Boer', null]) {
        const { subject, text } = documentEmail(
          {
            kind,
            number: 'F2026-0042',
            total: '3413.62',
            currency: 'EUR',
            language: l,
            customer: { name },
            dueDate: '2026-12-12',
            validUntil: '2026-12-12',
            amountPaid: '1000.00',
            amountDue: '2413.62',
          },
          { name: 'Visser' },
          {},
        );
        for (const sent of [subject, text]) {
          expect(sent, `${kind} ${l}`).not.toMatch(ISO_DATE);
          expect(sent, `${kind} ${l}`).not.toMatch(RAW_AMOUNT);
        }
        if (l !== 'en') expect(text, `${kind} ${l}`).not.toMatch(DECIMAL_POINT);
        expect(text).toContain(formatMoney('3413.62', 'EUR', l));
        expect(text).toContain(formatDate('2026-12-12', l));
      }
  });

  it.each(LANGUAGES)('%s: the PDF sentences carry formatted amounts and dates', (l) => {
    const labels = PDF_LABELS[l];
    const sentence = labels.payBy(formatMoney('312.32', 'EUR', l), formatDate('2026-12-12', l), null, 'F1');
    expect(sentence).not.toMatch(ISO_DATE);
    expect(sentence).not.toMatch(RAW_AMOUNT);
  });
});
