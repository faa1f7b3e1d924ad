// /errors/{code}: the page behind every problem's `type` URI. It explains the code in the page's language —
// what happened, the common causes, how to fix it and an example problem — from the texts the contract keeps
// with each problem code (generated/problems.ts). The language is `?lang=`, else Accept-Language, else English.
import type { Context } from 'hono';
import { type ProblemCode, problems } from '../../generated/problems.ts';
import { chooseLanguage, LANGUAGES, type Language } from './language.ts';
import { message } from './messages.ts';
import { ApiProblem, problemResponse, problemTitle } from './problems.ts';

/** The page's own words (headings and links); the explanations come from the contract. */
const CHROME: Record<
  Language,
  { language: string; happened: string; causes: string; fix: string; example: string; docs: string; contract: string }
> = {
  nl: {
    language: 'Nederlands',
    happened: 'Wat er gebeurde',
    causes: 'Gebruikelijke oorzaken',
    fix: 'Zo los je het op',
    example: 'Voorbeeld',
    docs: 'API-referentie',
    contract: 'OpenAPI-contract (JSON)',
  },
  en: {
    language: 'English',
    happened: 'What happened',
    causes: 'Common causes',
    fix: 'How to fix it',
    example: 'Example',
    docs: 'API reference',
    contract: 'OpenAPI contract (JSON)',
  },
  de: {
    language: 'Deutsch',
    happened: 'Was passiert ist',
    causes: 'Häufige Ursachen',
    fix: 'So beheben Sie es',
    example: 'Beispiel',
    docs: 'API-Referenz',
    contract: 'OpenAPI-Vertrag (JSON)',
  },
  fr: {
    language: 'Français',
    happened: 'Ce qui s’est passé',
    causes: 'Causes fréquentes',
    fix: 'Comment y remédier',
    example: 'Exemple',
    docs: 'Référence de l’API',
    contract: 'Contrat OpenAPI (JSON)',
  },
};

/** The request id of every example problem (the contract's examples use the same). */
const EXAMPLE_REQUEST_ID = 'req_01JQ4W7C2VJ9KX3M5N8P0R6T2Y';

/** Text made safe inside HTML elements and quoted attributes. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** The contract's texts are plain sentences with `code` spans; causes are one per line, each starting with "- ". */
const inline = (text: string) => escapeHtml(text.trim()).replace(/`([^`]+)`/g, '<code>$1</code>');
const listItems = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/^\s*-\s*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => `<li>${inline(line)}</li>`)
    .join('');

const isCode = (code: string): code is ProblemCode => Object.hasOwn(problems, code);
const isLanguage = (value: string): value is Language => (LANGUAGES as readonly string[]).includes(value);

/** A problem with this code as the service would answer it, in the language. */
export function exampleProblem(code: ProblemCode, language: Language, errorsUrl: string) {
  const { detail, instance, ...extras } = problems[code].pages[language].example;
  return {
    type: `${errorsUrl}/${code}`,
    title: problemTitle(code, language),
    status: problems[code].status,
    code,
    detail,
    instance,
    request_id: EXAMPLE_REQUEST_ID,
    ...extras,
  };
}

export function errorPage(c: Context) {
  const code = c.req.param('code') ?? '';
  const asked = c.req.query('lang');
  // The page's own problems (an unknown code, a wrong lang) answer in the language asked for too.
  const language = asked !== undefined && isLanguage(asked) ? asked : chooseLanguage(c.req.header('accept-language'));
  c.set('language', language);
  if (!isCode(code)) return problemResponse(c, new ApiProblem('not_found', message('request.unknown_error_code')));
  if (asked !== undefined && !isLanguage(asked)) {
    return problemResponse(c, new ApiProblem('validation_failed', message('request.lang_invalid')));
  }
  const words = CHROME[language];
  const page = problems[code].pages[language];
  const title = escapeHtml(problemTitle(code, language));
  const example = JSON.stringify(exampleProblem(code, language, c.get('errorsUrl') ?? '/errors'), null, 2);
  const switcher = LANGUAGES.map((l) =>
    l === language
      ? `<strong>${CHROME[l].language}</strong>`
      : `<a href="/errors/${code}?lang=${l}" hreflang="${l}" lang="${l}">${CHROME[l].language}</a>`,
  ).join(' · ');
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${title} · ${escapeHtml(code)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
nav{font-size:.9rem;text-align:right}pre{background:#f4f4f5;padding:1rem;overflow-x:auto}code{font-size:.95em}</style>
</head><body>
<nav class="languages">${switcher}</nav>
<h1>${title}</h1>
<p><code>${escapeHtml(code)}</code> · HTTP ${problems[code].status}</p>
<section id="happened"><h2>${words.happened}</h2><p>${inline(page.happened)}</p></section>
<section id="causes"><h2>${words.causes}</h2><ul>${listItems(page.causes)}</ul></section>
<section id="fix"><h2>${words.fix}</h2><p>${inline(page.fix)}</p></section>
<section id="example"><h2>${words.example}</h2>
<pre><code class="language-json">${escapeHtml(example)}</code></pre></section>
<p><a href="/docs/${language}">${words.docs}</a> · <a href="/api/v1/openapi.json?lang=${language}">${words.contract}</a></p>
</body></html>`;
  // Without ?lang= the page depends on Accept-Language: caches must keep one per language.
  if (asked === undefined) c.header('Vary', 'Accept-Language');
  return c.html(html, 200, { 'Content-Language': language });
}
