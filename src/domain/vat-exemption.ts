// The legal ground of a line exempt from VAT (VAT Directive art. 226 (11)): a code of the CEF VATEX list, printed on
// the PDF with its text in the document's language and carried in the e-invoice (BT-121 and BT-120). The texts are
// made from the code (VATEX-EU-132-1B is Article 132(1)(b) of Directive 2006/112/EC), so every code of the list
// has one in each language without a hand-kept table of 80 × 4 sentences.
import { VATEX_CODES } from './code-lists/vatex.ts';

type Language = 'nl' | 'en' | 'de' | 'fr';

/**
 * Codes of the list that are no exemption (VAT category E) but another category the service decides itself or does
 * not write: reverse charge (AE), exports (G), intra-community supplies (K), not subject to VAT (O, which the
 * rules allow only on an invoice without VAT numbers), and French credit notes without VAT.
 */
const OTHER_CATEGORIES = new Set([
  'VATEX-EU-AE',
  'VATEX-FR-AE',
  'VATEX-EU-G',
  'VATEX-EU-IC',
  'VATEX-EU-O',
  'VATEX-FR-CNWVAT',
]);

/** Whether `code` is a VATEX code an exempt line may carry. */
export const isExemptionReason = (code: string): boolean =>
  Object.hasOwn(VATEX_CODES, code) && !OTHER_CATEGORIES.has(code);

/** The codes an exempt line may carry, in the list's order. */
export const EXEMPTION_REASONS: readonly string[] = Object.keys(VATEX_CODES).filter(isExemptionReason);

/** The margin schemes the list names by a letter (VAT Directive articles 306–343). */
const MARGIN: Record<string, Record<Language, string>> = {
  D: {
    en: 'Margin scheme — travel agents (Article 306 of Directive 2006/112/EC)',
    nl: 'Margeregeling reisbureaus (artikel 306 van Richtlijn 2006/112/EG)',
    de: 'Differenzbesteuerung — Reisebüros (Artikel 306 der Richtlinie 2006/112/EG)',
    fr: 'Régime de la marge — agences de voyages (article 306 de la directive 2006/112/CE)',
  },
  F: {
    en: 'Margin scheme — second-hand goods (Article 313 of Directive 2006/112/EC)',
    nl: 'Margeregeling gebruikte goederen (artikel 313 van Richtlijn 2006/112/EG)',
    de: 'Differenzbesteuerung — Gebrauchtgegenstände (Artikel 313 der Richtlinie 2006/112/EG)',
    fr: 'Régime de la marge — biens d’occasion (article 313 de la directive 2006/112/CE)',
  },
  I: {
    en: 'Margin scheme — works of art (Article 313 of Directive 2006/112/EC)',
    nl: 'Margeregeling kunstvoorwerpen (artikel 313 van Richtlijn 2006/112/EG)',
    de: 'Differenzbesteuerung — Kunstgegenstände (Artikel 313 der Richtlinie 2006/112/EG)',
    fr: 'Régime de la marge — objets d’art (article 313 de la directive 2006/112/CE)',
  },
  J: {
    en: 'Margin scheme — collectors’ items and antiques (Article 313 of Directive 2006/112/EC)',
    nl: 'Margeregeling voorwerpen voor verzamelingen en antiquiteiten (artikel 313 van Richtlijn 2006/112/EG)',
    de: 'Differenzbesteuerung — Sammlungsstücke und Antiquitäten (Artikel 313 der Richtlinie 2006/112/EG)',
    fr: 'Régime de la marge — objets de collection et d’antiquité (article 313 de la directive 2006/112/CE)',
  },
};

const FRANCHISE: Record<Language, string> = {
  en: 'VAT not applicable, Article 293 B of the French tax code (CGI)',
  nl: 'Btw niet van toepassing, artikel 293 B van de Franse belastingwet (CGI)',
  de: 'Keine MwSt., Artikel 293 B des französischen Steuergesetzbuchs (CGI)',
  fr: 'TVA non applicable, article 293 B du CGI',
};

/** An article of the VAT Directive with its paragraph and point, as each language cites it. */
function directive(article: string, paragraph: string, point: string, language: Language): string {
  const p = point.toLowerCase();
  switch (language) {
    case 'en':
      return `Exempt from VAT under Article ${article}${paragraph ? `(${paragraph})` : ''}${p ? `(${p})` : ''} of Directive 2006/112/EC`;
    case 'nl':
      return `Vrijgesteld van btw op grond van artikel ${article}${paragraph ? `, lid ${paragraph}` : ''}${p ? `, onder ${p}` : ''}, van Richtlijn 2006/112/EG`;
    case 'de':
      return `Steuerbefreit nach Artikel ${article}${paragraph ? ` Absatz ${paragraph}` : ''}${p ? ` Buchstabe ${p}` : ''} der Richtlinie 2006/112/EG`;
    case 'fr':
      return `Exonération de TVA en application de l’article ${article}${paragraph ? `, paragraphe ${paragraph}` : ''}${p ? `, point ${p})` : ''} de la directive 2006/112/CE`;
  }
}

/** An article of the French tax code (CGI261D-1BIS is article 261 D 1° bis). */
function frenchArticle(code: string, language: Language): string {
  const article = code
    .replace(/^CGI/, '')
    .replace(/SEXDECIES/, ' sexdecies ')
    .replace(/BIS$/, ' bis')
    .replace(/^(\d+)([A-Z])/, '$1 $2')
    .trim();
  switch (language) {
    case 'en':
      return `Exempt from VAT under Article ${article} of the French tax code (CGI)`;
    case 'nl':
      return `Vrijgesteld van btw op grond van artikel ${article} van de Franse belastingwet (CGI)`;
    case 'de':
      return `Steuerbefreit nach Artikel ${article} des französischen Steuergesetzbuchs (CGI)`;
    case 'fr':
      return `Exonération de TVA, article ${article} du CGI`;
  }
}

/** The text of an exemption reason in `language`: its legal ground. */
export function exemptionText(code: string, language: Language): string {
  const eu = /^VATEX-EU-(\d+)(?:-(\d*)([A-Z]*))?$/.exec(code);
  if (eu) return directive(eu[1], eu[2] ?? '', eu[3] ?? '', language);
  const margin = /^VATEX-EU-([DFIJ])$/.exec(code);
  if (margin) return MARGIN[margin[1]][language];
  if (code === 'VATEX-FR-FRANCHISE') return FRANCHISE[language];
  const french = /^VATEX-FR-(.+)$/.exec(code);
  if (french) return frenchArticle(french[1], language);
  return VATEX_CODES[code] ?? code;
}
