// The online quote in headless Chromium (Debian `chromium`, driven by playwright-core), opened from the link of a
// real email received by the test SMTP server: the page is in the browser's language with the quote's amounts, the
// customer accepts it, and the API and the event feed show it accepted. Nothing is loaded from elsewhere.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/domain/locale-format.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { deliverQueuedEmails } from '../../harness/jobs.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`${CHROMIUM} not installed: the online quote's browser test is skipped`);

let api: TestApi;
let smtp: TestSmtp;
let key: string;
let companyId: string;
let origin: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  ({ origin } = await listenOnLoopback(api.app));
});
afterAll(async () => smtp.close());

const deliver = () => deliverQueuedEmails(api, companyId);

describe.skipIf(!hasChromium)('the online quote in Chromium', () => {
  it(
    'opens from the email in German, is accepted, and the API shows it accepted with its event',
    {
      timeout: 60_000,
    },
    async () => {
      const customer = await api.call('createCustomer', {
        key,
        body: { name: 'Jonas Becker', email: 'jonas@example.de' },
      });
      const created = await api.call('createQuote', {
        key,
        body: {
          customer_id: customer.body.data.id,
          title: 'Malerarbeiten',
          language: 'de',
          items: [{ name: 'Fassade streichen', quantity: 24, unit_price: 52.5, tax_rate: 19 }],
        },
      });
      const quote = created.body.data;
      expect((await api.call('sendQuote', { key, params: { quote: quote.id } })).status).toBe(200);
      await deliver();
      const mail = await smtp.waitFor((m) => m.subject?.includes(quote.number) ?? false);
      // The link as the customer reads it in the email's text (the service's PUBLIC_URL is http://api.test).
      const link = /http:\/\/api\.test\/quote\/\S+/.exec(mail.text ?? '')?.[0];
      expect(link).toBe(quote.public_url);
      expect(mail.text).toContain('online ansehen, annehmen oder ablehnen');
      const url = `${origin}${new URL(link as string).pathname}`;

      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      try {
        const context = await browser.newContext({ locale: 'de-DE' });
        const page = await context.newPage();
        const requests: string[] = [];
        page.on('request', (request) => requests.push(request.url()));
        const opened = await page.goto(url);
        expect(opened?.status()).toBe(200);
        expect(await page.getAttribute('html', 'lang')).toBe('de');
        expect(await page.title()).toContain(`Angebot ${quote.number}`);
        const text = (await page.textContent('main')) ?? '';
        expect(text.replace(/\u00A0/g, ' ')).toContain(formatMoney(quote.total, 'EUR', 'de').replace(/\u00A0/g, ' '));
        expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);

        const [answered] = await Promise.all([
          page.waitForNavigation(),
          page.getByRole('button', { name: 'Angebot annehmen' }).click(),
        ]);
        expect(answered?.status()).toBe(200);
        expect(await page.textContent('main')).toContain('angenommen');
        expect(await page.locator('form').count()).toBe(0);
        expect(requests.every((r) => r.startsWith(origin))).toBe(true);
      } finally {
        await browser.close();
      }

      const after = (await api.call('getQuote', { key, params: { quote: quote.id } })).body.data;
      expect(after.status).toBe('accepted');
      expect(after.viewed_at).not.toBeNull();
      const events = await api.call('listEvents', { key, query: { 'filter[type]': 'quote.viewed,quote.accepted' } });
      const types = events.body.data
        .filter((e: { data: { object: { id: string } } }) => e.data.object.id === quote.id)
        .map((e: { type: string }) => e.type);
      expect(types.sort()).toEqual(['quote.accepted', 'quote.viewed']);
    },
  );
});
