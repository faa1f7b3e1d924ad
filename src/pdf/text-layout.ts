// Line breaking for the PDF's running text, done here rather than by pdfkit. pdfkit measures every word with its
// kerning table each time it tries a line, and re-measures the whole rest of a word too long for a line after each
// piece it cuts off: quadratic in the word's length (0.66 s for one 5 000-character word, measured twice per table
// row) and about 40 µs per character of ordinary text. Here each character's width is looked up once per font and
// size and summed, so wrapping is linear; the lines are then drawn one by one without pdfkit's wrapper.
//
// Breaks are at spaces and tabs, and newlines are kept. A word wider than the line is cut where the line is full
// (a 5 000-character part number or link wraps instead of running off the page). Kerning is left out of the sum:
// it only narrows DejaVu's pairs, so a line never comes out wider than measured. Characters the fonts lack are
// replaced before measuring (fonts.ts), so the lines are what is drawn.

import { printable } from './fonts.ts';

type Doc = PDFKit.PDFDocument;

export type TextStyle = { font: string; size: number };

/**
 * Width of each character at size 1, per document and font name: a document has a few hundred characters at most,
 * and the same name may be a standard font in one document and an embedded one in another (a Factur-X PDF/A).
 */
const charWidths = new WeakMap<Doc, Map<string, Map<string, number>>>();

function widthsOf(doc: Doc, font: string): (ch: string) => number {
  let fonts = charWidths.get(doc);
  if (!fonts) {
    fonts = new Map();
    charWidths.set(doc, fonts);
  }
  let widths = fonts.get(font);
  if (!widths) {
    widths = new Map();
    fonts.set(font, widths);
  }
  const table = widths;
  return (ch) => {
    let width = table.get(ch);
    if (width === undefined) {
      // Measured at size 1000 for precision, with the font of the caller still selected (see wrapText).
      width = doc.fontSize(1000).widthOfString(ch) / 1000;
      table.set(ch, width);
    }
    return width;
  };
}

/** The lines `text` takes in `style` on a line `width` points wide (an empty text takes none). */
export function wrapText(doc: Doc, text: string, style: TextStyle, width: number): string[] {
  doc.font(style.font);
  const unit = widthsOf(doc, style.font);
  const measure = (s: string) => {
    let sum = 0;
    for (const ch of s) sum += unit(ch);
    return sum * style.size;
  };
  const space = unit(' ') * style.size;
  const lines: string[] = [];
  for (const paragraph of printable(text).split(/\r\n|\r|\n/)) {
    let line = '';
    let lineWidth = 0;
    for (const word of paragraph.split(/[ \t]+/)) {
      if (word === '') continue;
      const wordWidth = measure(word);
      if (line && lineWidth + space + wordWidth <= width) {
        line += ` ${word}`;
        lineWidth += space + wordWidth;
        continue;
      }
      if (line) lines.push(line);
      if (wordWidth <= width) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      // Too wide for any line: full lines of it, the rest starts the next line.
      line = '';
      lineWidth = 0;
      for (const ch of word) {
        const w = unit(ch) * style.size;
        if (line && lineWidth + w > width) {
          lines.push(line);
          line = '';
          lineWidth = 0;
        }
        line += ch;
        lineWidth += w;
      }
    }
    lines.push(line);
  }
  // A text ending in newlines does not print empty lines after it.
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  doc.fontSize(style.size);
  return lines;
}

/** The height of one line in `style` (pdfkit's line height with its line gap). */
export function lineHeight(doc: Doc, style: TextStyle): number {
  return doc.font(style.font).fontSize(style.size).currentLineHeight(true);
}

/**
 * Draws `lines` one below the other from (x, y), unwrapped: they were measured by wrapText. Their width and word
 * count are given so that pdfkit does not measure them once more with kerning. Answers the new y.
 */
export function drawLines(doc: Doc, lines: string[], style: TextStyle, x: number, y: number): number {
  const height = lineHeight(doc, style);
  const unit = widthsOf(doc, style.font);
  doc.fontSize(style.size);
  let top = y;
  for (const line of lines) {
    if (line) {
      let width = 0;
      for (const ch of line) width += unit(ch);
      doc.fontSize(style.size);
      // Options pdfkit reads that its type definitions lack.
      const options = { lineBreak: false, textWidth: width * style.size, wordCount: line.split(' ').length };
      doc.text(line, x, top, options);
    }
    top += height;
  }
  return top;
}
