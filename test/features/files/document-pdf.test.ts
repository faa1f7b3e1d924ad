// The document PDF, checked as a reader sees it: rendered to PNG by poppler's pdftoppm and read back as text by
// pdftotext. The PNGs stay in test-results/pdf/ (ignored by git) to be looked at.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocumentPdf } from '../../../src/pdf/document-pdf.ts';
import type { DocumentPdfView } from '../../../src/pdf/document-view.ts';

const PDFTOPPM = '/usr/bin/pdftoppm';
const PDFTOTEXT = '/usr/bin/pdftotext';
const OUT = join(import.meta.dirname, '../../../test-results/pdf');

/** Writes the PDF, renders its first page to `<name>-1.png` and answers the PDF's text (layout kept). */
function readBack(name: string, pdf: Buffer): { text: string; png: string; pages: number } {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync(PDFTOPPM, ['-png', '-r', '72', '-f', '1', '-l', '1', file, join(OUT, name)]);
  const png = join(OUT, `${name}-1.png`);
  const text = execFileSync(PDFTOTEXT, ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\u00A0/g, ' ');
  const pages = (text.match(/\f/g) ?? []).length;
  return { text, png, pages };
}

const isPng = (path: string) => readFileSync(path).subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'));

const invoice = (language: DocumentPdfView['language']): DocumentPdfView => ({
  kind: 'invoice',
  number: 'F2026-0042',
  language,
  currency: 'EUR',
  issueDate: '2026-03-02',
  dueDate: '2026-03-16',
  reference: 'PO-7781',
  company: {
    name: 'Schildersbedrijf De Kwast',
    legalName: 'Schildersbedrijf De Kwast B.V.',
    address: { line: 'Keizersgracht 12', postalCode: '1015 CS', city: 'Amsterdam', country: 'NL' },
    vatNumber: 'NL812345678B01',
    cocNumber: '81234567',
    iban: 'NL91 ABNA 0417 1643 00',
    email: 'info@dekwast.nl',
    phone: '+31 20 555 0101',
  },
  customer: {
    name: 'Jan Jansen',
    companyName: 'Bakkerij Jansen B.V.',
    address: { line: 'Prinsengracht 263', postalCode: '1016 GV', city: 'Amsterdam', country: 'NL' },
    email: 'jan@bakkerijjansen.nl',
  },
  lines: [
    {
      name: 'Kwast Sikkens 40 mm',
      description: 'Ronde kwast voor lakwerk',
      quantity: '2.00',
      unit: 'stuk',
      unitPrice: '10.00',
      discount: '0.00',
      taxRate: '21.00',
      total: '20.00',
    },
  ],
  totals: { subtotal: '20.00', taxes: [{ rate: '21.00', base: '20.00', amount: '4.20' }], total: '24.20' },
  paymentTerms: null,
  notes: null,
});

describe.skipIf(!existsSync(PDFTOPPM) || !existsSync(PDFTOTEXT))('document PDFs read back with poppler', () => {
  if (!existsSync(PDFTOPPM) || !existsSync(PDFTOTEXT))
    console.warn(`${PDFTOPPM} or ${PDFTOTEXT} missing (Debian poppler-utils): the document PDFs are not checked`);

  it('a Dutch invoice of 2 × 10.00 at 21% shows its number, customer, tax and total in Dutch', async () => {
    const pdf = await renderDocumentPdf(invoice('nl'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, png, pages } = readBack('invoice-nl', pdf);
    expect(isPng(png)).toBe(true);
    expect(pages).toBe(1);
    expect(text).toContain('Factuur F2026-0042');
    expect(text).toContain('Bakkerij Jansen B.V.');
    expect(text).toContain('Jan Jansen');
    expect(text).toContain('€ 24,20');
    expect(text).toContain('Btw 21% over € 20,00');
    expect(text).not.toMatch(/\d %/);
    expect(text).toContain('€ 4,20');
    expect(text).toContain('Vervaldatum');
    expect(text).toContain('16 maart 2026');
    expect(text).toMatch(/Gelieve € 24,20 uiterlijk 16 maart 2026 over te maken op NL91 ABNA 0417 1643 00/);
    expect(text).toContain('Btw-nr. NL812345678B01');
    expect(text).toContain('KvK 81234567');
    expect(text).toContain('Pagina 1 van 1');
    expect(text).not.toMatch(/Invoice|Total\b|Due date/);
  });

  it('a German invoice writes every label, date and amount in German', async () => {
    const pdf = await renderDocumentPdf(invoice('de'));
    const { text, png } = readBack('invoice-de', pdf);
    expect(isPng(png)).toBe(true);
    expect(text).toContain('Rechnung F2026-0042');
    expect(text).toContain('Bakkerij Jansen B.V.');
    expect(text).toContain('24,20 €');
    expect(text).toContain('MwSt. 21 % auf 20,00 €');
    // One form of a percentage per language: the line's rate as the VAT row writes it, never `21%` beside `21 %`.
    expect(text).not.toMatch(/\d%/);
    expect(text).toContain('Gesamtbetrag');
    expect(text).toContain('16. März 2026');
    expect(text).toContain('USt-IdNr. NL812345678B01');
    expect(text).toContain('Seite 1 von 1');
    expect(text).not.toMatch(/Factuur|Totaal|Btw/);
  });

  it('French and English amounts keep their own separators, thousands included', async () => {
    const big = invoice('fr');
    big.lines[0] = { ...big.lines[0], quantity: '1.00', unitPrice: '1234.50', total: '1234.50' };
    big.totals = {
      subtotal: '1234.50',
      taxes: [{ rate: '5.50', base: '1234.50', amount: '67.90' }],
      total: '1302.40',
    };
    const fr = readBack('invoice-fr', await renderDocumentPdf(big)).text;
    expect(fr).toContain('Facture F2026-0042');
    expect(fr).toContain('1 302,40 €');
    expect(fr).toContain('TVA 5,5 % sur 1 234,50 €');
    const en = readBack('invoice-en', await renderDocumentPdf({ ...big, language: 'en' })).text;
    expect(en).toContain('€1,302.40');
    expect(en).toContain('VAT 5.5% on €1,234.50');
  });

  it('hide_line_amounts prints what and how much of it, without prices, and still the totals', async () => {
    const quote: DocumentPdfView = {
      ...invoice('nl'),
      kind: 'quote',
      number: 'O2026-0007',
      dueDate: null,
      validUntil: '2026-04-01',
      hideLineAmounts: true,
      lines: [
        { ...invoice('nl').lines[0], unitPrice: '1895.00', quantity: '1.00', total: '1895.00' },
        {
          type: 'text',
          name: 'Werkzaamheden',
          quantity: '0.00',
          unitPrice: '0.00',
          discount: '0.00',
          taxRate: '0.00',
          total: '0.00',
        },
      ],
      totals: { subtotal: '1895.00', taxes: [{ rate: '21.00', base: '1895.00', amount: '397.95' }], total: '2292.95' },
    };
    const { text } = readBack('quote-hidden-amounts', await renderDocumentPdf(quote));
    expect(text).toContain('Offerte O2026-0007');
    expect(text).toContain('Kwast Sikkens 40 mm');
    expect(text).toContain('Werkzaamheden');
    expect(text).toContain('Deze offerte is geldig tot en met 1 april 2026.');
    expect(text).toContain('€ 2.292,95');
    // The line's price and amount columns are gone (the subtotal repeats the amount, so count it once).
    expect(text).not.toContain('Prijs');
    expect(text.match(/1\.895,00/g)).toHaveLength(2); // subtotal and the tax base, not the line
    const shown = readBack('quote-shown-amounts', await renderDocumentPdf({ ...quote, hideLineAmounts: false })).text;
    expect(shown).toContain('Prijs');
    expect(shown.match(/1\.895,00/g)).toHaveLength(4);
  });

  it('a work order carries its photos with captions and the signature block', async () => {
    // A real PNG to embed: the first page of the Dutch invoice, as pdftoppm drew it.
    const { png } = readBack('photo-source', await renderDocumentPdf(invoice('nl')));
    const workOrder: DocumentPdfView = {
      ...invoice('nl'),
      kind: 'work_order',
      number: 'W2026-0003',
      dueDate: null,
      photos: [
        { image: readFileSync(png), mimeType: 'image/png', caption: 'Kozijn voorzijde na schilderen' },
        { image: Buffer.from('GIF89a'), mimeType: 'image/gif', caption: 'Achterdeur' },
      ],
      signature: { signedBy: 'Jan Jansen', signedAt: '2026-03-02T14:05:00Z' },
    };
    const { text, png: page } = readBack('work-order-nl', await renderDocumentPdf(workOrder));
    expect(isPng(page)).toBe(true);
    expect(text).toContain('Werkbon W2026-0003');
    expect(text).toContain("Foto's");
    expect(text).toContain('Kozijn voorzijde na schilderen');
    expect(text).toContain('(foto van het type image/gif niet weergegeven)');
    // 14:05 UTC is 15:05 in Amsterdam in March (winter time).
    expect(text).toContain('Getekend door Jan Jansen op 2 maart 2026 om 15:05');
    const unsigned = await renderDocumentPdf({ ...workOrder, photos: [], signature: null, language: 'de' });
    expect(readBack('work-order-de', unsigned).text).toContain('Noch nicht unterschrieben');
  });

  it('a long invoice breaks over pages, repeating the table header and numbering every page', async () => {
    const long = invoice('en');
    long.lines = Array.from({ length: 60 }, (_, i) => ({ ...long.lines[0], name: `Line ${i + 1}` }));
    const { text, pages } = readBack('invoice-long', await renderDocumentPdf(long));
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain('Line 60');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text.match(/Description/g)?.length).toBe(pages);
  });
});
