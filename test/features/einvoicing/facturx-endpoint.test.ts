// GET /invoices/{invoice}/pdf?format=facturx on the running service: 409 naming each missing field while the
// company lacks what the rules need (the plain PDF still answers); then a PDF/A-3b whose embedded `factur-x.xml`
// (pdfdetach) passes the EN 16931 CII rules with no fatal assertion, whose text (pdftotext) shows the API's total,
// with every font embedded (pdffonts) and the Factur-X XMP (pdfinfo -meta); a sent invoice, once cancelled, has its credit
// note (381) as a Factur-X file of its own (document=credit_note). The extracted XML files are validated together at the end, one Saxon run.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/domain/locale-format.ts';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { CII_RULES, fatalLines, rulesUnavailable, validate } from '../../harness/einvoicing-rules.ts';
import { DUTCH_BUSINESS, SELLER_DETAILS } from './fixtures.ts';

const POPPLER = '/usr/bin/pdfdetach';
const unavailable = rulesUnavailable();
if (unavailable) console.warn(unavailable);

let api: TestApi;
let key: string;
let companyId: string;
const dir = mkdtempSync(join(tmpdir(), 'facturx-'));
const produced = new Map<string, string>();

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const download = (path: string) =>
  api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

/** Poppler's tool `tool` on the PDF `name` (written to the test's folder), its standard output. */
function poppler(tool: string, name: string, ...args: string[]): string {
  return execFileSync(`/usr/bin/${tool}`, [...args, join(dir, name)], { encoding: 'utf8', cwd: dir });
}

/** The factur-x.xml that pdfdetach extracts from the PDF `name`. */
function facturXml(name: string): string {
  expect(poppler('pdfdetach', name, '-list')).toMatch(/1 embedded files\n1: factur-x\.xml/);
  const out = join(dir, `${name}.xml`);
  execFileSync(POPPLER, ['-savefile', 'factur-x.xml', '-o', out, join(dir, name)]);
  return readFileSync(out, 'utf8');
}

async function invoiceFor(customer: Record<string, unknown>) {
  const created = await api.call('createCustomer', {
    key,
    body: { email: `k-${randomUUID()}@example.nl`, ...customer },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const res = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id: created.body.data.id,
      title: 'Onderhoud cv-ketel & meer',
      items: [
        { name: 'Ketel & toebehoren', quantity: 1, unit_price: 1250, tax_rate: 21, discount_percentage: 10 },
        { name: 'Arbeid', quantity: 3.5, unit: 'uur', unit_price_incl: 72.6, tax_rate: 21 },
        {
          name: 'Keuringsrapport',
          quantity: 1,
          unit_price: 95,
          is_taxable: false,
          vat_exemption_reason: 'VATEX-EU-132',
        },
        { name: 'Boekje', quantity: 2, unit_price: 12.95, tax_rate: 9 },
      ],
      discount_amount: 25,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe.skipIf(!existsSync(POPPLER))('GET /invoices/{invoice}/pdf?format=facturx', () => {
  it('409 while the company lacks what the rules need; the plain PDF still answers', async () => {
    const inv = await invoiceFor(DUTCH_BUSINESS);
    const res = await api.call('getInvoicePdf', { key, params: { invoice: inv.id }, query: { format: 'facturx' } });
    expect(res.status).toBe(409);
    const missing = res.body.missing.map((m: { field: string; rule: string }) => `${m.field} ${m.rule}`);
    expect(missing).toEqual(expect.arrayContaining(['company.vat_number BR-S-02', 'company.iban BR-61']));
    expect((await download(`/invoices/${inv.id}/pdf`)).status).toBe(200);
  });

  it('answers a PDF/A-3b with factur-x.xml (CII, EN 16931), the API total printed, fonts embedded', async () => {
    await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
    const inv = await invoiceFor(DUTCH_BUSINESS);
    const checked = await api.call('getInvoicePdf', { key, params: { invoice: inv.id }, query: { format: 'facturx' } });
    expect(checked.status).toBe(200);
    const res = await download(`/invoices/${inv.id}/pdf?format=facturx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${inv.number}.pdf"`);
    writeFileSync(join(dir, 'invoice.pdf'), Buffer.from(await res.arrayBuffer()));

    const text = execFileSync('/usr/bin/pdftotext', ['-layout', join(dir, 'invoice.pdf'), '-'], {
      encoding: 'utf8',
    }).replace(/\u00A0/g, ' ');
    expect(text).toContain(formatMoney(inv.total, 'EUR', 'nl').replace(/\u00A0/g, ' '));
    expect(text).toContain(inv.number);
    // Every font embedded (PDF/A), the PDF/A-3b identification and the Factur-X XMP.
    const fonts = poppler('pdffonts', 'invoice.pdf').trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) expect(font).toMatch(/ yes +yes +yes /);
    const xmp = poppler('pdfinfo', 'invoice.pdf', '-meta');
    expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>\s*<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(readFileSync(join(dir, 'invoice.pdf')).toString('latin1')).toContain('/AFRelationship /Alternative');

    const xml = facturXml('invoice.pdf');
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>');
    expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>');
    expect(xml).toContain(`<ram:GrandTotalAmount>${inv.total}</ram:GrandTotalAmount>`);
    expect(xml).toContain(`<ram:TaxTotalAmount currencyID="EUR">${inv.tax_amount}</ram:TaxTotalAmount>`);
    // The exempt line: category E with its VATEX reason, apart from the taxed rates.
    expect(xml).toMatch(/<ram:CategoryCode>E<\/ram:CategoryCode>\s*<ram:ExemptionReasonCode>VATEX-EU-132</);
    produced.set('invoice.xml', xml);

    // Sent, then cancelled: the invoice's own Factur-X is refused, the credit note's is its own page with its XML.
    expect((await api.call('sendInvoice', { key, params: { invoice: inv.id } })).status).toBe(200);
    expect((await api.call('cancelInvoice', { key, params: { invoice: inv.id } })).status).toBe(200);
    expect((await download(`/invoices/${inv.id}/pdf?format=facturx`)).status).toBe(409);
    const credit = await download(`/invoices/${inv.id}/pdf?format=facturx&document=credit_note`);
    expect(credit.status).toBe(200);
    writeFileSync(join(dir, 'credit.pdf'), Buffer.from(await credit.arrayBuffer()));
    const creditXml = facturXml('credit.pdf');
    expect(creditXml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(creditXml).toContain(`<ram:ID>${inv.number}-C</ram:ID>`);
    expect(creditXml).toMatch(new RegExp(`<ram:InvoiceReferencedDocument>\\s*<ram:IssuerAssignedID>${inv.number}<`));
    produced.set('credit-note.xml', creditXml);
  });

  describe.skipIf(unavailable !== null)('the embedded XML above, by the official rules', () => {
    it('passes the EN 16931 CII rules with no fatal assertion', async () => {
      expect(produced.size).toBe(2);
      const reports = await validate(produced, CII_RULES);
      for (const name of produced.keys()) expect(fatalLines(reports.get(name) ?? []), name).toEqual([]);
    }, 600_000);
  });
});
