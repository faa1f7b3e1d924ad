// Sending an invoice and a quote: the email with the document's PDF arrives at a real SMTP server (the outbox's
// email_send job, as the worker runs it), and the PDF's text (pdftotext) holds the number, the total and the
// customer's name; its first page is rendered to PNG (pdftoppm) into test-results/pdf/ to be looked at.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { deliverQueuedEmails } from '../../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';

const PDFTOTEXT = '/usr/bin/pdftotext';
const PDFTOPPM = '/usr/bin/pdftoppm';
const OUT = join(process.cwd(), 'test-results', 'pdf');

let api: TestApi;
let smtp: TestSmtp;
let key: string;
let companyId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});
afterAll(async () => smtp.close());

const deliver = () => deliverQueuedEmails(api, companyId);

function textOf(name: string, pdf: Buffer): string {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync(PDFTOPPM, ['-png', '-r', '72', '-f', '1', '-l', '1', file, join(OUT, name)]);
  return execFileSync(PDFTOTEXT, ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\u00A0/g, ' ');
}

describe.skipIf(!existsSync(PDFTOTEXT) || !existsSync(PDFTOPPM))('the send email with its PDF', () => {
  if (!existsSync(PDFTOTEXT) || !existsSync(PDFTOPPM))
    console.warn(`${PDFTOTEXT} or ${PDFTOPPM} missing (Debian poppler-utils): the sent PDFs are not checked`);

  it('an invoice arrives at the SMTP server with its PDF: number, total and customer name', async () => {
    const customer = await api.call('createCustomer', {
      key,
      body: { name: 'Pieter de Boer', email: 'pieter.deboer@example.nl' },
    });
    const created = await api.call<'createInvoice'>('createInvoice', {
      key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Vervanging cv-ketel',
        items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
      },
    });
    const invoice = created.body.data;
    expect((await api.call('sendInvoice', { key, params: { invoice: invoice.id } })).status).toBe(200);
    await deliver();
    const mail = await smtp.waitFor((m) => m.subject?.includes(invoice.number) ?? false);
    expect(mail.envelopeTo).toEqual(['pieter.deboer@example.nl']);
    const [attachment] = mail.attachments;
    expect(attachment).toMatchObject({ filename: `${invoice.number}.pdf`, contentType: 'application/pdf' });
    const text = textOf('sent-invoice', attachment.content);
    expect(text).toContain(invoice.number);
    expect(text).toContain('Pieter de Boer');
    expect(text).toMatch(/24,20/);
    expect(existsSync(join(OUT, 'sent-invoice-1.png'))).toBe(true);
  });

  it('a quote arrives with its PDF too', async () => {
    const customer = await api.call('createCustomer', { key, body: { name: 'Anna Visser', email: 'anna@example.nl' } });
    const created = await api.call<'createQuote'>('createQuote', {
      key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Schilderwerk',
        items: [{ name: 'Schilderwerk', quantity: 24, unit_price: 52.5, tax_rate: 9 }],
      },
    });
    const quote = created.body.data;
    await api.call('sendQuote', { key, params: { quote: quote.id } });
    await deliver();
    const mail = await smtp.waitFor((m) => m.subject?.includes(quote.number) ?? false);
    const text = textOf('sent-quote', mail.attachments[0].content);
    expect(text).toContain(quote.number);
    expect(text).toContain('Anna Visser');
    expect(text).toMatch(/1\.373,40/);
  });
});
