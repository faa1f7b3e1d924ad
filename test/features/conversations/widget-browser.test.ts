// The chat widget in headless Chromium (Debian package `chromium`): a page on another origin embeds it with one
// script tag; a visitor opens it and sends a message with the keyboard only; the API lists the message; an API
// reply shows in the page; a reload continues the conversation (the token in localStorage). Skipped, saying why,
// where Chromium is not installed.
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { closeServerAtFileEnd } from '../../harness/file-end.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
if (!CHROMIUM) console.warn('chromium not installed (/usr/bin/chromium): the widget browser test is skipped');

const SCREENSHOTS = new URL('../../../test-results/widget/', import.meta.url);

let api: TestApi;
let key: string;
let apiOrigin: string;
let pageUrl: string;
let browser: Browser;

/** The company's website: another origin than the API, serving one page that embeds the widget (`?lang=` its language). */
async function serveWebsite(widgetScript: string, widgetId: string) {
  const html = (lang: string) => `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>Schildersbedrijf De Kwast</title></head>
<body><main><h1>Schildersbedrijf De Kwast</h1><p>Binnen- en buitenschilderwerk in Utrecht.</p></main>
<script src="${widgetScript}" data-widget-id="${widgetId}" async></script></body></html>`;
  const server = createServer((req, res) => {
    const lang = new URL(req.url ?? '/', 'http://site').searchParams.get('lang') ?? 'nl';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html(/^[a-z]{2}$/.test(lang) ? lang : 'nl'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeServerAtFileEnd(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/binnenschilderwerk`;
}

describe.skipIf(!CHROMIUM)('the chat widget in Chromium', () => {
  beforeAll(async () => {
    api = await setupApi();
    let companyId: string;
    ({ key, companyId } = await api.tenant({ language: 'nl' }));
    const { row } = await setChannelSettings(api.db, companyId, {});
    ({ origin: apiOrigin } = await listenOnLoopback(api.app));
    pageUrl = await serveWebsite(`${apiOrigin}/widget.js`, row.widgetId);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** The visitor's page, recording every request it makes and the console's errors. */
  async function openPage(page: Page) {
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (entry) => {
      if (entry.type() === 'error') errors.push(entry.text());
    });
    await page.goto(pageUrl);
    return { requests, errors };
  }

  /** The text of the active element, looking into the widget's shadow root. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active ? `${active.tagName.toLowerCase()}#${active.id}` : null;
    });

  it('sends with the keyboard, lists in the API, shows the API reply, and continues after a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 720 }, locale: 'nl-NL' });
    const page = await context.newPage();
    const { requests, errors } = await openPage(page);

    // Keyboard only: Tab reaches the launcher, Enter opens the panel with the focus in the message field.
    const launcher = page.getByRole('button', { name: 'Chat met ons' });
    await launcher.waitFor({ timeout: 10_000 });
    await page.keyboard.press('Tab');
    expect(await launcher.evaluate((el) => el.matches(':focus'))).toBe(true);
    await page.keyboard.press('Enter');
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    expect(await focused(page)).toBe('textarea#crm-chat-message');
    await expect(page.getByRole('dialog', { name: 'Chat met Schildersbedrijf De Kwast' }).isVisible()).resolves.toBe(
      true,
    );

    const question = 'Goedemiddag, kunnen jullie in maart onze kozijnen schilderen?';
    await page.keyboard.type(question);
    await page.keyboard.press('Enter');
    const log = page.getByRole('log', { name: 'Berichten' });
    await log.getByText(question).waitFor({ timeout: 10_000 });
    expect(await page.getByLabel('Uw bericht').inputValue()).toBe('');

    // The API lists the conversation and the message.
    const list = await api.call<'listConversations'>('listConversations', { key, query: { 'filter[channel]': 'web' } });
    expect(list.body.data).toHaveLength(1);
    const [conversation] = list.body.data;
    expect(conversation).toMatchObject({ channel: 'web', status: 'open', message_count: 1, page_url: pageUrl });
    const messages = await api.call<'listConversationMessages'>('listConversationMessages', {
      key,
      params: { conversation: conversation.id },
    });
    expect(messages.body.data.map((m) => [m.sender, m.body])).toEqual([['customer', question]]);

    // A reply through the API shows in the page within a few seconds (the widget polls every 3).
    const reply = 'Goedemiddag! Dat kan zeker, we komen graag langs voor een offerte.';
    const sent = await api.call('createConversationMessage', {
      key,
      params: { conversation: conversation.id },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { body: reply },
    });
    expect(sent.status).toBe(201);
    const shownAt = Date.now();
    await log.getByText(reply).waitFor({ timeout: 8_000 });
    expect(Date.now() - shownAt).toBeLessThan(8_000);

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: new URL('conversation.png', SCREENSHOTS).pathname });

    // Escape closes the panel and gives the focus back to the launcher.
    await page.keyboard.press('Escape');
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    expect(await launcher.evaluate((el) => el.matches(':focus'))).toBe(true);

    // A reload continues the same conversation: the token was kept in localStorage.
    await page.reload();
    await launcher.waitFor();
    await launcher.click();
    await log.getByText(reply).waitFor({ timeout: 8_000 });
    await page.keyboard.type('Prima, volgende week dinsdag past ons goed.');
    await page.getByRole('button', { name: 'Versturen' }).click();
    await log.getByText('Prima, volgende week dinsdag past ons goed.').waitFor({ timeout: 8_000 });
    const after = await api.call('getConversation', { key, params: { conversation: conversation.id } });
    expect(after.body.data).toMatchObject({ message_count: 3, status: 'waiting_on_team' });
    expect((await api.call('listConversations', { key })).body.data).toHaveLength(1);

    // The page loaded nothing but itself and the service, and the browser reported no error (CORS included).
    const origins = new Set(requests.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([apiOrigin, new URL(pageUrl).origin].sort());
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows the problem of the field the API names next to it, in the visitor’s language; a server error the general message', async () => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${pageUrl}?lang=de`);
    await page.getByRole('button', { name: 'Chatten Sie mit uns' }).click();
    const email = page.getByLabel('Ihre E-Mail-Adresse (optional)');
    const status = page.getByRole('status');
    await email.fill('jan@kwast');
    await page.getByLabel('Ihre Nachricht').fill('Guten Tag, streichen Sie auch Fensterrahmen?');
    await page.getByRole('button', { name: 'Senden' }).click();

    // The API refused the address (422, pointer /email): its field says so, and holds the focus.
    await expect.poll(() => email.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    const emailError = page.locator('#crm-chat-email-error');
    expect(await emailError.textContent()).toBe('Bitte prüfen Sie Ihre E-Mail-Adresse.');
    expect(await emailError.isVisible()).toBe(true);
    expect(await email.getAttribute('aria-describedby')).toBe('crm-chat-email-error');
    expect(await status.textContent()).toBe('Bitte korrigieren Sie das markierte Feld.');
    expect(await focused(page)).toBe('input#crm-chat-email');
    expect(await page.locator('#crm-chat-message-error').isVisible()).toBe(false);
    expect((await api.call('listConversations', { key, query: { 'filter[channel]': 'web' } })).body.data).toHaveLength(
      1,
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: new URL('field-error.png', SCREENSHOTS).pathname });

    // Typing in the field takes its problem away.
    await email.fill('jan@kwast.de');
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    expect(await emailError.isVisible()).toBe(false);

    // A refusal that names no field (here the service failing) shows the general message, no field's.
    await page.route('**/api/v1/widget/*/sessions', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Internal error', status: 500, code: 'internal_error' }),
      }),
    );
    await page.getByRole('button', { name: 'Senden' }).click();
    await expect
      .poll(() => status.textContent(), { timeout: 10_000 })
      .toBe('Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es erneut.');
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    expect(await emailError.isVisible()).toBe(false);
    await context.close();
  }, 60_000);

  it('shows nothing on a page whose widget id is unknown', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (entry) => {
      if (entry.type() === 'warning') warnings.push(entry.text());
    });
    await page.setContent(
      `<html><body><script src="${apiOrigin}/widget.js" data-widget-id="wid_unknown0000000000000000"></script></body></html>`,
    );
    await expect.poll(() => warnings.some((w) => w.includes('not_found')), { timeout: 10_000 }).toBe(true);
    expect(await page.locator('[data-crm-widget]').count()).toBe(0);
    await context.close();
  });
});
