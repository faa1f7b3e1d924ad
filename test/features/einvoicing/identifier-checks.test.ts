// Identifiers checked where they are entered (issue 47, point 3): customers (create, update, batch) answer 422
// `invalid_identifier` naming the field and the rule; the operator's `company details` refuses them, a Belgian
// company with a KvK number among them; values stored before the checks answer 409 `invalid` on export, never
// invalid XML; and a Peppol id is derived from the VAT number of every EU country with a VAT scheme.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/commands.ts';
import { EAS_CODES } from '../../../src/domain/code-lists/eas.ts';
import {
  EU,
  ibanRule,
  peppolIdOfVatNumber,
  peppolIdRule,
  VAT_SCHEMES,
  vatNumberRule,
} from '../../../src/domain/identifiers.ts';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import { SELLER_DETAILS } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'en' }));
  await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
});

const email = () => `c-${randomUUID()}@example.eu`;
type Problem = { code: string; errors?: { pointer: string; code: string; rule?: string }[] };

describe('the checks themselves', () => {
  it('VAT numbers per country: prefix (BR-CO-09), format and check digits (VAT)', () => {
    expect(vatNumberRule('XX123')).toBe('BR-CO-09');
    expect(vatNumberRule('123456789')).toBe('BR-CO-09');
    expect(vatNumberRule('NL853746211B01')).toBe('VAT');
    expect(vatNumberRule('NL853746217B01')).toBeNull();
    expect(vatNumberRule('BE0477472702')).toBe('VAT');
    expect(vatNumberRule('PL5260250274')).toBeNull();
    expect(vatNumberRule('EL094259216')).toBeNull();
  });

  it('IBANs with their check digits', () => {
    expect(ibanRule('NL91ABNA0417164300')).toBeNull();
    expect(ibanRule('NL91 ABNA 0417 1643 00')).toBeNull();
    expect(ibanRule('NL91ABNA0417164301')).toBe('IBAN');
  });

  it('Peppol ids: the EAS list and each scheme’s own check', () => {
    expect(peppolIdRule('9999:abc')).toBe('PEPPOL-EN16931-CL008');
    expect(peppolIdRule('abc')).toBe('PEPPOL-ID');
    expect(peppolIdRule('0208:0477472702')).toBe('PEPPOL-COMMON-R043');
    expect(peppolIdRule('0208:0477472701')).toBeNull();
    expect(peppolIdRule('0106:2412345')).toBe('KVK');
    expect(peppolIdRule('9944:NL853746211B01')).toBe('VAT');
    expect(peppolIdRule('9944:NL853746217B01')).toBeNull();
    expect(peppolIdRule('0088:5790000435951')).toBeNull();
    expect(peppolIdRule('0088:5790000435952')).toBe('PEPPOL-COMMON-R040');
    expect(peppolIdRule('0192:123456785')).toBeNull();
    expect(peppolIdRule('0192:123456789')).toBe('PEPPOL-COMMON-R041');
  });

  it('every EU country but Denmark and Sweden has a VAT scheme of the EAS list to derive a Peppol id from', () => {
    const without = [...EU].filter((country) => !VAT_SCHEMES[country]).sort();
    expect(without).toEqual(['DK', 'SE']);
    for (const scheme of Object.values(VAT_SCHEMES)) expect(EAS_CODES[scheme], scheme).toBeDefined();
    expect(peppolIdOfVatNumber('PL5260250274')).toEqual({ scheme: '9945', id: 'PL5260250274' });
    expect(peppolIdOfVatNumber('IT00743110157')).toEqual({ scheme: '0211', id: '00743110157' });
  });
});

describe('customers', () => {
  it('create: a made-up VAT number, a wrong Belgian check digit and an unknown scheme answer 422 naming each', async () => {
    const res = await api.call('createCustomer', {
      key,
      body: {
        email: email(),
        type: 'business',
        country: 'BE',
        vat_number: 'XX123',
        coc_number: '24123456',
        peppol_id: '9999:abc',
      },
    });
    expect(res.status).toBe(422);
    const body = res.body as Problem;
    expect(body.code).toBe('validation_failed');
    expect(body.errors).toEqual([
      expect.objectContaining({ pointer: '/vat_number', code: 'invalid_identifier', rule: 'BR-CO-09' }),
      expect.objectContaining({ pointer: '/coc_number', code: 'invalid_identifier', rule: 'PEPPOL-COMMON-R043' }),
      expect.objectContaining({ pointer: '/peppol_id', code: 'invalid_identifier', rule: 'PEPPOL-EN16931-CL008' }),
    ]);
  });

  it('update: a CoC number sent alone is judged by the stored country', async () => {
    const created = await api.call<'createCustomer'>('createCustomer', {
      key,
      body: { email: email(), type: 'business', country: 'BE', company_name: 'Peeters BV' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const kvk = await api.call('updateCustomer', { key, params: { customer: id }, body: { coc_number: '24123456' } });
    expect(kvk.status).toBe(422);
    expect((kvk.body as Problem).errors).toEqual([
      expect.objectContaining({ pointer: '/coc_number', rule: 'PEPPOL-COMMON-R043' }),
    ]);
    const kbo = await api.call('updateCustomer', {
      key,
      params: { customer: id },
      body: { coc_number: '0477.472.701', peppol_id: '0208:0477472702' },
    });
    expect((kbo.body as Problem).errors).toEqual([
      expect.objectContaining({ pointer: '/peppol_id', rule: 'PEPPOL-COMMON-R043' }),
    ]);
    const fine = await api.call('updateCustomer', {
      key,
      params: { customer: id },
      body: { coc_number: '0477.472.701', peppol_id: '0208:0477472701' },
    });
    expect(fine.status).toBe(200);
  });

  it('batch: the item’s field is named under /items/i', async () => {
    const res = await api.call('upsertCustomers', {
      key,
      body: { items: [{ email: email() }, { email: email(), vat_number: 'NL853746211B01' }] },
    });
    expect(res.status).toBe(200);
    const body = res.body as { items: { outcome: string; problem?: Problem }[] };
    expect(body.items[0].outcome).toBe('created');
    expect(body.items[1].outcome).toBe('failed');
    expect(body.items[1].problem?.errors).toEqual([
      expect.objectContaining({ pointer: '/items/1/vat_number', code: 'invalid_identifier', rule: 'VAT' }),
    ]);
  });
});

describe('the company (operator CLI)', () => {
  const details = async (id: string, ...flags: string[]) => {
    const command = parseCommand(['company', 'details', id, '--json', ...flags]);
    if (command.name !== 'company details') throw new Error(command.name);
    const out = await runCommand(api.deps, command, async () => {});
    return out as { exitCode?: number; json: { errors?: { field: string; rule: string }[] } };
  };

  it('a Belgian company with a KvK number is refused, whichever is set last (PEPPOL-COMMON-R043)', async () => {
    const other = await api.tenant();
    await setCompanyDetails(api.db, other.companyId, { country: 'BE' });
    const kvk = await details(other.companyId, '--coc-number', '24123456');
    expect(kvk.exitCode).toBe(2);
    expect(kvk.json.errors).toEqual([expect.objectContaining({ field: 'coc_number', rule: 'PEPPOL-COMMON-R043' })]);

    await setCompanyDetails(api.db, other.companyId, { country: 'NL', cocNumber: '24123456' });
    const toBelgium = await details(other.companyId, '--country', 'BE');
    expect(toBelgium.json.errors).toEqual([expect.objectContaining({ rule: 'PEPPOL-COMMON-R043' })]);

    const fine = await details(other.companyId, '--country', 'BE', '--coc-number', '0477472701');
    expect(fine.exitCode ?? 0).toBe(0);
  });

  it('a VAT number without a country prefix, a wrong IBAN and a wrong BIC are refused with their rules', async () => {
    const other = await api.tenant();
    const out = await details(other.companyId, '--vat-number', 'XX123', '--iban', 'NL91ABNA0417164301', '--bic', 'AB');
    expect(out.exitCode).toBe(2);
    expect(out.json.errors?.map((e) => `${e.field} ${e.rule}`)).toEqual([
      'vat_number BR-CO-09',
      'iban IBAN',
      'bic BIC',
    ]);
  });
});

describe('e-invoices of values stored before the checks', () => {
  /** A customer written as an older version stored it, past today's checks. */
  async function storedCustomer(fields: Record<string, string | null>) {
    const created = await api.call<'createCustomer'>('createCustomer', {
      key,
      body: {
        email: email(),
        type: 'business',
        company_name: 'Stored Before BV',
        address: 'Meir 1',
        postal_code: '2000',
        city: 'Antwerpen',
        country: 'BE',
        vat_number: 'BE0477472701',
      },
    });
    const id = created.body.data.id;
    await api.sql`update customers set vat_number = ${fields.vat_number ?? 'BE0477472701'},
      peppol_id = ${fields.peppol_id ?? null}, coc_number = ${fields.coc_number ?? null}
      where company_id = ${companyId} and id = ${id}`;
    const invoice = await api.call<'createInvoice'>('createInvoice', {
      key,
      body: { customer_id: id, title: 'Work', items: [{ name: 'Work', quantity: 1, unit_price: 100 }] },
    });
    expect(invoice.status).toBe(201);
    return invoice.body.data.id;
  }
  const ubl = (id: string) =>
    api.app.request(`http://api.test/api/v1/invoices/${id}/ubl`, { headers: { authorization: `Bearer ${key}` } });

  it('a stored Peppol id of an unknown scheme, a wrong Belgian check digit or a made-up VAT number: 409 invalid', async () => {
    for (const [fields, field, rule] of [
      [{ peppol_id: '9999:abc' }, 'customer.peppol_id', 'PEPPOL-EN16931-CL008'],
      [{ peppol_id: '0208:0477472702' }, 'customer.peppol_id', 'PEPPOL-COMMON-R043'],
      [{ coc_number: '24123456' }, 'customer.coc_number', 'PEPPOL-COMMON-R043'],
      [{ vat_number: 'XX123' }, 'customer.vat_number', 'BR-CO-09'],
    ] as const) {
      const res = await ubl(await storedCustomer(fields));
      expect(res.status, JSON.stringify(fields)).toBe(409);
      const body = (await res.json()) as { invalid?: { field: string; rule: string; detail: string }[] };
      expect(body.invalid).toEqual([expect.objectContaining({ field, rule })]);
    }
  });

  it('a stored company VAT number XX123 answers 409 invalid, not a document breaking BR-CO-09', async () => {
    const other = await api.tenant({ language: 'en' });
    await setCompanyDetails(api.db, other.companyId, { ...SELLER_DETAILS, vatNumber: 'XX123' });
    const customer = await api.call<'createCustomer'>('createCustomer', {
      key: other.key,
      body: {
        email: email(),
        type: 'business',
        company_name: 'Polska Sp. z o.o.',
        country: 'PL',
        vat_number: 'PL5260250274',
      },
    });
    const invoice = await api.call<'createInvoice'>('createInvoice', {
      key: other.key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Work',
        items: [{ name: 'Work', quantity: 1, unit_price: 100 }],
      },
    });
    const res = await api.app.request(`http://api.test/api/v1/invoices/${invoice.body.data.id}/ubl`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { invalid: unknown[] }).invalid).toEqual([
      expect.objectContaining({ field: 'company.vat_number', rule: 'BR-CO-09' }),
    ]);
  });
});

describe('a Peppol id derived from a Polish VAT number', () => {
  const produced = new Map<string, string>();

  it('a Polish business customer with only a VAT number gets an e-invoice addressed 9945:PL…', async () => {
    const customer = await api.call<'createCustomer'>('createCustomer', {
      key,
      body: {
        email: email(),
        type: 'business',
        company_name: 'Polska Sp. z o.o.',
        address: 'ul. Marszałkowska 1',
        postal_code: '00-001',
        city: 'Warszawa',
        country: 'PL',
        vat_number: 'PL5260250274',
      },
    });
    expect(customer.status).toBe(201);
    const invoice = await api.call<'createInvoice'>('createInvoice', {
      key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Work',
        items: [{ name: 'Work', quantity: 1, unit_price: 100, tax_rate: 0 }],
      },
    });
    const res = await api.app.request(`http://api.test/api/v1/invoices/${invoice.body.data.id}/ubl`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const xml = await res.text();
    expect(res.status, xml).toBe(200);
    expect(xml).toContain('<cbc:EndpointID schemeID="9945">PL5260250274</cbc:EndpointID>');
    produced.set('polish-buyer.xml', xml);
  });

  it.skipIf(rulesUnavailable() !== null)(
    'passes the official EN 16931 and Peppol rules',
    async () => {
      expect(produced.size).toBe(1);
      const reports = await validate(produced, UBL_RULES);
      for (const name of produced.keys()) expect(fatalLines(reports.get(name) ?? []), name).toEqual([]);
    },
    600_000,
  );
});
