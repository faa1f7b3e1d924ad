// The standard email of a quote or an invoice: amounts and dates as the PDF writes them (one formatter), "attached"
// in every language, a graceful greeting for a customer without a name, the open amount of a part-paid invoice.
import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from '../../../src/domain/locale-format.ts';
import { salutation } from '../../../src/domain/salutation.ts';
import { LANGUAGES } from '../../../src/languages.ts';
import { formatDate as pdfDate, formatMoney as pdfMoney } from '../../../src/pdf/labels.ts';
import { documentEmail } from '../../../src/resources/quotes/email.ts';

const company = { name: 'Schildersbedrijf Visser' };
const invoiceDoc = (language: (typeof LANGUAGES)[number]) => ({
  kind: 'invoice' as const,
  number: 'F2026-0042',
  total: '3413.62',
  currency: 'EUR',
  language,
  customer: { name: 'Pieter' },
  dueDate: '2026-12-12',
});
const invoice = (language: (typeof LANGUAGES)[number], name: string | null) =>
  documentEmail(
    {
      kind: 'invoice',
      number: 'F2026-0042',
      total: '3413.62',
      currency: 'EUR',
      language,
      customer: { name },
      dueDate: '2026-12-12',
      amountPaid: '0.00',
      amountDue: '3413.62',
    },
    company,
    {},
  );

/** The PDF's text with its WinAnsi spaces as the email writes them. */
const asPdf = (text: string) => text.replace(/\u00A0/g, ' ');
const spaces = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

describe('the email of a quote or an invoice', () => {
  it.each(LANGUAGES)('%s: writes the amount and the due date as the PDF does', (language) => {
    const { text } = invoice(language, 'Pieter de Boer');
    expect(text).not.toContain('3413.62');
    expect(text).not.toContain('EUR 3413.62');
    expect(text).not.toContain('2026-12-12');
    expect(text).toContain(formatMoney('3413.62', 'EUR', language));
    expect(text).toContain(formatDate('2026-12-12', language));
    // The PDF prints the same figures (its fonts only lack the narrow no-break space).
    expect(spaces(text)).toContain(asPdf(pdfMoney('3413.62', 'EUR', language)));
    expect(spaces(text)).toContain(asPdf(pdfDate('2026-12-12', language)));
  });

  it('says what is attached, in English too', () => {
    expect(invoice('en', 'Pieter').text).toMatch(/attached/);
    expect(invoice('nl', 'Pieter').text).toMatch(/bijlage/);
    expect(invoice('de', 'Pieter').text).toMatch(/anbei/);
    expect(invoice('fr', 'Pieter').text).toMatch(/ci-joint/);
  });

  it.each(LANGUAGES)('%s: greets a customer without a name without a dangling comma', (language) => {
    for (const name of [null, '', '  ']) {
      const first = invoice(language, name).text.split('\n')[0];
      expect(first).not.toMatch(/\s,/);
      expect(first).toBe(salutation(null, language));
    }
    expect(invoice('fr', null).text.startsWith('Bonjour,\n')).toBe(true);
  });

  it('names the open amount of a part-paid invoice', () => {
    const { text } = documentEmail(
      {
        kind: 'invoice',
        number: 'F2026-0042',
        total: '121.00',
        currency: 'EUR',
        language: 'de',
        customer: { name: 'Anna Schmidt' },
        dueDate: '2026-12-12',
        amountPaid: '50.00',
        amountDue: '71.00',
      },
      company,
      {},
    );
    expect(spaces(text)).toContain('Davon sind noch 71,00 € offen.');
  });

  it('gives a quote its validity date', () => {
    const { subject, text } = documentEmail(
      {
        kind: 'quote',
        number: 'O2026-0007',
        total: '1801.31',
        currency: 'EUR',
        language: 'en',
        customer: { name: 'Emma Clarke' },
        validUntil: '2026-04-01',
      },
      company,
      {},
    );
    expect(subject).toBe('Quote O2026-0007 from Schildersbedrijf Visser');
    expect(text).toContain('Please find attached our quote O2026-0007 for €1,801.31, valid until 1 April 2026.');
  });

  it.each(
    LANGUAGES,
  )('%s: carries the link to the online document, in its own words and with a message of its own', (language) => {
    const url = 'https://crm.example.com/quote/abc.def';
    for (const kind of ['quote', 'invoice'] as const) {
      const doc = {
        kind,
        number: 'O2026-0007',
        total: '1801.31',
        currency: 'EUR',
        language,
        customer: { name: 'Emma Clarke' },
        validUntil: '2026-04-01',
        dueDate: '2026-04-01',
        publicUrl: url,
      };
      const standard = documentEmail(doc, company, {}).text;
      expect(standard).toContain(url);
      // The link stands on a line of its own words, not glued to the sentence before.
      expect(standard.split('\n').find((line) => line.includes(url))?.length).toBeGreaterThan(url.length + 10);
      expect(documentEmail(doc, company, { message: 'Zie bijlage.' }).text).toContain(url);
    }
    expect(documentEmail({ ...invoiceDoc(language), publicUrl: null }, company, {}).text).not.toContain('http');
  });
});
