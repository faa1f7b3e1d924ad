// The e-invoice in the invoice email (POST /invoices/{invoice}/send), received by a real SMTP server through the
// outbox's email_send job: under `auto` a business customer with a VAT number gets `<number>.xml` next to the PDF,
// and that attachment passes the EN 16931 and Peppol BIS 3.0 rules (one Saxon run per rule set, at the end); a
// private customer gets the PDF only; `always` and `never` (the operator's `company details`) decide alone; an
// invoice the rules refuse (no company VAT number) is sent without the XML and the answer says what is missing.
// Every invoice answer and invoice event names where its UBL is (`ubl_url`).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { fatalLines, rulesUnavailable, UBL_RULES, validate } from '../../harness/einvoicing-rules.ts';
import { deliverQueuedEmails } from '../../harness/jobs.ts';
import { type ReceivedMail, startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { DUTCH_BUSINESS, SELLER_DETAILS } from './fixtures.ts';

const unavailable = rulesUnavailable();
if (unavailable) console.warn(unavailable);

let api: TestApi;
let smtp: TestSmtp;
let key: string;
let companyId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  await setCompanyDetails(api.db, companyId, SELLER_DETAILS);
});
afterAll(async () => smtp.close());

async function customer(body: Record<string, unknown>) {
  const res = await api.call('createCustomer', { key, body: { email: `k-${randomUUID()}@example.nl`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const business = () => customer({ ...DUTCH_BUSINESS });
const person = () =>
  customer({
    name: 'Pieter de Boer',
    address: 'Dorpsstraat 4',
    postal_code: '1234 AB',
    city: 'Utrecht',
    country: 'NL',
  });

/** Sends a new invoice to the customer; answers the send's answer and the email as the SMTP server received it. */
async function sendTo(customerId: string) {
  const created = await api.call<'createInvoice'>('createInvoice', {
    key,
    body: {
      customer_id: customerId,
      title: 'Onderhoud cv-ketel',
      items: [
        { name: 'Ketel & toebehoren', quantity: 1, unit_price: 1250, tax_rate: 21, discount_percentage: 10 },
        { name: 'Arbeid', quantity: 3.5, unit: 'uur', unit_price: 60, tax_rate: 21 },
        { name: 'Boekje', quantity: 2, unit_price: 12.95, tax_rate: 9 },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const invoice = created.body.data;
  const sent = await api.call<'sendInvoice'>('sendInvoice', { key, params: { invoice: invoice.id } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await deliverQueuedEmails(api, companyId);
  const mail = await smtp.waitFor((m) => m.subject?.includes(invoice.number) ?? false);
  return { invoice, sent: sent.body, mail };
}

const names = (mail: ReceivedMail) => mail.attachments.map((a) => a.filename);
const setting = (value: 'auto' | 'always' | 'never') =>
  setCompanyDetails(api.db, companyId, { einvoiceAttachment: value });

const produced = new Map<string, Buffer>();

describe('the UBL in the invoice email', () => {
  it('auto: a business customer with a VAT number gets <number>.xml (application/xml) next to the PDF', async () => {
    const { invoice, sent, mail } = await sendTo((await business()).id);
    expect(names(mail)).toEqual([`${invoice.number}.pdf`, `${invoice.number}.xml`]);
    const xml = mail.attachments[1];
    expect(xml.contentType).toBe('application/xml');
    const text = xml.content.toString('utf8');
    expect(text).toContain('<Invoice');
    expect(text).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
    expect(text).toContain(`<cbc:PayableAmount currencyID="EUR">${invoice.total}</cbc:PayableAmount>`);
    expect(sent.meta).toEqual({
      attachments: [`${invoice.number}.pdf`, `${invoice.number}.xml`],
      einvoice: { attached: true, reason: null, missing: [] },
    });
    produced.set('sent-business.xml', xml.content);
  });

  it('auto: a private customer (no VAT number) gets the PDF only', async () => {
    const { invoice, sent, mail } = await sendTo((await person()).id);
    expect(names(mail)).toEqual([`${invoice.number}.pdf`]);
    expect(sent.meta.einvoice).toEqual({ attached: false, reason: 'not_wanted', missing: [] });
  });

  it('never: not even a business gets it; always: the private customer gets one once it can be valid', async () => {
    await setting('never');
    try {
      const never = await sendTo((await business()).id);
      expect(names(never.mail)).toEqual([`${never.invoice.number}.pdf`]);
      expect(never.sent.meta.einvoice.reason).toBe('not_wanted');

      await setting('always');
      // A private person with a Peppol id of their own (the rules need the buyer's electronic address).
      const reachable = await customer({
        name: 'Anna Visser',
        address: 'Kerkstraat 7',
        postal_code: '1017 GB',
        city: 'Amsterdam',
        country: 'NL',
        peppol_id: '0106:87654321',
      });
      const always = await sendTo(reachable.id);
      expect(names(always.mail)).toEqual([`${always.invoice.number}.pdf`, `${always.invoice.number}.xml`]);
      produced.set('sent-always.xml', always.mail.attachments[1].content);
    } finally {
      await setting('auto');
    }
  });

  it('without the company VAT number the invoice is still sent, without the XML, and the answer says why', async () => {
    await setCompanyDetails(api.db, companyId, { vatNumber: null });
    try {
      const { invoice, sent, mail } = await sendTo((await business()).id);
      expect(names(mail)).toEqual([`${invoice.number}.pdf`]);
      expect(sent.data.status).toBe('sent');
      expect(sent.meta.attachments).toEqual([`${invoice.number}.pdf`]);
      expect(sent.meta.einvoice).toMatchObject({ attached: false, reason: 'incomplete' });
      expect(sent.meta.einvoice.missing).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'company.vat_number', rule: 'BR-S-02' })]),
      );
      // In the request's language (the harness asks in English unless told).
      expect(sent.meta.einvoice.missing[0].detail).toMatch(/[a-z]/);
    } finally {
      await setCompanyDetails(api.db, companyId, { vatNumber: SELLER_DETAILS.vatNumber });
    }
  });

  it('GET /invoices/{invoice} and the invoice.sent event name the UBL: ubl_url, absolute on PUBLIC_URL', async () => {
    const { invoice } = await sendTo((await business()).id);
    const expected = `http://api.test/api/v1/invoices/${invoice.id}/ubl`;
    expect(invoice.ubl_url).toBe(expected);
    const got = await api.call<'getInvoice'>('getInvoice', { key, params: { invoice: invoice.id } });
    expect(got.body.data.ubl_url).toBe(expected);
    const events = await api.call<'listEvents'>('listEvents', {
      key,
      query: { 'filter[type]': 'invoice.sent', limit: 100 },
    });
    const event = events.body.data.find((e) => (e.data.object as { id: string }).id === invoice.id);
    expect((event?.data.object as { ubl_url?: string }).ubl_url).toBe(expected);
    // The address answers the UBL itself.
    const ubl = await api.app.request(expected, { headers: { authorization: `Bearer ${key}` } });
    expect(ubl.status).toBe(200);
    expect(ubl.headers.get('content-type')).toMatch(/application\/xml/);
  });

  it.skipIf(unavailable !== null)(
    'the attached UBL passes the EN 16931 and Peppol BIS 3.0 rules: 0 fatal',
    async () => {
      expect([...produced.keys()]).toEqual(['sent-business.xml', 'sent-always.xml']);
      const reports = await validate(produced, UBL_RULES);
      for (const [name, report] of reports) expect(fatalLines(report), name).toEqual([]);
    },
    120_000,
  );
});
