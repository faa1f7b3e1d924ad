// Exempt lines name their legal ground (issue 47, point 5; VAT Directive art. 226 (11)): a VATEX code on the line
// or the company's default, checked against the CEF VATEX list, printed with its text on the PDF in four languages
// and carried in the UBL (cbc:TaxExemptionReasonCode / cbc:TaxExemptionReason) and the CII
// (ram:ExemptionReasonCode / ram:ExemptionReason), which pass the official rules. Without one: 409, never a
// guessed article.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/commands.ts';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { CII_RULES, fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import { DUTCH_BUSINESS, SELLER_DETAILS } from './fixtures.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const PDFDETACH = '/usr/bin/pdfdetach';
const OUT = join(process.cwd(), 'test-results', 'pdf');
const unavailable = rulesUnavailable();

let api: TestApi;
let key: string;
let companyId: string;
let customerId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
  const customer = await api.call<'createCustomer'>('createCustomer', {
    key,
    body: { email: `k-${randomUUID()}@example.nl`, ...DUTCH_BUSINESS },
  });
  expect(customer.status).toBe(201);
  customerId = customer.body.data.id;
});

const download = (path: string) =>
  api.app.request(`http://api.test/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

function saved(name: string, bytes: ArrayBuffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, Buffer.from(bytes));
  return file;
}
const pdfText = (file: string) =>
  execFileSync(PDFTOTEXT, [file, '-'], { encoding: 'utf8' })
    .replace(/\u00A0/g, ' ')
    .replace(/\s+/g, ' ');

async function invoiceWith(language: 'nl' | 'en' | 'de' | 'fr', reason: string | null | undefined) {
  const exempt: Record<string, unknown> = { name: 'Keuring', quantity: 1, unit_price: 95, is_taxable: false };
  if (reason !== undefined) exempt.vat_exemption_reason = reason;
  const res = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id: customerId,
      language,
      title: 'Onderhoud',
      items: [{ name: 'Onderhoud', quantity: 2, unit_price: 150, tax_rate: 21 }, exempt],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const TEXT = {
  nl: 'Vrijgesteld van btw op grond van artikel 132, lid 1, onder b, van Richtlijn 2006/112/EG',
  en: 'Exempt from VAT under Article 132(1)(b) of Directive 2006/112/EC',
  de: 'Steuerbefreit nach Artikel 132 Absatz 1 Buchstabe b der Richtlinie 2006/112/EG',
  fr: 'Exonération de TVA en application de l’article 132, paragraphe 1, point b) de la directive 2006/112/CE',
} as const;

describe('the exemption reason of a line', () => {
  const ubl = new Map<string, string>();
  const cii = new Map<string, string>();

  for (const language of ['nl', 'en', 'de', 'fr'] as const) {
    it(`${language}: the line keeps its VATEX code, the PDF prints its text and code, the UBL carries both`, async () => {
      const invoice = await invoiceWith(language, 'VATEX-EU-132-1B');
      expect(invoice.items.map((item) => item.vat_exemption_reason)).toEqual([null, 'VATEX-EU-132-1B']);
      const pdf = await download(`/invoices/${invoice.id}/pdf`);
      expect(pdf.status).toBe(200);
      expect(pdfText(saved(`exemption-${language}`, await pdf.arrayBuffer()))).toContain(
        `${TEXT[language]} (VATEX-EU-132-1B).`,
      );
      const res = await download(`/invoices/${invoice.id}/ubl`);
      const xml = await res.text();
      expect(res.status, xml).toBe(200);
      expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-132-1B</cbc:TaxExemptionReasonCode>');
      expect(xml).toContain(`<cbc:TaxExemptionReason>${TEXT[language]}</cbc:TaxExemptionReason>`);
      expect(xml).not.toContain('VATEX-EU-132<');
      ubl.set(`exemption-${language}.xml`, xml);
    });
  }

  it.skipIf(!existsSync(PDFDETACH))('the Factur-X CII carries the code and its text', async () => {
    const invoice = await invoiceWith('de', 'VATEX-EU-132-1B');
    const res = await download(`/invoices/${invoice.id}/pdf?format=facturx`);
    expect(res.status).toBe(200);
    const file = saved('exemption-facturx', await res.arrayBuffer());
    const xmlFile = join(OUT, 'exemption-facturx.xml');
    execFileSync(PDFDETACH, ['-save', '1', '-o', xmlFile, file]);
    const xml = execFileSync('cat', [xmlFile], { encoding: 'utf8' });
    expect(xml).toContain(`<ram:ExemptionReason>${TEXT.de}</ram:ExemptionReason>`);
    expect(xml).toMatch(/<ram:CategoryCode>E<\/ram:CategoryCode>\s*<ram:ExemptionReasonCode>VATEX-EU-132-1B</);
    cii.set('exemption-facturx.xml', xml);
  });

  it('an exempt line without a reason and no company default: 409 naming company.vat_exemption_reason (BR-E-10)', async () => {
    const invoice = await invoiceWith('nl', undefined);
    const res = await download(`/invoices/${invoice.id}/ubl`);
    expect(res.status).toBe(409);
    const body = (await res.json()) as { missing: { field: string; rule: string }[] };
    expect(body.missing).toEqual([expect.objectContaining({ field: 'company.vat_exemption_reason', rule: 'BR-E-10' })]);
  });

  it('the company default (company details --vat-exemption-reason) applies to lines that name none', async () => {
    const other = await api.tenant({ language: 'en' });
    await setCompanyDetails(api.db, other.companyId, SELLER_DETAILS);
    const command = parseCommand(['company', 'details', other.companyId, '--vat-exemption-reason', 'vatex-eu-143']);
    if (command.name !== 'company details') throw new Error(command.name);
    const set = await runCommand(api.deps, command, async () => {});
    expect(set?.exitCode ?? 0).toBe(0);
    const customer = await api.call<'createCustomer'>('createCustomer', {
      key: other.key,
      body: { email: `k-${randomUUID()}@example.nl`, ...DUTCH_BUSINESS },
    });
    const invoice = await api.call<'createInvoice'>('createInvoice', {
      key: other.key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Import',
        items: [{ name: 'Invoer', quantity: 1, unit_price: 80, is_taxable: false }],
      },
    });
    expect(invoice.body.data.items[0].vat_exemption_reason).toBeNull();
    const company = await api.call<'getCompany'>('getCompany', { key: other.key });
    expect(company.body.data.vat_exemption_reason).toBe('VATEX-EU-143');
    const res = await api.app.request(`http://api.test/api/v1/invoices/${invoice.body.data.id}/ubl`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    const xml = await res.text();
    expect(res.status, xml).toBe(200);
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-143</cbc:TaxExemptionReasonCode>');
    ubl.set('exemption-company-default.xml', xml);
  });

  it('the CLI refuses a code outside the list or of another VAT category', () => {
    for (const code of ['VATEX-EU-999', 'VATEX-EU-AE', 'VATEX-EU-O'])
      expect(() => parseCommand(['company', 'details', companyId, '--vat-exemption-reason', code])).toThrow(
        /--vat-exemption-reason must be a VATEX code of an exemption/,
      );
  });

  it.skipIf(unavailable !== null)(
    'the UBL and the CII pass the official EN 16931 and Peppol rules',
    async () => {
      expect(ubl.size).toBe(5);
      const reports = await validate(ubl, UBL_RULES);
      for (const name of ubl.keys()) expect(fatalLines(reports.get(name) ?? []), name).toEqual([]);
      if (cii.size === 0) return;
      const ciiReports = await validate(cii, CII_RULES);
      for (const name of cii.keys()) expect(fatalLines(ciiReports.get(name) ?? []), name).toEqual([]);
    },
    600_000,
  );
});

describe('refused reasons (422)', () => {
  const create = (items: unknown[], operation: 'createInvoice' | 'createQuote' = 'createInvoice') =>
    api.call(operation, { key, body: { customer_id: customerId, title: 'X', items } });
  type Problem = { code: string; errors: { pointer: string; code: string }[] };

  it('a code outside the VATEX list, or of another category, answers invalid_enum', async () => {
    for (const code of ['VATEX-EU-999', 'VATEX-EU-O', 'VATEX-EU-AE', 'VATEX-EU-IC', 'VATEX-EU-G']) {
      const res = await create([{ name: 'A', unit_price: 10, is_taxable: false, vat_exemption_reason: code }]);
      expect(res.status, code).toBe(422);
      expect((res.body as Problem).errors).toEqual([
        expect.objectContaining({ pointer: '/items/0/vat_exemption_reason', code: 'invalid_enum' }),
      ]);
    }
  });

  it('a reason on a taxable line, or two different reasons on one document, answers invalid_combination', async () => {
    const taxable = await create([{ name: 'A', unit_price: 10, vat_exemption_reason: 'VATEX-EU-132' }]);
    expect((taxable.body as Problem).errors).toEqual([
      expect.objectContaining({ pointer: '/items/0/vat_exemption_reason', code: 'invalid_combination' }),
    ]);
    const two = await create(
      [
        { name: 'A', unit_price: 10, is_taxable: false, vat_exemption_reason: 'VATEX-EU-132' },
        { name: 'B', unit_price: 10, is_taxable: false, vat_exemption_reason: 'VATEX-EU-143' },
      ],
      'createQuote',
    );
    expect(two.status).toBe(422);
    expect((two.body as Problem).errors).toEqual([
      expect.objectContaining({ pointer: '/items/1/vat_exemption_reason', code: 'invalid_combination' }),
    ]);
  });

  it('a quote keeps its exempt line’s reason', async () => {
    const res = await api.call<'createQuote'>('createQuote', {
      key,
      body: {
        customer_id: customerId,
        title: 'Offerte',
        items: [{ name: 'Les', unit_price: 50, is_taxable: false, vat_exemption_reason: 'VATEX-EU-132-1I' }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.items[0].vat_exemption_reason).toBe('VATEX-EU-132-1I');
  });
});
