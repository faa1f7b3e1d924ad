// The review page in headless Chromium (Debian package `chromium`, driven by playwright-core): the customer opens
// the link, sees the page in Dutch and in German, answers with the keyboard only, the review appears in
// GET /reviews, and a second submit is refused. A screenshot of each language is kept in test-results/review-page/.
import { existsSync, mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = 'test-results/review-page';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`${CHROMIUM} not installed: the review page's browser test is skipped`);

let api: TestApi;
let key: string;
let origin: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'nl' }));
  ({ origin } = await listenOnLoopback(api.app));
  mkdirSync(SHOTS, { recursive: true });
});

async function pageLink(language: 'nl' | 'de', name: string) {
  const res = await api.call('createReviewRequest', {
    key,
    body: { name, email: `${crypto.randomUUID()}@example.nl`, channel: 'link', language },
  });
  expect(res.status).toBe(201);
  // The link names http://api.test; the same path on the loopback server.
  return { id: res.body.data.id as string, url: `${origin}${new URL(res.body.data.url).pathname}` };
}

describe.skipIf(!hasChromium)('the review page in Chromium', () => {
  it.each([
    {
      language: 'nl' as const,
      title: 'Beoordeel Schildersbedrijf De Kwast',
      legend: 'Uw beoordeling',
      thanks: 'We hebben uw review ontvangen',
      already: 'al beantwoord',
      name: 'Daan de Vries',
      city: 'Zwolle',
    },
    {
      language: 'de' as const,
      title: 'Schildersbedrijf De Kwast bewerten',
      legend: 'Ihre Bewertung',
      thanks: 'Wir haben Ihre Bewertung erhalten',
      already: 'bereits beantwortet',
      name: 'Jonas Becker',
      city: 'Köln',
    },
  ])(
    '$language: open, answer with the keyboard only, see it in GET /reviews; a second submit is refused',
    { timeout: 90_000 },
    async (t) => {
      const { id, url } = await pageLink(t.language, t.name);
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      try {
        const context = await browser.newContext({ locale: t.language });
        const page = await context.newPage();
        const requests: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        const opened = await page.goto(url);
        expect(opened?.status()).toBe(200);
        expect(await page.getAttribute('html', 'lang')).toBe(t.language);
        expect(await page.title()).toBe(t.title);
        await expect(page.locator('legend').textContent()).resolves.toBe(t.legend);
        // Every control has an accessible name (its label).
        for (const field of ['comment', 'name', 'city', 'consent'])
          expect((await page.getByLabel(await page.locator(`label[for=${field}]`).innerText()).count()) > 0).toBe(true);
        await page.screenshot({ path: `${SHOTS}/form-${t.language}.png`, fullPage: true });
        // The same form open in a second tab, to send it again after the first was answered.
        const second = await context.newPage();
        await second.goto(url);
        await second.check('#rating-2');
        await second.fill('#name', t.name);

        // Keyboard only: Tab into the rating group, arrows choose 4 stars, Tab through the fields, Space ticks the
        // consent, Enter on the button sends.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('rating-1');
        // The focused control shows a visible outline (focus-visible).
        const outline = await page.evaluate(() => {
          const el = document.activeElement;
          return el ? getComputedStyle(el).outlineStyle : 'none';
        });
        expect(outline).not.toBe('none');
        await page.keyboard.press('Space');
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('rating-4');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('comment');
        await page.keyboard.type('Vriendelijk en vakkundig geholpen.');
        await page.keyboard.press('Tab');
        await page.keyboard.type(t.name);
        await page.keyboard.press('Tab');
        await page.keyboard.type(t.city);
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('consent');
        await page.keyboard.press('Space');
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');
        const [response] = await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
        expect(response?.status()).toBe(200);
        expect(await page.textContent('main')).toContain(t.thanks);
        await page.screenshot({ path: `${SHOTS}/thanks-${t.language}.png`, fullPage: true });

        // Nothing was requested from anywhere but the service.
        expect(requests.every((r) => r.startsWith(origin))).toBe(true);

        const request = (await api.call('getReviewRequest', { key, params: { review_request: id } })).body.data;
        expect(request.status).toBe('completed');
        const listed = await api.call('listReviews', { key, query: { 'filter[source]': 'request' } });
        const review = listed.body.data.find((r: { id: string }) => r.id === request.review_id);
        expect(review).toMatchObject({
          rating: 4,
          comment: 'Vriendelijk en vakkundig geholpen.',
          author: { name: t.name, city: t.city },
          consent_publish: true,
          is_verified: true,
          source: 'request',
          language: t.language,
        });

        // The form of the second tab sent after the answer: refused, still one review.
        const again = await Promise.all([second.waitForNavigation(), second.keyboard.press('Enter')]);
        expect(again[0]?.status()).toBe(409);
        expect(await second.textContent('main')).toContain(t.already);
        await second.screenshot({ path: `${SHOTS}/already-${t.language}.png`, fullPage: true });
        // A reload of the answered page shows the thanks, not the form.
        await page.reload();
        expect(await page.locator('form').count()).toBe(0);
        const count = await api.sql`select count(*)::int as n from reviews where author_name = ${t.name}`;
        expect(count[0]?.n).toBe(1);
      } finally {
        await browser.close();
      }
    },
  );
});
