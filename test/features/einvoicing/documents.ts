// What the e-invoicing state tests read back from the running service: an invoice's UBL, its Factur-X file (the
// page's text by pdftotext, the embedded factur-x.xml by pdfdetach), its plain PDF and its online page, each as
// the figures a person or a buyer's system would take from it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMoney } from '../../../src/domain/locale-format.ts';
import { PDF_LABELS } from '../../../src/pdf/labels.ts';
import type { TestApi } from '../../harness/api.ts';

export const POPPLER = '/usr/bin/pdfdetach';
export type Language = 'nl' | 'en' | 'de' | 'fr';

/** A folder of the test file's PDFs, removed by `done`. */
export function pdfFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-states-'));
  let count = 0;
  return {
    /** The page's text (pdftotext -layout, no-break spaces as spaces) and the embedded factur-x.xml, if any. */
    read(pdf: Uint8Array): { text: string; xml: string | null } {
      const file = join(dir, `${++count}.pdf`);
      writeFileSync(file, pdf);
      const text = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(
        /\u00A0|\u202F/g,
        ' ',
      );
      const list = execFileSync(POPPLER, ['-list', file], { encoding: 'utf8' });
      if (!list.includes('factur-x.xml')) return { text, xml: null };
      const out = `${file}.xml`;
      execFileSync(POPPLER, ['-savefile', 'factur-x.xml', '-o', out, file]);
      return { text, xml: readFileSync(out, 'utf8') };
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A GET of the API with `key`, as the raw response. */
export const getter = (api: TestApi, key: string) => (path: string) =>
  api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

/** The text of the first element `name` (any prefix) of `xml`, or null. */
export function tag(xml: string, name: string): string | null {
  const match = new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:\\w+:)?${name}>`).exec(xml);
  return match ? match[1] : null;
}

/** Every text of the elements `name` (any prefix) of `xml`. */
export const tags = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<(?:\\w+:)?${name}(?:\\s[^>]*)?>([^<]*)</(?:\\w+:)?${name}>`, 'g'))].map((m) => m[1]);

/** An amount as the documents of `language` print it, no-break spaces as spaces. */
export const money = (amount: string, language: Language) =>
  formatMoney(amount, 'EUR', language).replace(/\u00A0|\u202F/g, ' ');

/** `text` as a pattern of itself, its no-break spaces read as spaces (as pdftotext's text above has them). */
const literal = (text: string) => text.replace(/\u00A0|\u202F/g, ' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The amount printed after `label` on a line of the PDF's text (a totals row: the label, then its amount at the end
 * of the line), or null when no line has it.
 */
export function pdfFigure(text: string, label: string): string | null {
  const row = new RegExp(`^\\s*${literal(label)}\\s{2,}(\\S.*?)\\s*$`, 'm').exec(text);
  return row ? row[1] : null;
}

/** An HTML page's no-break spaces (characters or entities) as spaces. */
const spaced = (html: string) => html.replace(/\u00A0|\u202F|&nbsp;|&#160;|&#8239;/g, ' ');

/** The amount in the online page's totals row `label`, or null. */
export function pageFigure(html: string, label: string): string | null {
  const row = new RegExp(`<td>${literal(label)}</td>\\s*<td class="n">([^<]*)</td>`).exec(spaced(html));
  return row ? row[1] : null;
}

/** The amount due the online page's payment box names, or null when it asks for nothing. */
export function pageAmountDue(html: string, language: Language): string | null {
  const row = new RegExp(`<dt>${literal(PDF_LABELS[language].amountDue)}</dt>\\s*<dd>([^<]*)</dd>`).exec(spaced(html));
  return row ? row[1] : null;
}

/** A CII's document number and type code (rsm:ExchangedDocument: its first ram:ID is the guideline's). */
export function ciiHeader(xml: string) {
  const header = xml.slice(xml.indexOf('<rsm:ExchangedDocument>'), xml.indexOf('</rsm:ExchangedDocument>'));
  return { number: tag(header, 'ID'), typeCode: tag(header, 'TypeCode') };
}
