// The reviews widget's words read as written in each language (issue 47, point 10): a count meets its noun in the
// plural form the language's rules choose ("uit 1 review", "1 étoile sur 5"), and a review's date is its day on the
// company's clock (a review at 00:40 on 2 December in Amsterdam is of 2 December, not of 1 December in UTC).
// Checked in Chromium, where the widget renders itself.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';

const CHROMIUM = '/usr/bin/chromium';

let api: TestApi;
let widgetId: string;

beforeAll(async () => {
  api = await setupApi();
  const { companyId } = await api.tenant({ language: 'nl' });
  ({ widgetId } = (await setChannelSettings(api.db, companyId, {})).row);
  // 23:40 UTC on 1 December is 00:40 on 2 December in Amsterdam, the company's time zone.
  await api.sql`insert into reviews (company_id, id, status, source, rating, comment, author_name, author_city,
      language, is_verified, consent_publish, reviewed_at)
    values (${companyId}, ${crypto.randomUUID()}, 'published', 'request', 1, 'Te laat begonnen.', 'Kees V.',
      'Delft', 'nl', true, true, '2026-12-01T23:40:00Z')`;
});

const EXPECTED = {
  nl: { summary: '1 van 5 uit 1 review', stars: '1 van 5 sterren', date: '2 december 2026' },
  en: { summary: '1 out of 5 from 1 review', stars: '1 out of 5 stars', date: '2 December 2026' },
  de: { summary: '1 von 5 aus 1 Bewertung', stars: '1 von 5 Sternen', date: '2. Dezember 2026' },
  fr: { summary: '1 sur 5 sur la base de 1 avis', stars: '1 étoile sur 5', date: '2 décembre 2026' },
} as const;

describe('the reviews widget’s counts and dates', () => {
  it.skipIf(!existsSync(CHROMIUM))(
    'says one review in the singular and dates it on the company’s clock, in every language (Chromium)',
    { timeout: 90_000 },
    async () => {
      const { origin } = await listenOnLoopback(api.app);
      const script = `${origin}/api/v1/public/reviews/${widgetId}/widget.js`;
      const pages = Object.keys(EXPECTED).map(
        (lang) => `<section lang="${lang}"><script src="${script}"></script></section>`,
      );
      const html = `<!doctype html><html><head><title>Shop</title></head><body>${pages.join('')}</body></html>`;
      const site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
      try {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/shop`);
        const hosts = page.locator('[data-crm-reviews]');
        await expect(hosts.count()).resolves.toBe(4);
        for (const [index, [lang, expected]] of Object.entries(EXPECTED).entries()) {
          const host = hosts.nth(index);
          expect(await host.getAttribute('lang')).toBe(lang);
          const shown = await host.evaluate((el) => ({
            summary: el.shadowRoot?.querySelector('.summary')?.textContent,
            stars: el.shadowRoot?.querySelector('.stars')?.getAttribute('aria-label'),
            meta: el.shadowRoot?.querySelector('li .meta')?.textContent,
          }));
          expect(shown.summary, lang).toBe(expected.summary);
          expect(shown.stars, lang).toBe(expected.stars);
          expect(shown.meta, lang).toContain(expected.date);
        }
        const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}');
        expect(ld.review[0].datePublished).toBe('2026-12-02');
      } finally {
        await browser.close();
        site.close();
      }
    },
  );
});
