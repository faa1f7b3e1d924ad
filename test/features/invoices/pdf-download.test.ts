// GET /invoices/{invoice}/pdf and GET /quotes/{quote}/pdf: the PDF through the API (contract-checked, then its
// bytes read back with pdftotext) holds the number, the total and the customer's name, in the document's
// language; the read scope is required, and another company's document is not found.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const OUT = join(process.cwd(), 'test-results', 'pdf');

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});

async function customer(name: string) {
  const res = await api.call('createCustomer', { key, body: { name, email: `klant-${randomUUID()}@example.nl` } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function newInvoice(body: Record<string, unknown> = {}) {
  const res = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id: await customer('Pieter de Boer'),
      title: 'Vervanging cv-ketel',
      items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The raw answer (its bytes) of a GET under /api/v1 with the key. */
const download = (path: string, withKey = key) =>
  api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${withKey}` } });

function textOf(name: string, pdf: Buffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync(PDFTOTEXT, ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\u00A0/g, ' ');
}

describe.skipIf(!existsSync(PDFTOTEXT))('GET /invoices/{invoice}/pdf', () => {
  it('answers the PDF: number, total and customer name, named after the number, in the invoice language', async () => {
    const invoice = await newInvoice({ language: 'de' });
    const checked = await api.call('getInvoicePdf', { key, params: { invoice: invoice.id } });
    expect(checked.status).toBe(200);

    const res = await download(`/invoices/${invoice.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(pdf.byteLength);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = textOf('download-invoice', pdf);
    expect(text).toContain(invoice.number);
    expect(text).toContain('Pieter de Boer');
    expect(text).toMatch(/24,20/);
    expect(text).toMatch(/Rechnung/);
  });

  it('shows what has been paid and what is still due', async () => {
    const invoice = await newInvoice();
    await api.call('sendInvoice', { key, params: { invoice: invoice.id } });
    const paid = await api.call('createInvoicePayment', {
      key,
      params: { invoice: invoice.id },
      body: { amount: 4.2 },
    });
    expect(paid.status).toBe(201);
    const text = textOf(
      'download-invoice-partial',
      Buffer.from(await (await download(`/invoices/${invoice.id}/pdf`)).arrayBuffer()),
    );
    expect(text).toMatch(/4,20/);
    expect(text).toMatch(/20,00/);
  });

  it('needs invoices.read: a key without it → 403 insufficient_scope', async () => {
    const invoice = await newInvoice();
    const { key: quotesOnly } = await api.key(companyId, { scopes: ['quotes.read'] });
    const res = await api.call('getInvoicePdf', { key: quotesOnly, params: { invoice: invoice.id } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'invoices.read' });
  });

  it("another company's invoice → 404, and an unknown one too", async () => {
    const invoice = await newInvoice();
    const other = await api.tenant();
    const res = await api.call('getInvoicePdf', { key: other.key, params: { invoice: invoice.id } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const unknown = await api.call('getInvoicePdf', {
      key,
      params: { invoice: '0195a3c2-4f1e-7a2b-9c3d-4e5f6a7b8c9d' },
    });
    expect(unknown.status).toBe(404);
    const malformed = await api.call('getInvoicePdf', { key, params: { invoice: 'not-a-uuid' } });
    expect(malformed.status).toBe(422);
  });
});

describe.skipIf(!existsSync(PDFTOTEXT))('GET /quotes/{quote}/pdf', () => {
  it('answers the PDF of a quote with its number, total and customer', async () => {
    const created = await api.call<'createQuote'>('createQuote', {
      key,
      body: {
        customer_id: await customer('Anna Visser'),
        title: 'Schilderwerk',
        items: [{ name: 'Schilderwerk', quantity: 24, unit_price: 52.5, tax_rate: 9 }],
      },
    });
    const quote = created.body.data;
    expect((await api.call('getQuotePdf', { key, params: { quote: quote.id } })).status).toBe(200);
    const res = await download(`/quotes/${quote.id}/pdf`);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${quote.number}.pdf"`);
    expect(res.headers.get('content-language')).toBe('nl');
    const text = textOf('download-quote', Buffer.from(await res.arrayBuffer()));
    expect(text).toContain(quote.number);
    expect(text).toContain('Anna Visser');
    expect(text).toMatch(/1\.373,40/);
    expect(text).toMatch(/Offerte/);
  });

  it('prints the opening text and the description above the lines, on the quote and on the invoice', async () => {
    const created = await api.call<'createQuote'>('createQuote', {
      key,
      body: {
        customer_id: await customer('Anna Visser'),
        title: 'Schilderwerk',
        intro_text: 'Geachte mevrouw Visser, hierbij ontvangt u onze offerte.',
        description: 'Schilderen van alle buitenkozijnen aan de voorzijde.',
        items: [{ name: 'Schilderwerk', quantity: 1, unit_price: 10, tax_rate: 21 }],
      },
    });
    expect(created.status).toBe(201);
    const quote = await download(`/quotes/${created.body.data.id}/pdf`);
    const text = textOf('quote-intro-description', Buffer.from(await quote.arrayBuffer()));
    const intro = text.indexOf('Geachte mevrouw Visser, hierbij ontvangt u onze offerte.');
    const description = text.indexOf('Schilderen van alle buitenkozijnen aan de voorzijde.');
    expect(intro).toBeGreaterThan(0);
    expect(description).toBeGreaterThan(intro);
    expect(text.indexOf('Omschrijving')).toBeGreaterThan(description); // the lines' table comes after both

    const invoice = await newInvoice({ description: 'Vervanging van de cv-ketel in de kelder.' });
    const res = await download(`/invoices/${invoice.id}/pdf`);
    expect(textOf('invoice-description', Buffer.from(await res.arrayBuffer()))).toContain(
      'Vervanging van de cv-ketel in de kelder.',
    );
  });

  it('needs quotes.read, and hides another company’s quote', async () => {
    const created = await api.call<'createQuote'>('createQuote', {
      key,
      body: {
        customer_id: await customer('Anna Visser'),
        title: 'Schilderwerk',
        items: [{ name: 'Schilderwerk', quantity: 1, unit_price: 10, tax_rate: 21 }],
      },
    });
    const { key: invoicesOnly } = await api.key(companyId, { scopes: ['invoices.read'] });
    const refused = await api.call('getQuotePdf', { key: invoicesOnly, params: { quote: created.body.data.id } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'quotes.read' });
    const other = await api.tenant();
    const hidden = await api.call('getQuotePdf', { key: other.key, params: { quote: created.body.data.id } });
    expect(hidden.status).toBe(404);
  });
});
