// The reference and its docs, in four languages: GET /api/v1/openapi.json (?lang= or Accept-Language) and
// /docs, /docs/{nl,en,de,fr} — Redoc pages with the renderer and the contract inlined, so a page needs
// nothing from outside the service (no CDN, no telemetry).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Context } from 'hono';
import { EXAMPLE_HOST, localizeProblemExamples } from './contract-examples.ts';
import { REDOC_LABELS, REDOC_WORDS } from './docs-labels.ts';
import { chooseLanguage, LANGUAGES, type Language } from './language.ts';
import type { Templates } from './message-catalogue.ts';
import { message } from './messages.ts';
import { ApiProblem, problemResponse } from './problems.ts';
import { API_PREFIX } from './request-address.ts';

const generated = (file: string) => new URL(`../../generated/${file}`, import.meta.url);

const contracts = new Map<string, string>();
/**
 * The bundled contract in a language (English where a translation has not been generated), as this installation
 * serves it: `servers` is the service's own public address (PUBLIC_URL, else the address of its PORT), so a client
 * generated from the served contract calls this service. The committed bundle lists the defaults instead. Its
 * problem examples point at this service's error pages and, translated, say what the service says in the language
 * (`catalogue`: the problem texts, src/resources/index.ts).
 */
export function contractJson(
  language: Language,
  publicUrl: string,
  catalogue: Readonly<Record<string, Templates>> = {},
): { json: string; language: Language } {
  const lang = existsSync(generated(`openapi.${language}.json`)) ? language : 'en';
  const key = `${lang} ${publicUrl}`;
  let json = contracts.get(key);
  if (json === undefined) {
    const contract = JSON.parse(readFileSync(generated(`openapi.${lang}.json`), 'utf8')) as Record<string, unknown>;
    contract.servers = [{ url: `${publicUrl}${API_PREFIX}` }];
    localizeProblemExamples(contract, lang, publicUrl, catalogue);
    // The bundle's placeholder host stands for this installation wherever a text names one of its addresses.
    json = `${JSON.stringify(contract, null, 2)}\n`.replaceAll(EXAMPLE_HOST, publicUrl);
    contracts.set(key, json);
  }
  return { json, language: lang };
}

const isLanguage = (value: string | undefined): value is Language =>
  value !== undefined && (LANGUAGES as readonly string[]).includes(value);

export const serveContract = (publicUrl: string, catalogue: Readonly<Record<string, Templates>>) => (c: Context) => {
  const asked = c.req.query('lang');
  if (asked !== undefined && !isLanguage(asked)) {
    return problemResponse(c, new ApiProblem('validation_failed', message('request.lang_invalid')));
  }
  const { json, language } = contractJson(
    asked ?? chooseLanguage(c.req.header('accept-language')),
    publicUrl,
    catalogue,
  );
  // Without ?lang= the answer depends on Accept-Language: caches must keep one per language.
  return c.body(json, 200, {
    'Content-Type': 'application/json',
    'Content-Language': language,
    Vary: 'Accept-Language',
  });
};

const REDOCLY_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#0044D4">Redocly</text></svg>',
)}`;

/** Redoc's default label hook (the English it is given); pointed at the page's `docsLabels` (docs-labels.ts). */
const REDOC_TRANSLATE = 'useTranslate:()=>({translate:(e,t)=>(typeof t==`string`?t:t?.defaultValue)||e||``})';
const LOCALIZED_TRANSLATE =
  'useTranslate:()=>({translate:(e,t)=>docsLabels[e]??((typeof t==`string`?t:t?.defaultValue)||e||``)})';

/**
 * Literals of the renderer that bypass its translate hook, each replaced by a lookup in the page's `docsWords`
 * (REDOC_WORDS). Each must occur exactly as often as given: a Redoc upgrade that changes one stops the docs from
 * being served half in English.
 */
const REDOC_LITERALS: [literal: string, lookup: string, count: number][] = [
  ['label:`Enum:`', 'label:docsWords.enumLabel', 1],
  [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Redoc's own source text, found and replaced as it is
    '`${e?.startsWith(`Array`)?`Items `:``}${t===1?`Value:`:`Enum:`}`',
    '(e?.startsWith(`Array`)?(t===1?docsWords.itemsValueLabel:docsWords.itemsEnumLabel):(t===1?docsWords.valueLabel:docsWords.enumLabel))',
    1,
  ],
  [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Redoc's own source text, found and replaced as it is
    '`${t?.startsWith(`Array`)?`Items `:``}${n.length===1?`Value`:`Enum Value`}`',
    '(t?.startsWith(`Array`)?(n.length===1?docsWords.itemsValueColumn:docsWords.itemsEnumColumn):(n.length===1?docsWords.valueColumn:docsWords.enumColumn))',
    1,
  ],
  ['label:`Payload`', 'label:docsWords.payload', 1],
  ['title:`Payload`', 'title:docsWords.payload', 1],
  ['Kb(`characters`', 'Kb(docsWords.characters', 1],
  ['Kb(`items`', 'Kb(docsWords.items', 1],
  ['t===1?`non-empty`', 't===1?docsWords.nonEmpty', 1],
  ['r=`Array of `', 'r=docsWords.arrayOf', 2],
  ['i=`Array of items`', 'i=docsWords.arrayOfItems', 1],
  [
    '.replace(/^(string|object|number|integer|array|boolean)s?( ?.*)/,`$1s$2`)',
    '.replace(/^(string|object|number|integer|array|boolean)s?( ?.*)/,(_,t,r)=>docsWords.plural[t]+r)',
    1,
  ],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Redoc's own source text, found and replaced as it is
  ['(i+=` or ${e.join(` or `)}`)', '(i+=docsWords.or+e.join(docsWords.or))', 1],
  ['(i+=` or null`)', '(i+=docsWords.or+`null`)', 1],
  // Every other "or" between types (OpenAPI 3.1 writes a nullable type as [string, null]: "string or null").
  ['t.map(e=>e===null?`null`:e).join(` or `):t', 't.map(e=>e===null?`null`:e).join(docsWords.or):t', 1],
  ['i=Nre(Array.isArray(r)?r.join(` or `):r)', 'i=Nre(Array.isArray(r)?r.join(docsWords.or):r)', 1],
  ['function Nre(e){return e.split(` or `)', 'function Nre(e){return e.split(docsWords.or)', 1],
  ['docsWords.plural[t]+r)).join(` or `)}', 'docsWords.plural[t]+r)).join(docsWords.or)}', 1],
  [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Redoc's own source text, found and replaced as it is
    'return a.indexOf(` or `)>-1&&(a=`(${a})`),a}))].join(` or `)}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Redoc's own source text, found and replaced as it is
    'return a.indexOf(docsWords.or)>-1&&(a=`(${a})`),a}))].join(docsWords.or)}',
    1,
  ],
  ['children:`API docs by`', 'children:docsWords.apiDocsBy', 1],
  ['children:`deprecated`', 'children:docsWords.deprecated', 1],
  // "Show 13 array properties" and "Show 3 more...", built word by word in English order: whole phrases instead.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Redoc's own source text, found and replaced as it is
  ['if(!a)return`${i} ${r?r(`details`,`details`):`details`}`;', 'if(!a)return docsWords.showDetails;', 1],
  [
    'c=o===1?`property`:`properties`,l=r?r(c,c):c,u=[i];return o!==1&&u.push(String(o)),s&&u.push(r?r(`array`,`array`):`array`),u.push(l),u.join(` `)',
    'c=0;return docsCount(s?docsWords.showArrayProperties:docsWords.showProperties,o)',
    1,
  ],
  ['children:[o,` `,u,` `,s,`...`]', 'children:[docsCount(docsWords.showMore,u)]', 1],
  // The colon after "Example", "Default" and "Examples" (French: "Exemple :").
  ...['f(`example`,`Example`)', 'u(`example`,`Example`)', 'f(`default`,`Default`)', 'u(`default`,`Default`)']
    .concat('t(`examples`,`Examples`)')
    .map((label): [string, string, number] => [`${label},\`:\`]`, `${label},docsWords.colon]`, 1]),
];

function localizeLiterals(source: string): string {
  let out = source;
  for (const [literal, lookup, count] of REDOC_LITERALS) {
    const found = out.split(literal).length - 1;
    if (found !== count) throw new Error(`Redoc’s literal ${literal} was found ${found} times, not ${count}`);
    out = out.replaceAll(literal, lookup);
  }
  return out;
}

// Redoc's standalone renderer ships inside @redocly/cli; it is inlined into every page.
let renderer: string | undefined;
function redocRenderer(): string {
  if (renderer === undefined) {
    const cli = dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json'));
    const source = readFileSync(join(cli, 'lib', 'chunks', 'redoc.standalone.js'), 'utf8');
    if (/<\/script/i.test(source)) throw new Error('the Redoc renderer cannot be inlined: it contains </script');
    // A Redoc upgrade that renames the hook must not leave the docs silently in English.
    if (!source.includes(REDOC_TRANSLATE))
      throw new Error('Redoc’s label hook was not found: its labels cannot be translated');
    // The attribution logo would be fetched from Redocly's CDN: it is drawn inline instead.
    renderer = localizeLiterals(source)
      .replace(/export\{[^}]*\};?\s*$/, '')
      .replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, REDOCLY_LOGO)
      .replace(REDOC_TRANSLATE, LOCALIZED_TRANSLATE);
  }
  return renderer;
}

const LABELS: Record<Language, string> = { nl: 'Nederlands', en: 'English', de: 'Deutsch', fr: 'Français' };
const pages = new Map<string, string>();

function docsPage(language: Language, publicUrl: string, catalogue: Readonly<Record<string, Templates>>): string {
  const cached = pages.get(`${language} ${publicUrl}`);
  if (cached) return cached;
  const { json } = contractJson(language, publicUrl, catalogue);
  const title = (JSON.parse(json) as { info: { title: string } }).info.title;
  const switcher = LANGUAGES.map((l) =>
    l === language ? `<strong>${LABELS[l]}</strong>` : `<a href="/docs/${l}" hreflang="${l}">${LABELS[l]}</a>`,
  ).join(' · ');
  // `</script` inside the inlined JSON or renderer must not end the script element. In JSON `<\/` means the
  // same as `</`; the renderer is checked to contain no `</script` at all (see redocRenderer).
  const inlineJson = (text: string) => text.replace(/<\//g, '<\\/');
  const page = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${title.replace(/</g, '&lt;')}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{margin:0}nav.languages{font:14px system-ui,sans-serif;padding:8px 16px;border-bottom:1px solid #ddd;text-align:right}
/* Redoc lets headings break anywhere (overflow-wrap: anywhere), so a narrow column cut the API's title mid-word:
   the title breaks between words only, and the page actions beside it move below it when there is no room. */
#redoc h1{overflow-wrap:normal;word-break:normal}
#redoc div:has(> div > h1){flex-wrap:wrap}</style>
</head><body>
<nav class="languages">${switcher}</nav>
<div id="redoc"></div>
<script type="module">
const docsLabels = Object.assign(Object.create(null), ${inlineJson(JSON.stringify(language === 'en' ? {} : REDOC_LABELS[language]))});
const docsWords = ${inlineJson(JSON.stringify(REDOC_WORDS[language]))};
const docsPlural = new Intl.PluralRules(${JSON.stringify(language)});
const docsCount = (forms, n) => (forms[docsPlural.select(n)] ?? forms.other).replace('#', String(n));
${redocRenderer()}
const spec = ${inlineJson(json)};
init(spec, { disableTelemetry: true, hideDownloadButtons: false }, document.getElementById('redoc'));
</script>
</body></html>`;
  pages.set(`${language} ${publicUrl}`, page);
  return page;
}

export const serveDocs = (publicUrl: string, catalogue: Readonly<Record<string, Templates>>) => (c: Context) => {
  const asked = c.req.param('lang');
  if (asked === undefined) {
    c.header('Vary', 'Accept-Language');
    return c.redirect(`/docs/${chooseLanguage(c.req.header('accept-language'))}`, 302);
  }
  if (!isLanguage(asked)) {
    c.set('language', chooseLanguage(c.req.header('accept-language')));
    return problemResponse(c, new ApiProblem('not_found', message('request.docs_languages')));
  }
  return c.html(docsPage(asked, publicUrl, catalogue), 200, {
    'Content-Language': asked,
    'Cache-Control': 'public, max-age=300',
    // Defence in depth: whatever the renderer might try, the browser loads images, fonts and data only from here.
    'Content-Security-Policy':
      "img-src 'self' data:; font-src 'self' data:; connect-src 'self' blob: data:; frame-src 'none'",
  });
};
