// A customer without a name is greeted one way per language in every email the service sends a customer (issue
// 47, point 11): the quote, the invoice, the review request, the order's status email and the appointment's
// message all open with the same line, received here at a real SMTP server. The German review request asks
// "Würden Sie uns erzählen, wie es war?".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../src/languages.ts';
import { orderOf } from '../features/orders/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { deliverQueuedEmails } from '../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../harness/smtp.ts';

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
});
afterAll(() => smtp.close());

const NAMELESS: Record<Language, string> = {
  en: 'Dear customer,',
  nl: 'Beste klant,',
  de: 'Guten Tag,',
  fr: 'Bonjour,',
};

/** The five emails a nameless customer gets, each as its first line, sent in `language`. */
async function emailsOfNamelessCustomer(language: Language) {
  const { key, companyId } = await api.tenant({ language });
  const email = `${crypto.randomUUID()}@example.nl`;
  const customer = await api.call('createCustomer', { key, body: { email } });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  const customer_id = customer.body.data.id as string;
  const items = [{ name: 'Schilderwerk', quantity: 2, unit_price: 50, tax_rate: 21 }];

  const quote = await api.call('createQuote', { key, body: { customer_id, title: 'Schilderwerk', items } });
  expect((await api.call('sendQuote', { key, params: { quote: quote.body.data.id } })).status).toBe(200);
  const invoice = await api.call('createInvoice', { key, body: { customer_id, title: 'Schilderwerk', items } });
  expect((await api.call('sendInvoice', { key, params: { invoice: invoice.body.data.id } })).status).toBe(200);
  const review = await api.call('createReviewRequest', { key, body: { customer_id, channel: 'email', language } });
  expect(review.status, JSON.stringify(review.body)).toBe(201);
  const appointment = await api.call('createAppointment', {
    key,
    body: { customer_id, title: 'Onderhoud', starts_at: '2026-03-16T09:00:00+01:00' },
  });
  expect(appointment.status, JSON.stringify(appointment.body)).toBe(201);
  const notified = await api.call('notifyAppointment', {
    key,
    params: { appointment: appointment.body.data.id },
    body: { kind: 'update', language },
  });
  expect(notified.status, JSON.stringify(notified.body)).toBe(202);
  const order = await orderOf(api, companyId, {
    language,
    customer: { name: null, email, phone: null, company_name: null, vat_number: null },
  });
  expect((await api.call('changeOrderStatus', { key, params: { order }, body: { status: 'shipped' } })).status).toBe(
    200,
  );

  await deliverQueuedEmails(api, companyId);
  await smtp.waitFor(() => smtp.received.filter((m) => m.envelopeTo.includes(email)).length === 5);
  return smtp.received.filter((m) => m.envelopeTo.includes(email)).map((m) => m.text ?? '');
}

describe('the salutation of a customer without a name', () => {
  it.each(LANGUAGES)('%s: quote, invoice, review, order and appointment emails open with the same line', async (l) => {
    const texts = await emailsOfNamelessCustomer(l);
    expect(texts).toHaveLength(5);
    for (const text of texts) expect(text.split('\n')[0], text).toBe(NAMELESS[l]);
    if (l === 'de') {
      const review = texts.find((text) => text.includes('/review/')) ?? '';
      expect(review).toContain('Würden Sie uns erzählen, wie es war?');
    }
  }, 60_000);
});
