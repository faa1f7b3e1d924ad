// The email outbox: an email queued in a change's transaction is sent by the email_send job to a real SMTP
// server (with its headers and attachments), recorded without SMTP_URL, retried on a temporary refusal and
// failed for good on a permanent one; a rolled-back change sends nothing.
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { taskList } from '../../src/jobs/worker.ts';
import { emailIdOf, type OutgoingEmail, queueEmail } from '../../src/mail/outbox.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { queuedJobsOf } from '../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../harness/smtp.ts';

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
});
afterAll(() => smtp.close());

const EMAIL: OutgoingEmail = {
  to: ['klant@example.nl'],
  subject: 'Offerte O-2026-0001',
  text: 'Beste klant, hierbij de offerte.',
  html: '<p>Beste klant, hierbij de offerte.</p>',
  kind: 'test',
};

async function queue(companyId: string, email: OutgoingEmail = EMAIL) {
  const queued = await withTenant(api.db, companyId, (tx) => queueEmail(tx, companyId, email));
  if (!queued) throw new Error('nothing queued');
  return queued.id;
}

/** Runs the email_send job of `emailId` as the worker would (the task of the app's config). */
async function send(companyId: string, emailId: string, config = api.config) {
  const task = taskList({ ...api.deps, config }).email_send;
  await task({ companyId, emailId }, {} as JobHelpers);
}

const row = async (companyId: string, id: string) =>
  (
    await api.sql`select status, message_id, error, sent_at from outbound_emails where company_id = ${companyId} and id = ${id}`
  )[0];

describe('the email outbox', () => {
  it('sends an email with its company, threading headers and attachment to the SMTP server', async () => {
    const { companyId } = await api.tenant();
    await api.sql`update companies set name = 'Schildersbedrijf De Kwast', email = 'info@dekwast.nl' where id = ${companyId}`;
    const id = await queue(companyId, {
      ...EMAIL,
      headers: { 'In-Reply-To': '<earlier@example.nl>', References: '<first@example.nl> <earlier@example.nl>' },
      attachments: [{ filename: 'offerte.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.7 test') }],
    });
    expect((await queuedJobsOf(api, 'email_send', companyId)).map((j) => [j.task, j.payload])).toEqual([
      ['email_send', { companyId, emailId: id }],
    ]);
    await send(companyId, id);
    const mail = await smtp.waitFor((m) => m.messageId === `<${id}@mail.example.test>`);
    expect(mail.from?.value).toEqual([{ name: 'Schildersbedrijf De Kwast', address: 'crm@mail.example.test' }]);
    expect(mail.replyTo?.value[0]?.address).toBe('info@dekwast.nl');
    expect(mail.envelopeTo).toEqual(['klant@example.nl']);
    expect(mail.subject).toBe('Offerte O-2026-0001');
    expect(mail.text?.trim()).toBe('Beste klant, hierbij de offerte.');
    expect(mail.html).toContain('<p>Beste klant');
    expect(mail.inReplyTo).toBe('<earlier@example.nl>');
    expect(mail.references).toEqual(['<first@example.nl>', '<earlier@example.nl>']);
    expect(mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ['offerte.pdf', 'application/pdf', '%PDF-1.7 test'],
    ]);
    expect(await row(companyId, id)).toMatchObject({ status: 'sent', message_id: `<${id}@mail.example.test>` });
    expect(emailIdOf(`<${id}@mail.example.test>`)).toBe(id);

    // A second run of the job (a retry after a crash) does not send it again.
    await send(companyId, id);
    expect(smtp.received.filter((m) => m.messageId === `<${id}@mail.example.test>`)).toHaveLength(1);
  });

  it('a rolled-back change queues nothing', async () => {
    const { companyId } = await api.tenant();
    await expect(
      withTenant(api.db, companyId, async (tx) => {
        await queueEmail(tx, companyId, EMAIL);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await api.sql`select 1 from outbound_emails where company_id = ${companyId}`).toHaveLength(0);
    expect(await queuedJobsOf(api, 'email_send', companyId)).toEqual([]);
  });

  it('without SMTP_URL the email is recorded, not sent', async () => {
    const { companyId } = await api.tenant();
    const id = await queue(companyId);
    const count = smtp.received.length;
    await send(companyId, id, loadConfig({ PUBLIC_URL: 'http://api.test' }));
    expect(await row(companyId, id)).toMatchObject({ status: 'recorded', message_id: `<${id}@api.test>` });
    expect(smtp.received).toHaveLength(count);
  });

  it('a temporary refusal is retried; a permanent one fails the email for good', async () => {
    const { companyId } = await api.tenant();
    smtp.refuse('later@example.nl', 451);
    const later = await queue(companyId, { ...EMAIL, to: ['later@example.nl'] });
    await expect(send(companyId, later)).rejects.toThrow();
    expect(await row(companyId, later)).toMatchObject({ status: 'queued', error: expect.stringContaining('451') });
    await send(companyId, later);
    expect(await row(companyId, later)).toMatchObject({ status: 'sent', error: null });

    smtp.refuse('never@example.nl', 550);
    const never = await queue(companyId, { ...EMAIL, to: ['never@example.nl'] });
    await send(companyId, never);
    expect(await row(companyId, never)).toMatchObject({ status: 'failed', error: expect.stringContaining('550') });
  });
});
