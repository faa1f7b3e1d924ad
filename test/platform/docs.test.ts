// The docs are self-contained: each language's page carries Redoc and the contract in that language, and a
// browser that opens it requests nothing outside the service. Checked in headless Chromium where it is
// installed (Debian package `chromium`), and always by scanning the HTML for resources it would load.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { serve } from '@hono/node-server';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDOC_LABEL_KEYS, REDOC_LABELS, REDOC_WORDS } from '../../src/http/docs-labels.ts';
import { notImplementedOperations } from '../../src/resources/index.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { listenOnLoopback } from '../harness/loopback-server.ts';

const LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
const CHROMIUM = '/usr/bin/chromium';

let api: TestApi;
let origin: string;
let _server: ReturnType<typeof serve>;

beforeAll(async () => {
  api = await setupApi();
  ({ origin } = await listenOnLoopback(api.app));
});

const contractIn = (lang: string) => {
  const file = new URL(`../../generated/openapi.${lang}.json`, import.meta.url);
  const fallback = new URL('../../generated/openapi.en.json', import.meta.url);
  return JSON.parse(readFileSync(existsSync(file) ? file : fallback, 'utf8'));
};
/** Each language's page as served, fetched once for the tests that read it (megabytes each). */
const pages = new Map<string, Promise<{ res: Response; html: string }>>();
const pageIn = (lang: string) => {
  let page = pages.get(lang);
  if (!page) {
    page = fetch(`${origin}/docs/${lang}`).then(async (res) => ({ res, html: await res.text() }));
    pages.set(lang, page);
  }
  return page;
};
/** The summary of listCustomers in the language's bundle: what the page must carry. */
const summaryIn = (lang: string): string => contractIn(lang).paths['/customers'].get.summary;

describe('docs pages', () => {
  it.each(LANGUAGES)('/docs/%s carries the contract in its language and loads nothing from outside', async (lang) => {
    const { res, html } = await pageIn(lang);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe(lang);
    expect(html).toContain(`<html lang="${lang}">`);
    expect(html).toContain(JSON.stringify(summaryIn(lang)).slice(1, -1));
    // Anything a browser would fetch by itself: src/href attributes, CSS imports and urls, module imports.
    const loads = [
      ...html.matchAll(/<(?:script|link|img|iframe|source|video|audio)\b[^>]*\b(?:src|href)\s*=\s*["']([^"']+)/gi),
      ...html.matchAll(/@import\s+(?:url\()?["']?([^"')\s]+)/gi),
      ...html.matchAll(/url\(\s*["']?(https?:[^"')]+)/gi),
      ...html.matchAll(/\bimport\s*\(\s*["'](https?:[^"']+)/gi),
      ...html.matchAll(/\bfrom\s*["'](https?:[^"']+)/gi),
    ].map((m) => m[1]);
    expect(loads.filter((url) => /^(https?:)?\/\//.test(url))).toEqual([]);
  });

  it('/docs sends the browser to the language it prefers', async () => {
    const res = await fetch(`${origin}/docs`, { headers: { 'accept-language': 'fr-BE,fr;q=0.9' }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs/fr');
  });

  it('answers 404 for a language that does not exist', async () => {
    const res = await fetch(`${origin}/docs/es`);
    expect(res.status).toBe(404);
  });

  it('serves the contract in the asked language with Content-Language', async () => {
    for (const lang of LANGUAGES) {
      const res = await fetch(`${origin}/api/v1/openapi.json?lang=${lang}`);
      const doc = await res.json();
      expect(doc.paths['/customers'].get.summary).toBe(summaryIn(lang));
      expect(res.headers.get('content-language')).toBe(
        existsSync(new URL(`../../generated/openapi.${lang}.json`, import.meta.url)) ? lang : 'en',
      );
    }
    const byHeader = await fetch(`${origin}/api/v1/openapi.json`, { headers: { 'accept-language': 'de' } });
    expect((await byHeader.json()).paths['/customers'].get.summary).toBe(summaryIn('de'));
  });
});

type Operation = { operationId: string; description: string; 'x-not-implemented'?: boolean; 'x-badges'?: unknown };
const operationsIn = (lang: string): Operation[] =>
  Object.values(contractIn(lang).paths as Record<string, Record<string, Operation>>).flatMap((item) =>
    ['get', 'post', 'put', 'patch', 'delete'].flatMap((method) => (item[method] ? [item[method]] : [])),
  );

describe('operations not built yet', () => {
  it('are exactly the ones marked x-not-implemented in the contract (building one means removing its mark)', () => {
    const unbuilt = [...notImplementedOperations].sort();
    const marked = operationsIn('en')
      .filter((op) => op['x-not-implemented'] === true)
      .map((op) => op.operationId)
      .sort();
    // Both lists may be empty once every operation is built: then no operation may carry the mark either.
    expect(marked).toEqual(unbuilt);
  });

  it.each(LANGUAGES)('carry a "not available yet" badge and notice in %s, and only they do', (lang) => {
    const notice = contractIn(lang)['x-not-implemented-notice'];
    expect(notice.title).not.toBe(lang === 'en' ? '' : contractIn('en')['x-not-implemented-notice'].title);
    for (const op of operationsIn(lang)) {
      if (op['x-not-implemented'] === true) {
        expect(op['x-badges'], op.operationId).toEqual([expect.objectContaining({ name: notice.title })]);
        expect(op.description.startsWith(`> **${notice.title}.** ${notice.description}`), op.operationId).toBe(true);
      } else {
        expect(op['x-badges'], op.operationId).toBeUndefined();
        expect(op.description, op.operationId).not.toContain(notice.title);
      }
    }
  });
});

describe("the contract's front matter", () => {
  it('has no placeholder contact or licence page, and lists the local default server', () => {
    for (const lang of LANGUAGES) {
      const { info, servers } = contractIn(lang);
      expect(info.contact).toBeUndefined();
      expect(JSON.stringify(info.license)).not.toContain('example.com');
      expect(servers.map((s: { url: string }) => s.url)).toContain('http://127.0.0.1:3000/api/v1');
    }
  });

  it('names every tag in the language of the docs (x-displayName, which Redoc shows)', () => {
    const english = contractIn('en').tags as { name: string; 'x-displayName': string }[];
    for (const lang of LANGUAGES) {
      const tags = contractIn(lang).tags as { name: string; 'x-displayName': string }[];
      // The name is the identifier operations refer to; only the shown name is translated.
      expect(tags.map((t) => t.name)).toEqual(english.map((t) => t.name));
      for (const tag of tags) expect(tag['x-displayName'], `${lang} ${tag.name}`).toBeTruthy();
    }
    expect(contractIn('nl').tags.find((t: { name: string }) => t.name === 'Customers')['x-displayName']).toBe(
      'Klanten',
    );
    expect(contractIn('de').tags.find((t: { name: string }) => t.name === 'Invoices')['x-displayName']).toBe(
      'Rechnungen',
    );
    expect(contractIn('fr').tags.find((t: { name: string }) => t.name === 'Tasks')['x-displayName']).toBe('Tâches');
  });
});

describe("Redoc's own labels", () => {
  const cli = dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json'));
  const renderer = readFileSync(join(cli, 'lib', 'chunks', 'redoc.standalone.js'), 'utf8');

  it('are translation keys the bundled renderer uses, each translated in nl, de and fr', () => {
    for (const key of REDOC_LABEL_KEYS) expect(renderer, key).toContain(`\`${key}\``);
    for (const lang of ['nl', 'de', 'fr'] as const) {
      expect(Object.keys(REDOC_LABELS[lang]).sort()).toEqual([...REDOC_LABEL_KEYS].sort());
      for (const text of Object.values(REDOC_LABELS[lang])) expect(text.trim()).not.toBe('');
    }
  });

  it.each(LANGUAGES)('/docs/%s hands its labels to the renderer', async (lang) => {
    const { html } = await pageIn(lang);
    const table = html.match(/const docsLabels = Object\.assign\(Object\.create\(null\), (\{.*\})\);/);
    expect(table).not.toBeNull();
    expect(JSON.parse(table?.[1] ?? 'null')).toEqual(lang === 'en' ? {} : REDOC_LABELS[lang]);
    // Redoc's label hook consults the table before its English.
    expect(html).toContain('translate:(e,t)=>docsLabels[e]??');
    expect(html).not.toContain('translate:(e,t)=>(typeof t==`string`?t:t?.defaultValue)||e||``');
  });

  it.each(
    LANGUAGES,
  )('/docs/%s replaces the English that Redoc writes past its hook ("Enum:", "Payload", …)', async (lang) => {
    const { html } = await pageIn(lang);
    const words = html.match(/const docsWords = (\{.*\});/);
    expect(JSON.parse(words?.[1] ?? 'null')).toEqual(REDOC_WORDS[lang]);
    for (const literal of [
      'label:`Enum:`',
      '`Enum:`}',
      'label:`Payload`',
      'title:`Payload`',
      'Kb(`characters`',
      'Kb(`items`',
      'r=`Array of `',
      '`non-empty`',
      '`$1s$2`',
    ])
      expect(html, literal).not.toContain(literal);
    expect(html).toContain('label:docsWords.enumLabel');
    if (lang === 'en') return;
    for (const key of ['enumLabel', 'payload', 'characters', 'nonEmpty', 'arrayOf'] as const)
      expect(REDOC_WORDS[lang][key], `${lang} ${key}`).not.toBe(REDOC_WORDS.en[key]);
    expect(REDOC_WORDS[lang].plural.object).not.toBe('objects');
  });

  it('keep the title from breaking mid-word (Redoc lets headings break anywhere)', async () => {
    const { html } = await pageIn('de');
    expect(html).toContain('#redoc h1{overflow-wrap:normal;word-break:normal}');
  });
});

describe.skipIf(!existsSync(CHROMIUM))('docs pages in headless Chromium', () => {
  if (!existsSync(CHROMIUM))
    console.warn(`${CHROMIUM} not installed: the docs are checked by scanning their HTML only`);

  // One browser for the file (a launch costs seconds); each test has a page of its own, in a context of its own.
  let browser: Browser;
  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  });
  afterAll(() => browser?.close());

  // One page a language (Redoc renders the whole contract on every load, seconds of CPU each): the overview and
  // the requests first, then, in the other languages, an operation opened.
  it.each(
    LANGUAGES,
  )('/docs/%s renders in its language, requests only the service, and shows no English of Redoc’s in an operation', async (lang) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(`${origin}/docs/${lang}`, { waitUntil: 'networkidle' });
      // Redoc renders the reference client-side: the API's title in the page's language shows it ran.
      await page.getByText(contractIn(lang).info.title, { exact: true }).first().waitFor({ timeout: 150_000 });
      // Redoc's own words follow the page's language too (its translate hook, src/http/docs-labels.ts): the
      // overview panel beside the title is rendered at once (operations only when scrolled to).
      const overviewText = await page.evaluate(() => document.body.innerText);
      const [overview, license] =
        lang === 'en'
          ? ['Overview', 'License']
          : [REDOC_LABELS[lang]['info.title'], REDOC_LABELS[lang]['info.license']];
      expect(overviewText).toContain(overview);
      expect(overviewText).toContain(license);
      expect(requests.filter((url) => !url.startsWith(origin) && !/^(data|blob|about):/.test(url))).toEqual([]);
      if (lang === 'en') return;
      expect(overviewText).not.toMatch(/\bOverview\b|\bLicense\b/);

      // An operation opened (Redoc follows the address's fragment): types, counts, colons, headings and the
      // attribution in the page's language.
      await page.evaluate(() => {
        window.location.hash = '#/quotes';
      });
      const summary = contractIn(lang).paths['/quotes'].post.summary as string;
      await page.getByText(summary, { exact: true }).first().click({ timeout: 150_000 });
      await page.getByRole('heading', { name: summary }).first().waitFor({ timeout: 150_000 });
      const or = { de: ' oder ', fr: ' ou ', nl: ' of ' }[lang];
      await page.getByText(`string${or}null`).first().waitFor({ timeout: 150_000 });
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain(REDOC_WORDS[lang].apiDocsBy);
      expect(text).toContain(`${REDOC_LABELS[lang].example}${REDOC_WORDS[lang].colon}`);
      for (const english of [
        /\bor null\b/,
        /API docs by/,
        /\bShow \d+ (more|array properties|properties)/,
        /\d+ (more|array properties)\b/,
        /^Response$/m,
        /\bValue:/,
        /Anzeigen \d/,
        /Exemple:/,
        /Loading\.\.\./,
      ])
        expect(text, `${lang} ${english}`).not.toMatch(english);
    } finally {
      await page.close();
    }
  }, 400_000);
});
