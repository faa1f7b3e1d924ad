// The docs are self-contained: each language's page carries Redoc and the contract in that language, and a
// browser that opens it requests nothing outside the service. Checked in headless Chromium where it is
// installed (Debian package `chromium`), and always by scanning the HTML for resources it would load.
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../harness/api.ts';

const LANGUAGES = ['nl', 'en', 'de', 'fr'] as const;
const CHROMIUM = '/usr/bin/chromium';

let api: TestApi;
let origin: string;
let server: ReturnType<typeof serve>;

beforeAll(async () => {
  api = await setupApi();
  server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.close();
});

const contractIn = (lang: string) => {
  const file = new URL(`../../generated/openapi.${lang}.json`, import.meta.url);
  const fallback = new URL('../../generated/openapi.en.json', import.meta.url);
  return JSON.parse(readFileSync(existsSync(file) ? file : fallback, 'utf8'));
};
/** The summary of listCustomers in the language's bundle: what the page must carry. */
const summaryIn = (lang: string): string => contractIn(lang).paths['/customers'].get.summary;

describe('docs pages', () => {
  it.each(LANGUAGES)('/docs/%s carries the contract in its language and loads nothing from outside', async (lang) => {
    const res = await fetch(`${origin}/docs/${lang}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe(lang);
    const html = await res.text();
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

describe.skipIf(!existsSync(CHROMIUM))('docs pages in headless Chromium', () => {
  if (!existsSync(CHROMIUM))
    console.warn(`${CHROMIUM} not installed: the docs are checked by scanning their HTML only`);

  it.each(LANGUAGES)('/docs/%s renders in its language and requests only the service', async (lang) => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(`${origin}/docs/${lang}`, { waitUntil: 'networkidle' });
      // Redoc renders the reference client-side: the API's title in the page's language shows it ran.
      await page.getByText(contractIn(lang).info.title, { exact: true }).first().waitFor({ timeout: 20_000 });
      expect(requests.filter((url) => !url.startsWith(origin) && !/^(data|blob|about):/.test(url))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
