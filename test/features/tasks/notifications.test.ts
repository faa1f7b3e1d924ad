// Notification emails through the outbox, received by a real SMTP server: the assignee on creation and on
// re-assignment, the assignee and the creator on a new comment (once each); one email job per recipient, queued
// in the change's transaction (none for a refused change); texts in the company's language.
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { queuedJobsOf } from '../../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { taskOf, userOf } from './fixtures.ts';

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
});
afterAll(() => smtp.close());

/** Runs every queued email_send job of the company, as the worker would; returns the recipients, in order. */
async function sendQueued(companyId: string): Promise<string[][]> {
  const jobs = await queuedJobsOf(api, 'email_send', companyId);
  const task = taskList({ ...api.deps, config: api.config }).email_send;
  const recipients: string[][] = [];
  for (const job of jobs) {
    await task(job.payload as { companyId: string; emailId: string }, {} as JobHelpers);
    const [row] = await api.sql`select "to" from outbound_emails where id = ${job.payload.emailId as string}`;
    recipients.push(row.to);
  }
  await api.sql`delete from graphile_worker._private_jobs where payload->>'companyId' = ${companyId}`;
  return recipients;
}

describe('task notifications', () => {
  it('emails the assignee on creation and a new assignee on re-assignment, in the company language', async () => {
    const t = await api.tenant({ language: 'nl' });
    const sanne = await userOf(api, t.companyId, { email: `sanne-${t.companyId}@example.nl` });
    const mark = await userOf(api, t.companyId, { email: `mark-${t.companyId}@example.nl` });
    const task = await taskOf(api, t.key, {
      title: 'Dakfoto maken',
      assigned_user_id: String(sanne),
      due_date: '2026-03-17',
    });
    expect(await sendQueued(t.companyId)).toEqual([[`sanne-${t.companyId}@example.nl`]]);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(`sanne-${t.companyId}@example.nl`));
    expect(mail.subject).toBe('Taak aan jou toegewezen: Dakfoto maken');
    expect(mail.text).toContain('Deadline: 17 maart 2026.');

    // An update that leaves the assignee alone sends nothing; a new assignee is emailed.
    await api.call('updateTask', { key: t.key, params: { task: task.id }, body: { title: 'Dakfoto’s maken' } });
    expect(await sendQueued(t.companyId)).toEqual([]);
    await api.call('updateTask', { key: t.key, params: { task: task.id }, body: { assigned_user_id: String(mark) } });
    expect(await sendQueued(t.companyId)).toEqual([[`mark-${t.companyId}@example.nl`]]);
    await smtp.waitFor((m) => m.envelopeTo.includes(`mark-${t.companyId}@example.nl`));
  });

  it.each([
    ['en', 'Due date: 14 December 2026.'],
    ['de', 'Fällig: 14. Dezember 2026.'],
    ['fr', 'Échéance : 14 décembre 2026.'],
  ] as const)('%s: writes the due date in the language’s one date style, never as an ISO date', async (language, line) => {
    const t = await api.tenant({ language });
    const email = `due-${t.companyId}@example.nl`;
    const user = await userOf(api, t.companyId, { email });
    await taskOf(api, t.key, { title: 'Dak', assigned_user_id: String(user), due_date: '2026-12-14' });
    await sendQueued(t.companyId);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(email));
    expect(mail.text).toContain(line);
    expect(mail.text).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{2}[-./]\d{2}[-./]\d{4}/);
  });

  it('emails the assignee and the creator on a new comment, once each; nobody for an unassigned API task', async () => {
    const t = await api.tenant({ language: 'en' });
    const assignee = await userOf(api, t.companyId, { email: `assignee-${t.companyId}@example.nl` });
    const creator = await userOf(api, t.companyId, { email: `creator-${t.companyId}@example.nl` });
    const task = await taskOf(api, t.key, { title: 'Order panels', assigned_user_id: String(assignee) });
    // The web application records who created a task; the API has no user of its own.
    await api.sql`update tasks set created_by_user_id = ${creator} where id = ${task.id}`;
    await sendQueued(t.companyId);

    const res = await api.call('createTaskComment', {
      key: t.key,
      params: { task: task.id },
      body: { body: 'Supplier confirmed delivery on Friday.' },
    });
    expect(res.status).toBe(201);
    const recipients = (await sendQueued(t.companyId)).flat().sort();
    expect(recipients).toEqual([`assignee-${t.companyId}@example.nl`, `creator-${t.companyId}@example.nl`].sort());
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(`creator-${t.companyId}@example.nl`));
    expect(mail.subject).toBe('New comment on the task Order panels');
    expect(mail.text).toContain('Supplier confirmed delivery on Friday.');

    // The creator assigned to their own task: one email, not two.
    await api.sql`update tasks set assigned_user_id = ${creator} where id = ${task.id}`;
    await api.call('createTaskComment', { key: t.key, params: { task: task.id }, body: { body: 'Done.' } });
    expect(await sendQueued(t.companyId)).toEqual([[`creator-${t.companyId}@example.nl`]]);

    const unassigned = await taskOf(api, t.key, { title: 'Nobody’s' });
    await api.call('createTaskComment', { key: t.key, params: { task: unassigned.id }, body: { body: 'Hello?' } });
    expect(await sendQueued(t.companyId)).toEqual([]);
  });

  it('a refused change queues no email (the outbox shares its transaction)', async () => {
    const t = await api.tenant();
    const user = await userOf(api, t.companyId);
    const res = await api.call('createTask', {
      key: t.key,
      body: { title: 'Nope', assigned_user_id: String(user), links: [{ object: 'deal', id: crypto.randomUUID() }] },
    });
    expect(res.status).toBe(422);
    expect(await queuedJobsOf(api, 'email_send', t.companyId)).toEqual([]);
    const [{ count }] =
      await api.sql`select count(*)::int as count from outbound_emails where company_id = ${t.companyId}`;
    expect(count).toBe(0);
  });
});
