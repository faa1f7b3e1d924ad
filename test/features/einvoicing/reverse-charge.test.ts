// A Dutch company invoicing a Belgian business with a VAT number at 0 %: the EU reverse charge. The PDF says "Btw
// verlegd" with both VAT numbers (VAT Directive art. 226 (4) and (11a)), in the invoice's language; the UBL and the
// CII carry category AE with VATEX-EU-AE and pass the official rules.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import { SELLER_DETAILS } from './fixtures.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const OUT = join(process.cwd(), 'test-results', 'pdf');
const unavailable = rulesUnavailable();

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  let companyId: string;
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
});

const download = (path: string) =>
  api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

function pdfText(name: string, pdf: ArrayBuffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, Buffer.from(pdf));
  return execFileSync(PDFTOTEXT, [file, '-'], { encoding: 'utf8' }).replace(/\u00A0/g, ' ');
}

async function invoiceFor(language: 'nl' | 'en' | 'de' | 'fr', customer: Record<string, unknown>) {
  const created = await api.call('createCustomer', {
    key,
    body: { email: `k-${randomUUID()}@example.be`, type: 'business', ...customer },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id: created.body.data.id,
      language,
      title: 'Onderhoud',
      items: [{ name: 'Onderhoud installatie', quantity: 2, unit_price: 150, tax_rate: 0 }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const BELGIAN_BUSINESS = {
  name: 'Luc Peeters',
  company_name: 'Peeters Bouw BV',
  address: 'Meir 1',
  postal_code: '2000',
  city: 'Antwerpen',
  country: 'BE',
  vat_number: 'BE0477472701',
  coc_number: '0477472701',
};

const MENTION = {
  nl: ['Btw verlegd over', 'Btw verlegd: de afnemer draagt de btw af'],
  en: ['VAT reverse-charged on', 'VAT reverse-charged: the customer accounts for the VAT'],
  de: ['Reverse-Charge auf', 'Steuerschuldnerschaft des Leistungsempfängers: Die Umsatzsteuer schuldet'],
  fr: ['Autoliquidation de la TVA sur', 'Autoliquidation : la TVA est due par le preneur'],
} as const;

describe.skipIf(!existsSync(PDFTOTEXT))('the EU reverse charge on the PDF and in the XML', () => {
  const produced = new Map<string, string>();

  for (const language of ['nl', 'en', 'de', 'fr'] as const) {
    it(`${language}: the PDF says the VAT is reverse-charged and names both VAT numbers`, async () => {
      const invoice = await invoiceFor(language, BELGIAN_BUSINESS);
      const res = await download(`/invoices/${invoice.id}/pdf`);
      expect(res.status).toBe(200);
      const text = pdfText(`reverse-charge-${language}`, await res.arrayBuffer());
      for (const mention of MENTION[language]) expect(text).toContain(mention);
      expect(text).toContain('BE0477472701');
      expect(text).toContain(SELLER_DETAILS.vatNumber);
      if (language !== 'nl') return;
      const ubl = await download(`/invoices/${invoice.id}/ubl`);
      expect(ubl.status).toBe(200);
      const xml = await ubl.text();
      expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>');
      produced.set('reverse-charge-ubl.xml', xml);
    });
  }

  it('a Dutch business customer at 0 % is not reverse-charged: no mention', async () => {
    const invoice = await invoiceFor('nl', {
      ...BELGIAN_BUSINESS,
      country: 'NL',
      vat_number: 'NL853746217B01',
      coc_number: '28123456',
    });
    const text = pdfText('no-reverse-charge', await (await download(`/invoices/${invoice.id}/pdf`)).arrayBuffer());
    expect(text).not.toContain('verlegd');
    expect(text).toContain('Btw 0% over');
  });

  it.skipIf(unavailable !== null)(
    'the reverse-charged UBL passes the official EN 16931 and Peppol rules',
    async () => {
      expect(produced.size).toBe(1);
      const reports = await validate(produced, UBL_RULES);
      for (const name of produced.keys()) expect(fatalLines(reports.get(name) ?? []), name).toEqual([]);
    },
    600_000,
  );
});
