// The e-invoices' 409 texts read as written (issue 47, point 13). The 409 of an e-invoice that lacks a Peppol id names the registration number as the PDFs print it (issue 47,
// point 13): CoC in English, Handelsregister-Nr. in German, N° d’entreprise in French; "KvK" is the Dutch name
// only.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDF_LABELS } from '../../../src/pdf/labels.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant({ language: 'nl' }));
});

async function draftInvoice() {
  const customer = await api.call('createCustomer', {
    key,
    body: { name: 'Pieter de Boer', email: `k-${randomUUID()}@example.nl` },
  });
  const invoice = await api.call('createInvoice', {
    key,
    body: {
      customer_id: customer.body.data.id,
      title: 'Onderhoud',
      items: [{ name: 'Arbeid', quantity: 1, unit_price: 100, tax_rate: 21 }],
    },
  });
  return invoice.body.data.id as string;
}

const ubl = (invoice: string, language: string, query = '') =>
  api.app.request(`http://api.test/api/v1/invoices/${invoice}/ubl${query}`, {
    headers: { authorization: `Bearer ${key}`, 'accept-language': language },
  });

describe('the e-invoice 409 texts', () => {
  it('say which invoices have a credit note in a finished English sentence', async () => {
    const res = await ubl(await draftInvoice(), 'en', '?document=credit_note');
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      'An invoice that is draft has no credit note; only a sent invoice that was then cancelled, or a refunded invoice, has one.',
    );
  });

  it('name the registration number with the PDF’s word for it in each language', async () => {
    const invoice = await draftInvoice();
    const words = { nl: 'KvK', en: 'CoC', de: PDF_LABELS.de.cocNumber, fr: PDF_LABELS.fr.cocNumber };
    for (const [language, word] of Object.entries(words)) {
      const res = await ubl(invoice, language);
      expect(res.status).toBe(409);
      const body = (await res.json()) as { missing: { field: string; detail: string }[] };
      const detail = body.missing.find((m) => m.field === 'company.peppol_id')?.detail ?? '';
      expect(detail.replace(/’/g, "'"), language).toContain(word);
      if (language !== 'nl') expect(detail, language).not.toContain('KvK');
    }
  });
});
