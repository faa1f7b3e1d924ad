// The order emails leave through the outbox and arrive at a real SMTP server, in the order's language.
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { queuedJobsOf } from '../../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { orderOf } from './fixtures.ts';

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'shop@mail.example.test' });
});
afterAll(() => smtp.close());

describe('order emails at the SMTP server', () => {
  it('the shipped email (French order) with its track and trace arrives at the buyer', async () => {
    const { key, companyId } = await api.tenant({ language: 'nl' });
    const email = `${crypto.randomUUID()}@example.fr`;
    const order = await orderOf(api, companyId, {
      language: 'fr',
      customer: { name: 'Camille Martin', email, phone: null, company_name: null, vat_number: null },
    });
    await api.call('updateOrderTracking', {
      key,
      params: { order },
      body: { tracking_code: 'CB123', tracking_url: 'https://suivi.example/CB123', notify_customer: false },
    });
    const res = await api.call('changeOrderStatus', { key, params: { order }, body: { status: 'shipped' } });
    expect(res.status).toBe(200);
    const jobs = await queuedJobsOf(api, 'email_send', companyId);
    expect(jobs).toHaveLength(1);
    const send = taskList({ ...api.deps, config: api.config }).email_send;
    for (const job of jobs) await send(job.payload as { companyId: string; emailId: string }, {} as JobHelpers);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(email));
    expect(mail.subject).toBe(`Votre commande ${res.body.data.number} a été expédiée`);
    expect(mail.text).toContain('Bonjour Camille Martin,');
    expect(mail.text).toContain('Suivi du colis : CB123');
    expect(mail.text).toContain('https://suivi.example/CB123');
  });
});
