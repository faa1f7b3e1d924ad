// Every document PDF writes names in any European script as written: the fonts are embedded DejaVu Sans (fonts.ts),
// read back by poppler's pdftotext; what the fonts lack prints as U+FFFD, never as other letters. Work-order ticks
// are paths, seen by pdftoppm inside their box.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDocumentPdf } from '../../../src/pdf/document-pdf.ts';
import type { DocumentPdfView } from '../../../src/pdf/document-view.ts';

const POPPLER = ['/usr/bin/pdftotext', '/usr/bin/pdftoppm', '/usr/bin/pdffonts'];
const OUT = join(import.meta.dirname, '../../../test-results/pdf');

function written(name: string, pdf: Buffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

const textOf = (file: string) => execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });

const view = (texts: { customer: string; company: string; line: string; notes: string }): DocumentPdfView => ({
  kind: 'invoice',
  number: 'F2026-0042',
  language: 'en',
  currency: 'EUR',
  issueDate: '2026-03-02',
  dueDate: '2026-03-16',
  company: { name: 'Schildersbedrijf De Kwast', vatNumber: 'NL812345678B01' },
  customer: { name: texts.customer, companyName: texts.company, address: null },
  lines: [
    {
      name: texts.line,
      quantity: '1.00',
      unitPrice: '10.00',
      discount: '0.00',
      taxRate: '21.00',
      total: '10.00',
    },
  ],
  totals: { subtotal: '10.00', taxes: [{ rate: '21.00', base: '10.00', amount: '2.10' }], total: '12.10' },
  notes: texts.notes,
});

/** Letters of Latin-1, Latin Extended-A and -B, Greek and Cyrillic (the blocks the fonts must cover). */
const LETTERS = [
  [0xc0, 0x24f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
]
  .flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)))
  .filter((ch) => /^\p{L}$/u.test(ch));

const word = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 12 }).map((letters) => letters.join(''));
const name = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));

describe.skipIf(!POPPLER.every(existsSync))('document PDF fonts and glyphs, read back with poppler', () => {
  it('names in Latin Extended, Greek and Cyrillic read back as written, in the plain PDF and the Factur-X PDF', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ customer: name, company: name, line: name, notes: name }),
        fc.boolean(),
        async (texts, facturX) => {
          const pdf = await renderDocumentPdf({ ...view(texts), ...(facturX ? { facturX: { xml: '<x/>' } } : {}) });
          const text = textOf(written('fonts-property', pdf));
          // Letters are what is judged: pdftotext lays words of a table cell out with its own spacing and breaks.
          const letters = (s: string) => s.replace(/\s+/g, '');
          for (const value of Object.values(texts)) expect(letters(text)).toContain(letters(value));
        },
      ),
      { numRuns: 16 },
    );
  }, 600_000); // about a second a render and read-back on a loaded machine: give it room, never a timeout

  it('Łódź, Greek and Cyrillic are embedded fonts; what they lack prints as U+FFFD', async () => {
    const file = written(
      'fonts-examples',
      await renderDocumentPdf(
        view({
          customer: 'Łukasz Żółć',
          company: 'Łódź Spółka z o.o.',
          line: 'Ελληνικά · Кириллица · Šťastný',
          notes: 'Grüße 北京 end',
        }),
      ),
    );
    const text = textOf(file);
    expect(text).toContain('Łukasz Żółć');
    expect(text).toContain('Łódź Spółka z o.o.');
    expect(text).toContain('Ελληνικά · Кириллица · Šťastný');
    expect(text).toContain('Grüße \uFFFD\uFFFD end');
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    // name, type, encoding, then emb/sub/uni: every font embedded with a Unicode map.
    for (const font of fonts) expect(font).toMatch(/DejaVuSans\S*\s.*\byes\s+yes\s+yes\s/);
  });

  it('a checked point of a work order shows a tick inside its box, drawn as a path; an open point an empty box', async () => {
    const workOrder: DocumentPdfView = {
      ...view({ customer: 'Jan', company: 'Bakkerij', line: 'Verf', notes: '' }),
      kind: 'work_order',
      number: 'W2026-0003',
      work: {
        checklist: [
          { label: 'Ticked point', checked: true, required: false },
          { label: 'Open point', checked: false, required: false },
        ],
      },
    };
    const file = written('checklist-ticks', await renderDocumentPdf(workOrder));
    // Where pdftotext finds each label: the box is drawn from x 51 to 59 at the label's line.
    const bbox = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    const top = (label: string) => {
      const found = bbox.match(new RegExp(`yMin="([\\d.]+)"[^>]*>${label}</word>`));
      if (!found) throw new Error(`${label} not found in ${bbox}`);
      return Number(found[1]);
    };
    /** Dark pixels inside the box's border (at 288 dpi, 4 pixels a point), from pdftoppm's grey PGM. */
    const darkInBox = (labelTop: number) => {
      const scale = 4;
      const crop = ['-x', String(52.5 * scale), '-y', String(Math.round((labelTop + 1) * scale))];
      const size = ['-W', String(5 * scale), '-H', String(5 * scale)];
      const pgm = execFileSync('pdftoppm', ['-gray', '-r', '288', '-f', '1', '-l', '1', ...crop, ...size, file]);
      // P5 header: magic, width, height, maxval, each followed by whitespace; then one byte a pixel.
      const header = pgm.toString('latin1').match(/^P5\s+\d+\s+\d+\s+\d+\s/);
      if (!header) throw new Error('not a PGM');
      return [...pgm.subarray(header[0].length)].filter((pixel) => pixel < 128).length;
    };
    expect(darkInBox(top('Ticked'))).toBeGreaterThan(20);
    expect(darkInBox(top('Open'))).toBe(0);
    expect(execFileSync('pdffonts', [file], { encoding: 'utf8' })).not.toMatch(/Dingbats/);
  });
});
