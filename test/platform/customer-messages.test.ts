// Every customer-facing text in all four languages (point 12 of issue 37): the problem-detail catalogue of every
// resource, problem titles and error pages, the quote/invoice emails, appointment messages, the webhook email,
// review pages, the widget, unsubscribe pages, Redoc's words and the PDF labels. It walks each table generically
// (every registered message, problem code and template, so texts added later are covered) and fails on a text
// left in English, an ISO date or an unformatted amount in a sentence, and a wrong plural for 1.

import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { problems } from '../../generated/problems.ts';
import { appointmentCalendar } from '../../src/domain/icalendar.ts';
import { formatDate, formatMoney } from '../../src/domain/locale-format.ts';
import { REDOC_WORDS } from '../../src/http/docs-labels.ts';
import { localize, type Message } from '../../src/http/message-catalogue.ts';
import { LANGUAGES, type Language } from '../../src/languages.ts';
import type { DocumentPdfView } from '../../src/pdf/document-view.ts';
import { PDF_LABELS } from '../../src/pdf/labels.ts';
import { APPOINTMENT_LABELS, APPOINTMENT_TEXTS, whenText } from '../../src/resources/appointments/notify.ts';
import { AnswerForm, DocumentPage, PaymentBox } from '../../src/resources/document-pages/pages.tsx';
import { DOCUMENT_PAGE_TEXTS, say } from '../../src/resources/document-pages/texts.ts';
import { messageCatalogue } from '../../src/resources/index.ts';
import { DOCUMENT_EMAIL_WORDS, documentEmail } from '../../src/resources/quotes/email.ts';
import { WIDGET_TEXTS } from '../../src/resources/reviews/published.ts';
import { PAGE_TEXTS } from '../../src/resources/reviews/review-page-texts.ts';
import { UNSUBSCRIBE_TEXTS } from '../../src/resources/reviews/unsubscribe-page.ts';
import { DISABLED_EMAIL } from '../../src/webhooks/disable-endpoint.ts';

const OTHERS = LANGUAGES.filter((l) => l !== 'en');
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
/**
 * An amount as the API writes it (`3413.62`, `EUR 3413.62`), not as a person reads it. A currency code, not any
 * three capitals: "VAT 9 %" and "TVA 9 %" are labels with a rate.
 */
const RAW_AMOUNT = /\b(EUR|USD|GBP|CHF|SEK|DKK|NOK|PLN) \d|(?<![€$£\d.,])\d{4,}\.\d{2}\b/;
/** A decimal point where the language writes a comma. */
const DECIMAL_POINT = /\d\.\d{2}(?!\d)/;
/** "1" with a plural noun: the plural rules were not applied. */
const ONE_PLURAL =
  /\b1 (characters|bytes|days|inputs|tekens|dagen|Tage|Tagen|Bytes|caractères|octets|jours|seconds|seconden|Sekunden|secondes|messages|berichten|Nachrichten|attachments|bijlagen|Anhänge|pièces jointes|items|Einträge|éléments|addresses|adressen|Adressen|adresses|events|Ereignisse|événements|links|koppelingen|Verknüpfungen|liens|values|waarden|Werte|valeurs|photos|Fotos|endpoints|Endpunkte)\b/;
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
  'BIC',
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
  'online quote and invoice pages': DOCUMENT_PAGE_TEXTS,
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

  /** The sentences of a page, without its markup, its links and the values of attributes. */
  const sentencesOf = (html: string) =>
    html
      .replace(/<style>[\s\S]*?<\/style>/g, '')
      .replace(/<[^>]+>/g, '\n')
      .replace(/&#39;|&quot;|&amp;/g, ' ');

  const view = (l: Language, kind: 'quote' | 'invoice'): DocumentPdfView => ({
    kind,
    number: 'F2026-0042',
    language: l,
    currency: 'EUR',
    title: 'Schilderwerk',
    issueDate: '2026-11-12',
    dueDate: kind === 'invoice' ? '2026-12-12' : null,
    validUntil: kind === 'quote' ? '2026-12-12' : null,
    company: { name: 'Visser', iban: 'NL91ABNA0417164300' },
    customer: { name: 'Pieter de Boer' },
    lines: [
      {
        name: 'Schilderwerk',
        quantity: '24.00',
        unit: 'uur',
        unitPrice: '52.50',
        discount: '0.00',
        taxRate: '9.00',
        total: '1260.00',
      },
      {
        name: 'Verf',
        quantity: '1.50',
        unitPrice: '2153.62',
        discount: '0.00',
        taxRate: '0.00',
        isTaxable: false,
        total: '3230.43',
      },
    ],
    totals: {
      subtotal: '4490.43',
      discount: '100.00',
      taxes: [
        { rate: '9.00', base: '1231.93', amount: '110.87' },
        { rate: '0.00', exempt: true, base: '3158.50', amount: '0.00' },
      ],
      total: '4501.30',
      amountPaid: kind === 'invoice' ? '1087.68' : null,
      amountDue: kind === 'invoice' ? '3413.62' : null,
    },
  });

  it.each(LANGUAGES)('%s: the online quote and invoice carry formatted amounts and dates only', (l) => {
    for (const kind of ['quote', 'invoice'] as const) {
      const shown = view(l, kind);
      // The page's components are functions of their properties (hono/jsx), rendered here without a database.
      const action =
        kind === 'quote'
          ? AnswerForm({ language: l, formToken: 't', total: formatMoney('4501.30', 'EUR', l) })
          : PaymentBox({ view: shown, bic: 'ABNANL2A', language: l });
      const status = say('accepted', l, { date: formatDate('2026-12-12', l), company: 'Visser' });
      const extras = { pdfUrl: '/x/pdf', attachments: [], intro: null, description: null, status, action };
      const html = String(DocumentPage({ view: shown, language: l, extras }));
      const text = sentencesOf(html);
      expect(text, `${kind} ${l}`).not.toMatch(ISO_DATE);
      expect(text, `${kind} ${l}`).not.toMatch(RAW_AMOUNT);
      if (l !== 'en') expect(text, `${kind} ${l}`).not.toMatch(DECIMAL_POINT);
      expect(text).toContain(formatMoney('4501.30', 'EUR', l));
      expect(text).toContain(formatDate('2026-12-12', l));
      if (kind === 'invoice') expect(text).toContain(formatMoney('3413.62', 'EUR', l));
    }
  });

  it.each(LANGUAGES)('%s: the page texts filled at run time carry formatted dates', (l) => {
    for (const key of ['accepted', 'rejected', 'expired'] as const) {
      const text = say(key, l, { date: formatDate('2026-12-12', l), company: 'Visser' });
      expect(text).not.toMatch(ISO_DATE);
      expect(text).toContain(formatDate('2026-12-12', l));
    }
  });

  it.each(LANGUAGES)('%s: the appointment time and the invitation (.ics) carry no ISO date in a sentence', (l) => {
    const startsAt = new Date('2026-12-12T09:00:00Z');
    const endsAt = new Date('2026-12-12T10:30:00Z');
    const when = whenText({ startsAt, endsAt, allDay: false }, 'Europe/Amsterdam', l) ?? '';
    expect(when).not.toMatch(ISO_DATE);
    expect(when).toContain(
      formatDate('2026-12-12', l)
        .replace(/^\d+\.? /, '')
        .split(' ')[0],
    );
    const ics = appointmentCalendar({
      uid: 'a@example.test',
      sequence: 0,
      status: 'confirmed',
      startsAt,
      endsAt,
      allDay: false,
      title: 'Onderhoud cv-ketel',
      description: 'Graag de meterkast vrijhouden.',
      location: 'Lange Nieuwstraat 14, Utrecht',
      timeZone: 'Europe/Amsterdam',
      organizer: { name: 'Visser', email: 'info@visser.example' },
      attendee: { name: 'Pieter de Boer', email: 'pieter@example.nl' },
      stamp: new Date('2026-11-12T08:00:00Z'),
    });
    const event = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent');
    // What a calendar shows as text is the appointment's own, nothing the service wrote in one language.
    for (const property of ['summary', 'description', 'location']) {
      const text = String(event?.getFirstPropertyValue(property) ?? '');
      expect(text, property).not.toMatch(ISO_DATE);
      expect(text, property).not.toMatch(RAW_AMOUNT);
    }
    expect(event?.getFirstPropertyValue('summary')).toBe('Onderhoud cv-ketel');
    expect(event?.getFirstPropertyValue('description')).toBe('Graag de meterkast vrijhouden.');
  });
});
