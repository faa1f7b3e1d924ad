// GET /invoices/{invoice}/ubl on the running service: 409 naming each missing field and its rule while the
// company and customer lack what the rules need; then, with the details filled in (the service behind the CLI's
// `company details`), an Invoice and a CreditNote whose totals are the API's and which pass the EN 16931 and
// Peppol BIS 3.0 rules with no fatal assertion (validated together at the end, one Saxon run per rule set).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import { BELGIAN_BUSINESS, DUTCH_BUSINESS, SELLER_DETAILS } from './fixtures.ts';

const unavailable = rulesUnavailable();
if (unavailable) console.warn(unavailable);

let api: TestApi;
let key: string;
let companyId: string;
const produced = new Map<string, string>();

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});

const download = (path: string, language = 'en') =>
  api.app.request(`http://api.test/api/v1${path}`, {
    headers: { authorization: `Bearer ${key}`, 'accept-language': language },
  });

async function customer(body: Record<string, unknown>) {
  const res = await api.call('createCustomer', { key, body: { email: `k-${randomUUID()}@example.nl`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function invoice(customerId: string) {
  const res = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id: customerId,
      title: 'Onderhoud cv-ketel',
      items: [
        { name: 'Ketel & toebehoren', quantity: 1, unit_price: 1250, tax_rate: 21, discount_percentage: 10 },
        { name: 'Arbeid', quantity: 3.5, unit: 'uur', unit_price_incl: 72.6, tax_rate: 21 },
        { name: 'Boekje', quantity: 2, unit_price: 12.95, tax_rate: 9 },
        { type: 'text', name: 'Garantie 2 jaar' },
      ],
      discount_amount: 25,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const tag = (xml: string, name: string) => new RegExp(`<cbc:${name}[^>]*>([^<]*)</cbc:${name}>`).exec(xml)?.[1];

describe('GET /invoices/{invoice}/ubl', () => {
  it('409 while the company and the customer lack what the rules need: each field with its rule, translated', async () => {
    const person = await customer({ name: 'Pieter de Boer' });
    const draft = await invoice(person.id);
    const res = await download(`/invoices/${draft.id}/ubl`, 'nl');
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.code).toBe('conflict');
    expect(body.detail).toMatch(/e-factuur/);
    const missing = body.missing.map((m: { field: string; rule: string }) => `${m.field} ${m.rule}`);
    expect(missing).toEqual(
      expect.arrayContaining([
        'company.vat_number BR-S-02',
        'company.iban BR-61',
        'company.peppol_id PEPPOL-EN16931-R020',
        'customer.country BR-11',
        'customer.peppol_id PEPPOL-EN16931-R010',
      ]),
    );
    expect(body.missing[0].detail).toMatch(/nodig/);
    // The contract's 409 (checked by the harness against the OpenAPI document).
    const checked = await api.call('getInvoiceUbl', { key, params: { invoice: draft.id } });
    expect(checked.status).toBe(409);
  });

  it('answers the Invoice with the API totals once the details are there; the customer Peppol id is its address', async () => {
    await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
    const company = await api.call('getCompany', { key });
    expect(company.body.data).toMatchObject({ bic: 'ABNANL2A', peppol_id: null });
    const business = await customer({
      ...DUTCH_BUSINESS,
      peppol_id: '0106:28123456',
    });
    expect(business.peppol_id).toBe('0106:28123456');
    const inv = await invoice(business.id);
    const checked = await api.call('getInvoiceUbl', { key, params: { invoice: inv.id } });
    expect(checked.status).toBe(200);
    const res = await download(`/invoices/${inv.id}/ubl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${inv.number}.xml"`);
    const xml = await res.text();
    expect(xml).toContain('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"');
    expect(tag(xml, 'PayableAmount')).toBe(inv.total);
    expect(tag(xml, 'TaxInclusiveAmount')).toBe(inv.total);
    expect(tag(xml, 'LineExtensionAmount')).toBeDefined();
    expect(xml).toContain(`<cbc:TaxAmount currencyID="EUR">${inv.tax_amount}</cbc:TaxAmount>`);
    expect(xml).toContain('<cbc:EndpointID schemeID="0106">28123456</cbc:EndpointID>');
    expect(xml).toContain('<cbc:EndpointID schemeID="0106">24123456</cbc:EndpointID>');
    expect(xml).toContain('Ketel &amp; toebehoren');
    expect(xml).not.toContain('Garantie');
    produced.set('invoice.xml', xml);

    const embedded = await (await download(`/invoices/${inv.id}/ubl?embed_pdf=true`)).text();
    expect(embedded).toMatch(
      /<cbc:EmbeddedDocumentBinaryObject mimeCode="application\/pdf" filename="[^"]+\.pdf">JVBER/,
    );
    produced.set('invoice-with-pdf.xml', embedded);

    // A draft has no credit note; a sent invoice that was cancelled has one, referring to it.
    const none = await download(`/invoices/${inv.id}/ubl?document=credit_note`);
    expect(none.status).toBe(409);
    expect((await api.call('sendInvoice', { key, params: { invoice: inv.id } })).status).toBe(200);
    expect((await api.call('cancelInvoice', { key, params: { invoice: inv.id } })).status).toBe(200);
    const credit = await download(`/invoices/${inv.id}/ubl?document=credit_note`);
    expect(credit.status).toBe(200);
    const creditXml = await credit.text();
    expect(creditXml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(creditXml).toContain(`<cbc:ID>${inv.number}-C</cbc:ID>`);
    expect(creditXml).toMatch(new RegExp(`<cac:InvoiceDocumentReference>\\s*<cbc:ID>${inv.number}</cbc:ID>`));
    expect(tag(creditXml, 'PayableAmount')).toBe(inv.total);
    produced.set('credit-note.xml', creditXml);
  });

  it('reverse charge for a Belgian business customer on 0 % lines (AE), the Peppol id derived from its enterprise number', async () => {
    // The enterprise number as people write it, with dots.
    const belgian = await customer({ ...BELGIAN_BUSINESS, coc_number: '0403.019.261' });
    const res = await api.call<'createInvoice'>('createInvoice', {
      key,
      body: {
        customer_id: belgian.id,
        title: 'Installatie',
        items: [{ name: 'Warmtepomp', quantity: 1, unit_price: 4800, tax_rate: 0 }],
      },
    });
    expect(res.status).toBe(201);
    const xml = await (await download(`/invoices/${res.body.data.id}/ubl`)).text();
    expect(xml).toMatch(
      /<cbc:ID>AE<\/cbc:ID>\s*<cbc:Percent>0.00<\/cbc:Percent>\s*<cbc:TaxExemptionReasonCode>VATEX-EU-AE/,
    );
    expect(xml).toContain('<cbc:EndpointID schemeID="0208">0403019261</cbc:EndpointID>');
    produced.set('reverse-charge.xml', xml);
  });

  it.each([
    // With their Peppol addresses (the Swiss UID, the Norwegian organisation number): no scheme derives one.
    [
      'Swiss',
      {
        country: 'CH',
        vat_number: 'CHE123456788MWST',
        peppol_id: '0183:CHE123456788',
        city: 'Zürich',
        postal_code: '8001',
      },
    ],
    [
      'Norwegian',
      { country: 'NO', vat_number: 'NO123456785MVA', peppol_id: '0192:123456785', city: 'Oslo', postal_code: '0154' },
    ],
  ])('no reverse charge for a %s business with a VAT number (outside the EU): its 0 % lines are Z', async (_, place) => {
    const buyer = await customer({
      type: 'business',
      name: 'Export Klant',
      company_name: 'Export Klant',
      address: 'Hauptstrasse 1',
      ...place,
    });
    const res = await api.call<'createInvoice'>('createInvoice', {
      key,
      body: {
        customer_id: buyer.id,
        title: 'Export',
        items: [{ name: 'Warmtepomp', quantity: 1, unit_price: 4800, tax_rate: 0 }],
      },
    });
    expect(res.status).toBe(201);
    const xml = await (await download(`/invoices/${res.body.data.id}/ubl`)).text();
    expect(xml).toMatch(/<cac:TaxCategory>\s*<cbc:ID>Z<\/cbc:ID>\s*<cbc:Percent>0.00<\/cbc:Percent>/);
    expect(xml).not.toContain('<cbc:ID>AE</cbc:ID>');
    expect(xml).not.toContain('VATEX-EU-AE');
  });

  describe.skipIf(unavailable !== null)('the documents above, by the official rules', () => {
    it('pass EN 16931 and Peppol BIS 3.0 with no fatal assertion', async () => {
      expect(produced.size).toBe(4);
      const reports = await validate(produced, UBL_RULES);
      for (const name of produced.keys()) expect(fatalLines(reports.get(name) ?? []), name).toEqual([]);
    }, 600_000);
  });
});
