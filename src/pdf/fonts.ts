// The fonts of every document PDF: DejaVu Sans and DejaVu Sans Bold (the dejavu-fonts-ttf package, read from
// node_modules), embedded as subsets. The standard PDF fonts hold only Western European letters, so a Polish, Greek
// or Cyrillic name came out as garbage; DejaVu covers Latin Extended, Greek, Cyrillic and much more. A character
// neither font has is printed as the replacement character U+FFFD, visibly missing rather than a wrong letter.
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

const require = createRequire(import.meta.url);

/**
 * The fonts by their file path, which is also the name the layout code selects them by: pdfkit keeps a font opened
 * from a path under that path and reuses it. (A font registered under another name that the document already holds
 * under its own is read from disk and parsed again on every selection in pdfkit 0.20: that made the Factur-X PDF of
 * 200 lines take minutes.)
 */
export const FONT = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

const REPLACEMENT = '\uFFFD';

let covered: Set<number> | undefined;

/** The code points both fonts have a glyph for (once per thread: parsing the two fonts takes some 50 ms). */
function coverage(): Set<number> {
  if (covered) return covered;
  const [regular, bold] = [FONT.regular, FONT.bold].map((path) => {
    const font = fontkit.openSync(path);
    if (!('characterSet' in font)) throw new Error(`${path} is a font collection`);
    return font;
  });
  const boldSet = new Set(bold.characterSet);
  covered = new Set(regular.characterSet.filter((codePoint) => boldSet.has(codePoint)));
  return covered;
}

/** Printable ASCII, which both fonts have: most texts take this path and are answered as they are. */
const ASCII = /^[\x20-\x7E]*$/;

/** `text` with each character the fonts lack as U+FFFD (newlines and tabs are kept: the layout breaks on them). */
export function printable(text: string): string {
  if (ASCII.test(text)) return text;
  const glyphs = coverage();
  let out = '';
  for (const ch of text) {
    const codePoint = ch.codePointAt(0) ?? 0;
    out += glyphs.has(codePoint) || ch === '\n' || ch === '\r' || ch === '\t' ? ch : REPLACEMENT;
  }
  return out;
}
