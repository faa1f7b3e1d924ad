// "Pay now" in headless Chromium (Debian `chromium`, driven by playwright-core), in the four languages: for an
// invoice in each language, its email as received by the test SMTP server (its HTML part rendered in the browser)
// carries a "pay now" button to the invoice's pay_url, and its online page, opened in a browser of that language,
// shows the button, whose click answers 303 to the (fake) Mollie checkout of a payment in that language. One
// browser; one context and page per language.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../../src/languages.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { cliInProcess } from '../../harness/cli.ts';
import { deliverQueuedEmails } from '../../harness/jobs.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';
import { type FakeMollie, startFakeMollie } from '../../harness/mollie.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`${CHROMIUM} not installed: the pay-now browser test is skipped`);

const LANGUAGES: { language: Language; locale: string; button: string; mollieLocale: string }[] = [
  { language: 'nl', locale: 'nl-NL', button: 'Nu betalen', mollieLocale: 'nl_NL' },
  { language: 'en', locale: 'en-GB', button: 'Pay now', mollieLocale: 'en_US' },
  { language: 'de', locale: 'de-DE', button: 'Jetzt bezahlen', mollieLocale: 'de_DE' },
  { language: 'fr', locale: 'fr-FR', button: 'Payer maintenant', mollieLocale: 'fr_FR' },
];

let api: TestApi;
let smtp: TestSmtp;
let mollie: FakeMollie;
let key: string;
let companyId: string;
let origin: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  mollie = await startFakeMollie();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  const env = { DATABASE_URL: api.url, PUBLIC_URL: 'http://api.test', LOG_LEVEL: 'silent' };
  const connected = await cliInProcess(
    env,
    'company',
    'payments',
    companyId,
    '--mollie-key',
    'test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM',
    '--mollie-base-url',
    mollie.apiUrl,
  );
  expect(connected.code, connected.stderr).toBe(0);
  ({ origin } = await listenOnLoopback(api.app));
});
afterAll(async () => {
  await smtp.close();
  await mollie.close();
});

async function sentInvoice(language: Language) {
  const customer = await api.call('createCustomer', {
    key,
    body: { name: `Klant ${language}`, email: `klant-${language}@example.test` },
  });
  const created = await api.call('createInvoice', {
    key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Werk',
      language,
      items: [{ name: 'Werk', quantity: 1, unit_price: 120, tax_rate: 21 }],
    },
  });
  expect(created.status).toBe(201);
  const sent = await api.call('sendInvoice', { key, params: { invoice: created.body.data.id } });
  expect(sent.status).toBe(200);
  return sent.body.data as { id: string; number: string; public_url: string; pay_url: string; total: string };
}

describe.skipIf(!hasChromium)('pay now in Chromium', () => {
  it(
    'the email and the online invoice offer "pay now" in nl, en, de and fr; the button goes (303) to the checkout',
    {
      timeout: 90_000,
    },
    async () => {
      const invoices = [];
      for (const lang of LANGUAGES) invoices.push({ ...lang, invoice: await sentInvoice(lang.language) });
      await deliverQueuedEmails(api, companyId);

      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      });
      try {
        for (const { language, locale, button, mollieLocale, invoice } of invoices) {
          const context = await browser.newContext({ locale });
          const page = await context.newPage();

          // The email's HTML as a mail client would show it: the "pay now" button leads to pay_url.
          const mail = await smtp.waitFor((m) => m.subject?.includes(invoice.number) ?? false);
          expect(mail.text, language).toContain(invoice.pay_url);
          expect(typeof mail.html, language).toBe('string');
          await page.setContent(String(mail.html));
          expect(await page.getAttribute('html', 'lang')).toBe(language);
          const mailButton = page.getByRole('link', { name: button, exact: true });
          expect(await mailButton.getAttribute('href'), language).toBe(invoice.pay_url);
          expect(await page.getByRole('link', { name: invoice.public_url }).count(), language).toBe(1);

          // The online invoice in the browser's language, and its button.
          const opened = await page.goto(`${origin}${new URL(invoice.public_url).pathname}`);
          expect(opened?.status(), language).toBe(200);
          expect(await page.getAttribute('html', 'lang')).toBe(language);
          const pageButton = page.getByRole('link', { name: button, exact: true });
          expect(await pageButton.isVisible(), language).toBe(true);
          const answers: { url: string; status: number; location: string | null }[] = [];
          page.on('response', (response) =>
            answers.push({
              url: response.url(),
              status: response.status(),
              location: response.headers().location ?? null,
            }),
          );
          await Promise.all([page.waitForURL(`${mollie.origin}/checkout/**`), pageButton.click()]);
          const pay = answers.find((a) => a.url.startsWith(`${origin}/invoice/`) && a.url.includes('/pay'));
          expect(pay?.status, language).toBe(303);
          expect(pay?.location, language).toBe(page.url());
          const paymentId = (await page.textContent('#payment')) ?? '';
          expect(mollie.payments.get(paymentId), language).toMatchObject({
            locale: mollieLocale,
            amount: { value: invoice.total, currency: 'EUR' },
            metadata: { invoice_id: invoice.id },
          });
          await context.close();
        }
      } finally {
        await browser.close();
      }
    },
  );
});
