// The public review feed and widget (no key, per company widget id): only published, consented reviews with the
// company's replies and their average; Cache-Control, ETag and 304; 404 for an unknown widget id; the rate limit
// per address; the widget rendered in Chromium with its schema.org AggregateRating JSON-LD.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { RateLimits } from '../../../src/http/rate-limit.ts';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';

const CHROMIUM = '/usr/bin/chromium';

let api: TestApi;
let key: string;
let widgetId: string;

beforeAll(async () => {
  api = await setupApi();
  let companyId: string;
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  ({ widgetId } = (await setChannelSettings(api.db, companyId, {})).row);
  const add = (rating: number, status: string, consent: boolean, name: string, at: string, reply: string | null) =>
    api.sql`insert into reviews (company_id, id, status, hidden_reason, source, rating, comment, author_name,
      author_city, language, is_verified, consent_publish, reply, replied_at, reviewed_at, customer_id)
      values (${companyId}, ${crypto.randomUUID()}, ${status}, ${status === 'hidden' ? 'spam' : null}, 'request',
      ${rating}, ${`Review van ${name} <script>alert(1)</script>`}, ${name}, 'Utrecht', 'nl', true, ${consent},
      ${reply}, ${reply ? at : null}, ${at}, null)`;
  await add(5, 'published', true, 'Fatima E.', '2026-03-15T20:11:37Z', 'Dank je wel, Fatima!');
  await add(4, 'published', true, 'Jeroen K.', '2026-03-02T11:24:05Z', null);
  await add(4, 'published', true, 'Ans P.', '2026-02-01T09:00:00Z', null);
  await add(1, 'published', false, 'Zonder Toestemming', '2026-03-16T10:00:00Z', null);
  await add(1, 'hidden', true, 'Spammer', '2026-03-17T10:00:00Z', null);
});

const feedPath = () => `/api/v1/public/reviews/${widgetId}`;

describe('listPublishedReviews', () => {
  it('lists only published, consented reviews, newest first, with replies and the average of all of them', async () => {
    const res = await api.call('listPublishedReviews', { params: { widget_id: widgetId }, query: { limit: 2 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.company).toEqual({ name: 'Schildersbedrijf De Kwast' });
    expect(res.body.aggregate_rating).toEqual({ average: '4.33', count: 3, best: 5, worst: 1 });
    expect(res.body.data.map((r: { author: { name: string } }) => r.author.name)).toEqual(['Fatima E.', 'Jeroen K.']);
    expect(res.body.data[0]).toMatchObject({ reply: 'Dank je wel, Fatima!', rating: 5, is_verified: true });
    expect(res.body.data[0]).not.toHaveProperty('customer_id');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const tag = res.headers.get('etag') as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await api.app.request(`http://api.test${feedPath()}?limit=2`, { headers: { 'if-none-match': tag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(tag);
    // A hidden review changes the answer, and so its tag.
    const fatima = res.body.data[0].id;
    await api.call('hideReview', { key, params: { review: fatima }, body: { hidden_reason: 'other' } });
    const changed = await api.app.request(`http://api.test${feedPath()}?limit=2`, {
      headers: { 'if-none-match': tag },
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).aggregate_rating).toEqual({ average: '4.00', count: 2, best: 5, worst: 1 });
    await api.call('publishReview', { key, params: { review: fatima } });
  });

  it('answers 404 for an unknown widget id and 422 for a malformed one, with no key', async () => {
    const unknown = await api.call('listPublishedReviews', { params: { widget_id: 'wid_doesnotexist123' } });
    expect(unknown.status).toBe(404);
    const bad = await api.call('listPublishedReviews', { params: { widget_id: 'nope' } });
    expect(bad.status).toBe(422);
  });

  it('is limited per client address (429 with Retry-After past the public window)', async () => {
    const saved = api.deps.publicLimits;
    api.deps.publicLimits = new RateLimits([{ name: 'public', limit: 2, windowSeconds: 60 }], 'public-test');
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await api.app.request(`http://api.test${feedPath()}`)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const limited = await api.app.request(`http://api.test${feedPath()}`);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(limited.headers.get('ratelimit-policy')).toContain('public');
    } finally {
      api.deps.publicLimits = saved;
    }
  });
});

describe('getReviewWidget', () => {
  it('is a cacheable script with the reviews and their texts in the chosen language', async () => {
    const res = await api.app.request(`http://api.test${feedPath()}/widget.js?lang=de&limit=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const script = await res.text();
    expect(script).toContain('Bewertungen von Schildersbedrijf De Kwast');
    expect(script).not.toContain('<script>');
    expect(script).not.toContain('Zonder Toestemming');
    const again = await api.app.request(`http://api.test${feedPath()}/widget.js?lang=de&limit=3`, {
      headers: { 'if-none-match': res.headers.get('etag') as string },
    });
    expect(again.status).toBe(304);
    expect((await api.app.request(`http://api.test/api/v1/public/reviews/wid_unknown1234/widget.js`)).status).toBe(404);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'renders in a page (Chromium): stars, reviews, reply, and the AggregateRating JSON-LD',
    { timeout: 60_000 },
    async () => {
      const { origin } = await listenOnLoopback(api.app);
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
      try {
        const page = await browser.newPage();
        const html = `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
          <script src="${origin}${feedPath()}/widget.js?lang=nl"></script><footer>end</footer></body></html>`;
        // The company's site: another origin (its own port on the loopback address, where Chromium lets a page load
        // scripts from the loopback test server).
        const site = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
        await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/shop`);
        site.close();
        expect(errors).toEqual([]);
        const host = page.locator('[data-crm-reviews]');
        await expect(host.count()).resolves.toBe(1);
        const text = await host.evaluate((el) => el.shadowRoot?.textContent ?? '');
        expect(text).toContain('Reviews van Schildersbedrijf De Kwast');
        expect(text).toContain('4,33 van 5 uit 3 reviews');
        expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
        expect(text).toContain('Reactie van Schildersbedrijf De Kwast');
        expect(text).toContain('Dank je wel, Fatima!');
        // A review's text stays text: no script element was made from it.
        expect(await host.evaluate((el) => el.shadowRoot?.querySelectorAll('script').length)).toBe(0);
        const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
        expect(ld).toMatchObject({
          '@context': 'https://schema.org',
          '@type': 'Organization',
          aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.33', reviewCount: 3, bestRating: 5 },
        });
        expect(ld.review).toHaveLength(3);
        await page.screenshot({ path: 'test-results/review-page/widget.png', fullPage: true });

        // Without ?lang= the widget speaks the page's language (its lang attribute), with German numbers and dates.
        const german = `<!doctype html><html lang="de-AT"><head><title>Shop</title></head><body>
          <script src="${origin}${feedPath()}/widget.js"></script></body></html>`;
        const deSite = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(german));
        await new Promise<void>((resolve) => deSite.listen(0, '127.0.0.1', resolve));
        await page.goto(`http://127.0.0.1:${(deSite.address() as AddressInfo).port}/shop`);
        deSite.close();
        const deHost = page.locator('[data-crm-reviews]');
        expect(await deHost.getAttribute('lang')).toBe('de');
        const deText = await deHost.evaluate((el) => el.shadowRoot?.textContent ?? '');
        expect(deText).toContain('Bewertungen von Schildersbedrijf De Kwast');
        expect(deText).toContain('4,33 von 5 aus 3 Bewertungen');
        expect(deText).toMatch(
          /\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}/,
        );
        expect(deText).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      } finally {
        await browser.close();
      }
    },
  );
});
