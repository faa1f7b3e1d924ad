// The online quote and invoice at a document's `public_url`: the link only for keys that may send the document
// (never in events), the page in the asked language with the PDF's figures, the first opening marks the document
// viewed with its event, the customer's answer through the form (cookie + token, same site only), an expired quote
// that cannot be accepted, a cancelled invoice's page, forged links, and the per-address window.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/domain/locale-format.ts';
import { DOCUMENT_PAGE_WINDOWS } from '../../../src/http/rate-limit.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let readKey: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi({ TRUSTED_PROXIES: '127.0.0.1' });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  ({ key: readKey } = await api.key(companyId, { scopes: ['quotes.read', 'invoices.read', 'events.read'] }));
  await api.sql`update companies set iban = 'NL91ABNA0417164300', bic = 'ABNANL2A' where id = ${companyId}`;
});

let visitor = 0;
/** A visit from an address of its own (the window is per address), in `language` unless told otherwise. */
const visit = (url: string, init: RequestInit & { from?: string } = {}) =>
  api.app.request(new URL(url).pathname + new URL(url).search, {
    ...init,
    headers: { 'x-forwarded-for': init.from ?? `198.51.100.${++visitor % 250}`, ...init.headers },
  });

async function customer(name: string) {
  return (await api.call('createCustomer', { key, body: { name, email: `${crypto.randomUUID()}@example.nl` } })).body
    .data.id as string;
}

async function sentQuote(body: Record<string, unknown> = {}) {
  const created = await api.call('createQuote', {
    key,
    body: {
      customer_id: await customer('Pieter de Boer'),
      title: 'Schilderwerk',
      items: [
        { name: 'Schilderwerk buitenkozijnen', quantity: 24, unit_price: 52.5, tax_rate: 9 },
        { name: 'Verf', quantity: 6, unit_price: 80, tax_rate: 21 },
      ],
      ...body,
    },
  });
  expect(created.status).toBe(201);
  const sent = await api.call('sendQuote', { key, params: { quote: created.body.data.id } });
  expect(sent.status).toBe(200);
  return sent.body.data;
}

/** The form's token and the cookie the page set. */
async function openForm(url: string) {
  const page = await visit(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
  return { html, token, cookie };
}

const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  visit(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://api.test', ...headers },
    body: new URLSearchParams(form).toString(),
  });

describe('public_url', () => {
  it('is given to keys that may send, null for a read-only key and in events', async () => {
    const quote = await sentQuote();
    expect(quote.public_url).toMatch(/^http:\/\/api\.test\/quote\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const read = await api.call('getQuote', { key: readKey, params: { quote: quote.id } });
    expect(read.body.data.public_url).toBeNull();
    const events = await api.call('listEvents', { key, query: { 'filter[type]': 'quote.sent' } });
    const event = events.body.data.find((e: { data: { object: { id: string } } }) => e.data.object.id === quote.id);
    expect(event.data.object.public_url).toBeNull();
  });
});

describe('the online quote', () => {
  it('shows the quote in the asked language with the API figures; the first opening marks it viewed once', async () => {
    const quote = await sentQuote();
    const de = await visit(quote.public_url, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(de.status).toBe(200);
    expect(de.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await de.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(`Angebot ${quote.number}`);
    expect(html).toContain(formatMoney(quote.total, 'EUR', 'de'));
    expect(html).toContain('Angebot annehmen');
    // Without a language asked for, the quote's own (Dutch); ?lang wins over the browser.
    expect(await (await visit(quote.public_url)).text()).toContain('<html lang="nl">');
    const fr = await visit(`${quote.public_url}?lang=fr`, { headers: { 'accept-language': 'de' } });
    expect(await fr.text()).toContain(formatMoney(quote.total, 'EUR', 'fr'));

    const after = (await api.call('getQuote', { key, params: { quote: quote.id } })).body.data;
    expect(after.status).toBe('viewed');
    expect(after.viewed_at).not.toBeNull();
    const viewed = await api.sql`select count(*)::int as n from events
      where company_id = ${companyId} and type = 'quote.viewed' and data->'object'->>'id' = ${quote.id}`;
    expect(viewed[0]?.n).toBe(1);
    const pdf = await visit(`${quote.public_url}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('accepts through the form: the quote is accepted with its event, and a second answer is refused', async () => {
    const quote = await sentQuote();
    const { token, cookie } = await openForm(quote.public_url);
    const answered = await post(quote.public_url, { form_token: token, answer: 'accept' }, { cookie });
    expect(answered.status).toBe(303);
    const after = (await api.call('getQuote', { key, params: { quote: quote.id } })).body.data;
    expect(after.status).toBe('accepted');
    const events = await api.sql`select count(*)::int as n from events
      where company_id = ${companyId} and type = 'quote.accepted' and data->'object'->>'id' = ${quote.id}`;
    expect(events[0]?.n).toBe(1);
    const again = await post(quote.public_url, { form_token: token, answer: 'reject' }, { cookie });
    expect(again.status).toBe(409);
    expect(await (await visit(quote.public_url)).text()).toContain('geaccepteerd');
  });

  it('declines with a reason, kept in the internal notes', async () => {
    const quote = await sentQuote();
    const { token, cookie } = await openForm(quote.public_url);
    const form = { form_token: token, answer: 'reject', reason: 'Te duur <b>echt</b>' };
    expect((await post(quote.public_url, form, { cookie })).status).toBe(303);
    const after = (await api.call('getQuote', { key, params: { quote: quote.id } })).body.data;
    expect(after.status).toBe('rejected');
    expect(after.notes).toContain('Te duur <b>echt</b>');
  });

  // (An unpaired surrogate cannot travel in a form: UTF-8 has no bytes for it, the browser sends U+FFFD.)
  it.each([
    ['a NUL', 'Te duur\u0000echt'],
    ['1 001 characters', 'x'.repeat(1001)],
  ])('refuses a reason with %s as the API does (422 page), and the quote stays open', async (_, reason) => {
    const quote = await sentQuote();
    const { token, cookie } = await openForm(quote.public_url);
    const api422 = await api.call('rejectQuote', { key, params: { quote: quote.id }, body: { reason } });
    expect(api422.status).toBe(422);
    const res = await post(quote.public_url, { form_token: token, answer: 'reject', reason }, { cookie });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('niet afgewezen');
    expect((await api.call('getQuote', { key, params: { quote: quote.id } })).body.data.status).toBe('viewed');
    // The same form still answers once the reason is fixed.
    const fixed = await post(quote.public_url, { form_token: token, answer: 'reject', reason: 'Te duur' }, { cookie });
    expect(fixed.status).toBe(303);
  });

  it('does not let the customer accept a quote after declining it: no form, and the old form is refused', async () => {
    const quote = await sentQuote();
    const { token, cookie } = await openForm(quote.public_url);
    expect((await post(quote.public_url, { form_token: token, answer: 'reject' }, { cookie })).status).toBe(303);
    const page = await visit(quote.public_url, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('name="form_token"');
    const accepted = await post(quote.public_url, { form_token: token, answer: 'accept' }, { cookie });
    expect(accepted.status).toBe(409);
    const after = (await api.call('getQuote', { key, params: { quote: quote.id } })).body.data;
    expect(after.status).toBe('rejected');
    expect(after.accepted_at).toBeNull();
    const events = await api.sql`select count(*)::int as n from events
      where company_id = ${companyId} and type = 'quote.accepted' and data->'object'->>'id' = ${quote.id}`;
    expect(events[0]?.n).toBe(0);
  });

  it('refuses a form without its cookie, with another token, or from another site', async () => {
    const quote = await sentQuote();
    const { token, cookie } = await openForm(quote.public_url);
    expect((await post(quote.public_url, { form_token: token, answer: 'accept' })).status).toBe(403);
    const other = await sentQuote();
    const otherForm = await openForm(other.public_url);
    const swapped = await post(quote.public_url, { form_token: otherForm.token, answer: 'accept' }, { cookie });
    expect(swapped.status).toBe(403);
    const crossSite = await post(
      quote.public_url,
      { form_token: token, answer: 'accept' },
      { cookie, origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    const notForm = await visit(quote.public_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://api.test', cookie },
      body: '{}',
    });
    expect(notForm.status).toBe(415);
    expect((await api.call('getQuote', { key, params: { quote: quote.id } })).body.data.status).toBe('viewed');
  });

  it('does not let the customer accept an expired quote (the business still can)', async () => {
    const quote = await sentQuote({ quote_date: '2020-01-01', valid_until: '2020-01-31' });
    const { html, token, cookie } = await openForm(quote.public_url);
    expect(html).not.toContain('name="form_token"');
    expect(html).toContain('verlopen');
    const refused = await post(quote.public_url, { form_token: token, answer: 'accept' }, { cookie });
    expect([403, 410]).toContain(refused.status);
    expect((await api.call('getQuote', { key, params: { quote: quote.id } })).body.data.status).toBe('viewed');
  });

  it('answers a forged, altered or other-kind link and an unsent quote with the 404 page', async () => {
    const quote = await sentQuote();
    const url = new URL(quote.public_url);
    const [payload, signature] = url.pathname.split('/')[2].split('.');
    const other = (c: string | undefined) => (c === 'A' ? 'B' : 'A');
    const flipped = `${payload.slice(0, -2)}${other(payload.at(-2))}${payload.at(-1)}`;
    for (const path of [
      `/quote/${flipped}.${signature}`,
      `/quote/${payload}.${signature.slice(0, -2)}${other(signature.at(-2))}${signature.at(-1)}`,
      `/quote/${payload}`,
      `/invoice/${payload}.${signature}`,
      '/quote/nonsense',
    ]) {
      const res = await visit(`http://api.test${path}`, { headers: { 'accept-language': 'fr' } });
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain('Lien introuvable');
    }
    const draft = await api.call('createQuote', {
      key,
      body: {
        customer_id: await customer('Anna'),
        title: 'Concept',
        items: [{ name: 'X', quantity: 1, unit_price: 1 }],
      },
    });
    expect((await visit(draft.body.data.public_url)).status).toBe(404);
  });
});

describe('the online invoice', () => {
  async function sentInvoice() {
    const created = await api.call('createInvoice', {
      key,
      body: {
        customer_id: await customer('Emma Clarke'),
        title: 'Onderhoud',
        language: 'en',
        items: [{ name: 'Onderhoud cv-ketel', quantity: 1, unit_price: 100, tax_rate: 21 }],
      },
    });
    const sent = await api.call('sendInvoice', { key, params: { invoice: created.body.data.id } });
    expect(sent.status).toBe(200);
    return sent.body.data;
  }

  it('shows what is due and how to pay it, and marks it viewed with invoice.viewed', async () => {
    const invoice = await sentInvoice();
    const res = await visit(invoice.public_url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('€121.00');
    expect(html).toContain('NL91ABNA0417164300');
    expect(html).toContain('ABNANL2A');
    expect(html).toContain(invoice.number);
    expect(html).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const after = (await api.call('getInvoice', { key, params: { invoice: invoice.id } })).body.data;
    expect(after.status).toBe('viewed');
    const events = await api.sql`select count(*)::int as n from events
      where company_id = ${companyId} and type = 'invoice.viewed' and data->'object'->>'id' = ${invoice.id}`;
    expect(events[0]?.n).toBe(1);
  });

  it('says so when the invoice was cancelled', async () => {
    const invoice = await sentInvoice();
    expect((await api.call('cancelInvoice', { key, params: { invoice: invoice.id } })).status).toBe(200);
    const res = await visit(invoice.public_url);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('cancelled');
    // French puts a no-break space before the colon, as everywhere else.
    const french = await (await visit(`${invoice.public_url}?lang=fr`)).text();
    expect(french).toContain(`${invoice.number}\u00A0: Cette facture a été annulée`);
    expect(french).not.toContain(`${invoice.number}: `);
  });

  it('writes the VAT rate as each language writes a percentage: 21% in Dutch and English, 21 % in German and French', async () => {
    const invoice = await sentInvoice();
    const rates = async (lang: string) => {
      const html = await (await visit(`${invoice.public_url}?lang=${lang}`)).text();
      return [...html.matchAll(/21(\s?)%/g)].map((m) => m[1]);
    };
    for (const [lang, space] of [
      ['nl', ''],
      ['en', ''],
      ['de', '\u00A0'],
      ['fr', '\u00A0'],
    ]) {
      const found = await rates(lang);
      expect(found.length, lang).toBeGreaterThan(0);
      expect(new Set(found), lang).toEqual(new Set([space]));
    }
  });
});

describe('the per-address window', () => {
  it(`answers ${DOCUMENT_PAGE_WINDOWS[0]?.limit} visits a minute from one address, then a 429 page`, async () => {
    const quote = await sentQuote();
    const limit = DOCUMENT_PAGE_WINDOWS[0]?.limit ?? 0;
    for (let i = 0; i < limit; i++) {
      const res = await visit(`${quote.public_url}/nothing-here`, { from: '203.0.113.9' });
      expect(res.headers.get('ratelimit')).toMatch(/^"document_pages";r=\d+;t=\d+$/);
      await res.arrayBuffer();
    }
    const refused = await visit(quote.public_url, { from: '203.0.113.9', headers: { 'accept-language': 'de' } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.text()).toContain('Zu viele Anfragen');
    expect((await visit(quote.public_url, { from: '203.0.113.10' })).status).toBe(200);
  });
});
