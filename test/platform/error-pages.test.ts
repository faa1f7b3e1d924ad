// /errors/{code}: every problem code of the contract has a page in each language that says what happened, the
// common causes and how to fix it, with an example problem that is valid per the contract.
import { beforeAll, describe, expect, it } from 'vitest';
import { type ProblemCode, problems } from '../../generated/problems.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { contract, schemaProblems } from '../harness/contract.ts';

const LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
const PARTS = ['happened', 'causes', 'fix'] as const;
const HEADINGS = {
  nl: ['Wat er gebeurde', 'Gebruikelijke oorzaken', 'Zo los je het op', 'Voorbeeld'],
  en: ['What happened', 'Common causes', 'How to fix it', 'Example'],
  de: ['Was passiert ist', 'Häufige Ursachen', 'So beheben Sie es', 'Beispiel'],
  fr: ['Ce qui s’est passé', 'Causes fréquentes', 'Comment y remédier', 'Exemple'],
} as const;

const contractCodes = (contract.components.schemas.ProblemCode as { oneOf: { const: string }[] }).oneOf.map(
  (c) => c.const,
);
const codes = Object.keys(problems) as ProblemCode[];

const unescapeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
/** The page's text without tags, as a reader sees it. */
const textOf = (html: string) => unescapeHtml(html.replace(/<[^>]+>/g, ''));
const exampleOf = (html: string) => {
  const found = html.match(/<pre><code class="language-json">([\s\S]*?)<\/code><\/pre>/);
  if (!found) throw new Error('the page shows no example problem');
  return JSON.parse(unescapeHtml(found[1]));
};

let api: TestApi;
beforeAll(async () => {
  api = await setupApi();
});

const page = (path: string, headers: Record<string, string> = {}) =>
  api.app.request(`http://api.test${path}`, { headers });

describe('the texts of the error pages', () => {
  it('cover every problem code of the contract', () => {
    expect([...codes].sort()).toEqual([...contractCodes].sort());
  });

  it.each(codes)('%s: what happened, causes, fix and an example detail in all four languages', (code) => {
    for (const lang of LANGUAGES) {
      const texts = problems[code].pages[lang];
      for (const part of PARTS) expect(texts[part].trim(), `${code} ${lang} ${part}`).not.toBe('');
      expect(texts.causes.split('\n').filter((l) => l.startsWith('- ')).length, `${code} ${lang}`).toBeGreaterThan(0);
      expect(texts.example.detail.trim(), `${code} ${lang} example`).not.toBe('');
      if (lang === 'en') continue;
      // A translation, not the English text left in place.
      const en = problems[code].pages.en;
      for (const part of PARTS) expect(texts[part], `${code} ${lang} ${part}`).not.toBe(en[part]);
      expect(texts.example.detail, `${code} ${lang} example`).not.toBe(en.example.detail);
    }
  });
});

describe('GET /errors/{code}', () => {
  it.each(LANGUAGES)('renders every code in %s (?lang=) with a valid example problem', async (lang) => {
    for (const code of codes) {
      const res = await page(`/errors/${code}?lang=${lang}`);
      expect(res.status, code).toBe(200);
      expect(res.headers.get('content-language')).toBe(lang);
      const html = await res.text();
      expect(html).toContain(`<html lang="${lang}">`);
      const text = textOf(html);
      const texts = problems[code].pages[lang];
      expect(text).toContain(problems[code].titles[lang]);
      for (const heading of HEADINGS[lang]) expect(text, `${code} ${lang}`).toContain(heading);
      expect(text).toContain(texts.happened.replace(/`/g, ''));
      expect(text).toContain(texts.fix.replace(/`/g, ''));
      for (const cause of texts.causes.split('\n').filter((l) => l.startsWith('- ')))
        expect(text).toContain(cause.slice(2).replace(/`/g, ''));
      // Links and chrome follow the page's language.
      expect(html).toContain(`href="/docs/${lang}"`);
      expect(html).toContain(`href="/api/v1/openapi.json?lang=${lang}"`);
      for (const other of LANGUAGES.filter((l) => l !== lang))
        expect(html).toContain(`href="/errors/${code}?lang=${other}" hreflang="${other}"`);

      const example = exampleOf(html);
      expect(schemaProblems('Problem', example), `${code} ${lang}`).toEqual([]);
      expect(example).toMatchObject({
        type: `http://api.test/errors/${code}`,
        title: problems[code].titles[lang],
        status: problems[code].status,
        code,
        detail: texts.example.detail,
      });
    }
  });

  it('picks the language from Accept-Language without ?lang=, and says caches must vary on it', async () => {
    const res = await page('/errors/not_found', { 'accept-language': 'de-CH,de;q=0.9,en;q=0.5' });
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.headers.get('vary')).toContain('Accept-Language');
    const html = await res.text();
    expect(textOf(html)).toContain('Was passiert ist');
    expect(exampleOf(html).title).toBe(problems.not_found.titles.de);
    // ?lang= wins over the header.
    const asked = await page('/errors/not_found?lang=fr', { 'accept-language': 'de' });
    expect(asked.headers.get('content-language')).toBe('fr');
    // Without either: English.
    expect((await page('/errors/not_found')).headers.get('content-language')).toBe('en');
  });

  it('refuses a language it does not have, and a code that does not exist', async () => {
    const wrongLanguage = await page('/errors/not_found?lang=es');
    expect(wrongLanguage.status).toBe(422);
    expect((await wrongLanguage.json()).code).toBe('validation_failed');
    const unknown = await page('/errors/no_such_code');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe('not_found');
  });
});

describe('the page’s own problems and the example of validation_failed', () => {
  it('answers an unknown code or a wrong lang in the language asked for', async () => {
    const unknown = await page('/errors/no_such_code?lang=de');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-language')).toBe('de');
    expect((await unknown.json()).detail).toBe('Es gibt keinen Fehlercode mit diesem Namen.');
    const byHeader = await page('/errors/no_such_code', { 'accept-language': 'fr' });
    expect((await byHeader.json()).detail).toBe('Il n’existe aucun code d’erreur portant ce nom.');
    const wrongLang = await page('/errors/not_found?lang=xx', { 'accept-language': 'nl' });
    expect(wrongLang.status).toBe(422);
    expect((await wrongLang.json()).title).toBe(problems.validation_failed.titles.nl);
  });

  it.each(LANGUAGES)('%s: the example on /errors/validation_failed is what the API answers', async (lang) => {
    const { key } = await api.tenant();
    const res = await api.call('createCustomer', {
      key,
      body: { name: 'Jan Jansen', email: 'jan-at-example.nl' },
      headers: { 'accept-language': lang },
    });
    expect(res.status).toBe(422);
    const shown = exampleOf(await (await page(`/errors/validation_failed?lang=${lang}`)).text());
    const { request_id: _sent, ...sent } = res.body as Record<string, unknown>;
    const { request_id: _example, ...example } = shown;
    expect(sent).toEqual({ ...example, type: sent.type });
    expect(String(sent.type).endsWith('/errors/validation_failed')).toBe(true);
  });
});
