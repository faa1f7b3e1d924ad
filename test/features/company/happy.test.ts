// GET /company: the key's company with every field and its defaults; needs company.read.
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

describe('getCompany', () => {
  it('answers a new company with every field and the defaults', async () => {
    const before = Date.now();
    const company = await api.company({ name: 'Schilders De Kwast', language: 'de', features: ['pipeline', 'tasks'] });
    const { key } = await api.key(company.id);
    const res = await api.call('getCompany', { key });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toEqual({
      object: 'company',
      id: company.id,
      name: 'Schilders De Kwast',
      legal_name: null,
      email: null,
      phone: null,
      website: null,
      address: null,
      postal_code: null,
      city: null,
      country: 'NL',
      language: 'de',
      time_zone: 'Europe/Amsterdam',
      currency: 'EUR',
      vat_number: null,
      coc_number: null,
      iban: null,
      bic: null,
      peppol_id: null,
      vat_exemption_reason: null,
      einvoice_attachment: 'auto',
      prices_include_tax: false,
      default_tax_rate: '21.00',
      default_payment_term_days: 14,
      default_quote_validity_days: 30,
      features: ['pipeline', 'tasks'],
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(Date.parse(data.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(data.updated_at).toBe(data.created_at);
  });

  it('answers every field as stored', async () => {
    const company = await createCompany(api.db, {
      name: 'Installatiebedrijf Van Dijk',
      legalName: 'Installatiebedrijf Van Dijk B.V.',
      email: 'info@vandijkinstallatie.nl',
      phone: '+31 10 234 5678',
      website: 'https://www.vandijkinstallatie.nl',
      address: 'Coolsingel 42',
      postalCode: '3011 AD',
      city: 'Rotterdam',
      country: 'BE',
      language: 'fr',
      timeZone: 'Europe/Brussels',
      vatNumber: 'NL812345678B01',
      cocNumber: '24123456',
      iban: 'NL91ABNA0417164300',
      pricesIncludeTax: true,
      defaultTaxRate: '9.5',
      defaultPaymentTermDays: 30,
      defaultQuoteValidityDays: 60,
      features: [],
    });
    const { key } = await api.key(company.id, { scopes: ['company.read'] });
    const res = await api.call('getCompany', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: company.id,
      name: 'Installatiebedrijf Van Dijk',
      legal_name: 'Installatiebedrijf Van Dijk B.V.',
      email: 'info@vandijkinstallatie.nl',
      phone: '+31 10 234 5678',
      website: 'https://www.vandijkinstallatie.nl',
      address: 'Coolsingel 42',
      postal_code: '3011 AD',
      city: 'Rotterdam',
      country: 'BE',
      language: 'fr',
      time_zone: 'Europe/Brussels',
      currency: 'EUR',
      vat_number: 'NL812345678B01',
      coc_number: '24123456',
      iban: 'NL91ABNA0417164300',
      prices_include_tax: true,
      // Rates are strings with exactly two decimals.
      default_tax_rate: '9.50',
      default_payment_term_days: 30,
      default_quote_validity_days: 60,
      features: [],
    });
  });

  it("answers each key's own company", async () => {
    const a = await api.tenant();
    const b = await api.tenant();
    expect((await api.call('getCompany', { key: a.key })).body.data.id).toBe(a.companyId);
    expect((await api.call('getCompany', { key: b.key })).body.data.id).toBe(b.companyId);
  });

  it('needs company.read', async () => {
    const company = await api.company();
    const { key } = await api.key(company.id, { scopes: ['customers.read', 'users.read'] });
    const res = await api.call('getCompany', { key });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.body.required_scope).toBe('company.read');
  });
});
