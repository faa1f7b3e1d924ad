// The problem examples of a served contract as this installation answers them: their `type` is this service's
// own error page (PUBLIC_URL/errors/{code}, not the placeholder host of the committed bundle), and in a
// translated contract their title and details are the texts the service sends in that language — the title of
// the code, and each English detail matched against the message catalogue and written out in the language.
import { problems } from '../../generated/problems.ts';
import type { Language } from './language.ts';
import { localize, type Param, type Templates } from './message-catalogue.ts';

/** The placeholder of this installation's address in the committed bundle (problem types, widget addresses). */
export const EXAMPLE_HOST = 'https://crm.example.com';
const EXAMPLE_ERRORS = `${EXAMPLE_HOST}/errors/`;

type Matcher = { pattern: RegExp; names: { name: string; counted: boolean }[]; templates: Templates; weight: number };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regular expression for each English template: its words literal, each placeholder a capture. */
function matchers(catalogue: Readonly<Record<string, Templates>>): Matcher[] {
  return Object.values(catalogue).map((templates) => {
    const names: Matcher['names'] = [];
    let source = '';
    let last = 0;
    for (const m of templates.en.matchAll(/\{(\w+)(\|[^{}]*)?\}/g)) {
      source += escapeRegExp(templates.en.slice(last, m.index));
      source += '(.+?)';
      names.push({ name: m[1], counted: m[2] !== undefined });
      last = (m.index ?? 0) + m[0].length;
    }
    source += escapeRegExp(templates.en.slice(last));
    const weight = templates.en.replace(/\{[^{}]*\}/g, '').length;
    return { pattern: new RegExp(`^${source}$`), names, templates, weight };
  });
}

/** `detail` in `language` when it is a catalogue text (the best-fitting template), else as it is. */
function translateDetail(detail: string, language: Language, found: Matcher[]): string {
  let best: { text: string; weight: number } | undefined;
  for (const matcher of found) {
    const m = matcher.pattern.exec(detail);
    if (!m || (best && best.weight >= matcher.weight)) continue;
    const params: Record<string, Param> = {};
    matcher.names.forEach(({ name, counted }, i) => {
      // A counted placeholder was written with its noun ("2 invalid inputs"): its count is the number in it.
      params[name] = counted ? Number(m[i + 1].replace(/[^\d]/g, '')) : m[i + 1];
    });
    best = { text: localize({ id: '', templates: matcher.templates, params }, language), weight: matcher.weight };
  }
  return best?.text ?? detail;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rewrites every example problem in `contract` (in place) for this installation and `language`. */
export function localizeProblemExamples(
  contract: unknown,
  language: Language,
  publicUrl: string,
  catalogue: Readonly<Record<string, Templates>>,
): void {
  const found = language === 'en' ? [] : matchers(catalogue);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isRecord(node)) return;
    const { type, code } = node;
    if (typeof type === 'string' && type.startsWith(EXAMPLE_ERRORS) && typeof code === 'string') {
      node.type = `${publicUrl}/errors/${type.slice(EXAMPLE_ERRORS.length)}`;
      if (language !== 'en' && code in problems) {
        const titles: Partial<Record<Language, string>> = problems[code as keyof typeof problems].titles;
        if (typeof node.title === 'string') node.title = titles[language] ?? node.title;
        if (typeof node.detail === 'string') node.detail = translateDetail(node.detail, language, found);
        if (Array.isArray(node.errors))
          for (const error of node.errors)
            if (isRecord(error) && typeof error.detail === 'string')
              error.detail = translateDetail(error.detail, language, found);
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(contract);
}
