// Invoice reminders (issue 52, points 6 and 7): the company's schedule (API and CLI, its 422s), the hourly run
// marking invoices overdue at the start of the day in each company's time zone and scheduling each step once (also
// when it runs twice at once), the send job that writes the email or skips it when the invoice was paid, cancelled,
// refunded or opted out in between, and the email as a real SMTP server receives it: the customer's language, the
// amount due, the pay-now link, the PDF and the UBL. The clock is the controllable one (Deps.clock).
import { randomUUID } from 'node:crypto';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setCompanyDetails } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { cliInProcess } from '../../harness/cli.ts';
import { deliverQueuedEmails, queuedJobsOf } from '../../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { DUTCH_BUSINESS, SELLER_DETAILS } from '../einvoicing/fixtures.ts';

let api: TestApi;
let smtp: TestSmtp;

type Tenant = { key: string; companyId: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
});
afterAll(async () => smtp.close());

const THREE_STEPS = [
  { days_after_due: 7, kind: 'friendly' },
  { days_after_due: 14, kind: 'second' },
  { days_after_due: 30, kind: 'final' },
] as const;

async function tenantIn(timeZone: string, steps: readonly { days_after_due: number; kind: string }[] = THREE_STEPS) {
  const t = await api.tenant({ language: 'en' });
  await api.sql`update companies set time_zone = ${timeZone} where id = ${t.companyId}`;
  const set = await api.call('setInvoiceReminderSchedule', { key: t.key, body: { steps } });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  return t;
}

/** The tasks as the worker runs them, at the moment `now`. */
const tasksAt = (now: string) => taskList({ ...api.deps, config: api.config, clock: () => new Date(now) });
const runDaily = (now: string) => tasksAt(now).sales_documents_daily({ _cron: { ts: now } }, {} as JobHelpers);

/** Runs the company's queued reminder jobs as the worker would (each job once, then done). */
async function runReminderJobs(t: Tenant) {
  const jobs = await queuedJobsOf(api, 'invoice_reminder_send', t.companyId);
  const task = tasksAt(new Date().toISOString()).invoice_reminder_send;
  for (const job of jobs) {
    await task({ companyId: t.companyId, reminderId: String(job.payload.reminderId) }, {} as JobHelpers);
    await api.sql`delete from graphile_worker._private_jobs where key = ${job.key}`;
  }
  return jobs.length;
}

/** A sent invoice of 24.20 to a customer in `language`, due on `dueDate`. */
async function sentInvoice(
  t: Tenant,
  dueDate: string,
  customer: Record<string, unknown> = {},
  language: 'nl' | 'en' | 'de' | 'fr' = 'en',
) {
  const made = await api.call('createCustomer', {
    key: t.key,
    body: { name: 'Pieter de Boer', email: `klant-${randomUUID()}@example.nl`, ...customer },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const created = await api.call<'createInvoice'>('createInvoice', {
    key: t.key,
    body: {
      customer_id: made.body.data.id,
      title: 'Onderhoud',
      language,
      items: [{ name: 'Artikel', quantity: 2, unit_price: 10, tax_rate: 21 }],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id: string = created.body.data.id;
  expect((await api.call('sendInvoice', { key: t.key, params: { invoice: id } })).status).toBe(200);
  await deliverQueuedEmails(api, t.companyId);
  await api.sql`update invoices set invoice_date = ${dueDate}::date - 14, due_date = ${dueDate} where id = ${id}`;
  return { id, number: created.body.data.number as string, email: made.body.data.email as string };
}

const remindersOf = (id: string) =>
  api.sql<{ days_after_due: number; kind: string; status: string; skipped_reason: string | null }[]>`
    select days_after_due, kind, status, skipped_reason from invoice_reminders where invoice_id = ${id}
    order by days_after_due`;
const eventsOf = async (type: string, id: string) =>
  Number(
    (
      await api.sql<{ n: string }[]>`
        select count(*) as n from events where type = ${type} and data->'object'->>'id' = ${id}`
    )[0].n,
  );
/** The text with its no-break spaces (amounts, French punctuation) as plain ones. */
const spaced = (text: string | undefined) => (text ?? '').replace(/[\u00A0\u202F]/g, ' ');
const statusOf = async (id: string) =>
  (await api.sql<{ status: string }[]>`select status from invoices where id = ${id}`)[0].status;

describe('the reminder schedule (API)', () => {
  it('is empty for a new company, and is replaced whole', async () => {
    const t = await api.tenant();
    const read = await api.call('getInvoiceReminderSchedule', { key: t.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ object: 'invoice_reminder_schedule', steps: [] });
    const set = await api.call('setInvoiceReminderSchedule', { key: t.key, body: { steps: THREE_STEPS } });
    expect(set.body.data.steps).toEqual(THREE_STEPS);
    expect((await api.call('getInvoiceReminderSchedule', { key: t.key })).body.data.steps).toEqual(THREE_STEPS);
    const none = await api.call('setInvoiceReminderSchedule', { key: t.key, body: { steps: [] } });
    expect(none.body.data.steps).toEqual([]);
  });

  it('refuses days that do not increase, too many steps, days out of range and unknown kinds (422)', async () => {
    const t = await api.tenant({ language: 'nl' });
    const put = (steps: unknown, language = 'en') =>
      api.call('setInvoiceReminderSchedule', { key: t.key, body: { steps }, headers: { 'accept-language': language } });
    const same = await put([
      { days_after_due: 7, kind: 'friendly' },
      { days_after_due: 7, kind: 'final' },
      { days_after_due: 3, kind: 'final' },
    ]);
    expect(same.status).toBe(422);
    expect(same.body.code).toBe('validation_failed');
    expect(same.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/steps/1/days_after_due', 'too_small'],
      ['/steps/2/days_after_due', 'too_small'],
    ]);
    expect(same.body.errors[0].detail).toContain('(7)');
    const dutch = await put(
      [
        { days_after_due: 14, kind: 'friendly' },
        { days_after_due: 7, kind: 'final' },
      ],
      'nl',
    );
    expect(dutch.body.errors[0].detail).toBe('Moet meer dagen na de vervaldatum liggen dan de stap ervoor (14).');
    const six = await put([1, 2, 3, 4, 5, 6].map((d) => ({ days_after_due: d, kind: 'friendly' })));
    expect(six.status).toBe(422);
    expect(six.body.errors[0].pointer).toBe('/steps');
    for (const wrong of [
      { days_after_due: 0, kind: 'friendly' },
      { days_after_due: 366, kind: 'friendly' },
    ]) {
      const res = await put([wrong]);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe('/steps/0/days_after_due');
    }
    const kind = await put([{ days_after_due: 7, kind: 'angry' }]);
    expect(kind.status).toBe(422);
    expect(kind.body.errors[0]).toMatchObject({ pointer: '/steps/0/kind', code: 'invalid_enum' });
    const extra = await put([{ days_after_due: 7, kind: 'friendly', text: 'x' }]);
    expect(extra.status).toBe(422);
    expect((await api.call('getInvoiceReminderSchedule', { key: t.key })).body.data.steps).toEqual([]);
  });

  it('needs company.write to change and company.read to read', async () => {
    const { companyId } = await api.tenant();
    const { key: readOnly } = await api.key(companyId, { scopes: ['company.read'] });
    const refused = await api.call('setInvoiceReminderSchedule', { key: readOnly, body: { steps: [] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
    expect((await api.call('getInvoiceReminderSchedule', { key: readOnly })).status).toBe(200);
    const { key: invoicesOnly } = await api.key(companyId, { scopes: ['invoices.read'] });
    expect((await api.call('getInvoiceReminderSchedule', { key: invoicesOnly })).status).toBe(403);
  });
});

describe('company reminders (CLI)', () => {
  const env = () => ({ DATABASE_URL: api.url, PUBLIC_URL: 'http://api.test', LOG_LEVEL: 'silent' });

  it('sets 7,14,30 as friendly, second and final; --none turns them off; shows the schedule', async () => {
    const t = await api.tenant();
    const set = await cliInProcess(env(), 'company', 'reminders', t.companyId, '--steps', '7,14,30', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({
      company_id: t.companyId,
      object: 'invoice_reminder_schedule',
      steps: THREE_STEPS,
    });
    expect((await api.call('getInvoiceReminderSchedule', { key: t.key })).body.data.steps).toEqual(THREE_STEPS);
    const kinds = await cliInProcess(env(), 'company', 'reminders', t.companyId, '--steps', '10:second,20:final');
    expect(kinds.code, kinds.stderr).toBe(0);
    const shown = await cliInProcess(env(), 'company', 'reminders', t.companyId);
    expect(shown.stdout).toContain('second   10 days after the due date');
    expect(shown.stdout).toContain('final    20 days after the due date');
    const off = await cliInProcess(env(), 'company', 'reminders', t.companyId, '--none');
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('turned off');
    expect((await api.call('getInvoiceReminderSchedule', { key: t.key })).body.data.steps).toEqual([]);
  });

  it('refuses days that do not increase, out of range, too many, or an unknown kind (exit 2)', async () => {
    const { companyId } = await api.tenant();
    for (const steps of ['14,7', '0,7', '7,400', '1,2,3,4,5,6', '7:angry', 'seven'])
      expect((await cliInProcess(env(), 'company', 'reminders', companyId, '--steps', steps)).code, steps).toBe(2);
    expect((await cliInProcess(env(), 'company', 'reminders', companyId, '--steps', '7', '--none')).code).toBe(2);
  });
});

describe('overdue at the start of the company’s day', () => {
  it('in Amsterdam at 23:00 UTC the day before (winter time), in Tokyo at 15:00 UTC: one invoice.overdue each', async () => {
    const amsterdam = await tenantIn('Europe/Amsterdam', []);
    const tokyo = await tenantIn('Asia/Tokyo', []);
    const a = await sentInvoice(amsterdam, '2026-03-10');
    const b = await sentInvoice(tokyo, '2026-03-10');

    await runDaily('2026-03-10T14:59:59Z');
    expect(await statusOf(a.id)).toBe('sent');
    expect(await statusOf(b.id)).toBe('sent');
    await runDaily('2026-03-10T15:00:00Z'); // midnight in Tokyo (UTC+9)
    expect(await statusOf(b.id)).toBe('overdue');
    expect(await statusOf(a.id)).toBe('sent');
    await runDaily('2026-03-10T22:59:59Z');
    expect(await statusOf(a.id)).toBe('sent');
    await runDaily('2026-03-10T23:00:00Z'); // midnight in Amsterdam (UTC+1)
    expect(await statusOf(a.id)).toBe('overdue');
    await runDaily('2026-03-11T05:00:00Z');
    expect(await eventsOf('invoice.overdue', a.id)).toBe(1);
    expect(await eventsOf('invoice.overdue', b.id)).toBe(1);
  });

  it('in summer time Amsterdam’s day starts at 22:00 UTC', async () => {
    const t = await tenantIn('Europe/Amsterdam', []);
    const invoice = await sentInvoice(t, '2026-07-01');
    await runDaily('2026-07-01T21:59:59Z');
    expect(await statusOf(invoice.id)).toBe('sent');
    await runDaily('2026-07-01T22:00:00Z');
    expect(await statusOf(invoice.id)).toBe('overdue');
  });
});

describe('sending reminders', () => {
  it('sends each step once on its day, in the customer’s language, with amount due, pay-now link, PDF and UBL', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    await setCompanyDetails(api.db, t.companyId, { ...SELLER_DETAILS, einvoiceAttachment: 'always' });
    // "Pay now" is offered when the company has a payment provider (its key is not used by a reminder).
    await api.sql`insert into payment_providers (company_id, provider, api_key_sealed, api_key_mode, webhook_token)
      values (${t.companyId}, 'mollie', 'v1.sealed', 'test', ${`token-${t.companyId}`})`;
    const invoice = await sentInvoice(t, '2026-03-10', { ...DUTCH_BUSINESS }, 'nl');
    await api.call('createInvoicePayment', { key: t.key, params: { invoice: invoice.id }, body: { amount: 4.2 } });

    await runDaily('2026-03-16T23:30:00Z'); // 17 March in Amsterdam: 7 days after the due date
    expect(await remindersOf(invoice.id)).toEqual([
      { days_after_due: 7, kind: 'friendly', status: 'scheduled', skipped_reason: null },
    ]);
    // A second run of the day schedules nothing more.
    await runDaily('2026-03-17T10:00:00Z');
    expect(await runReminderJobs(t)).toBe(1);
    expect(await remindersOf(invoice.id)).toEqual([
      { days_after_due: 7, kind: 'friendly', status: 'sent', skipped_reason: null },
    ]);
    expect(await eventsOf('invoice.reminder_sent', invoice.id)).toBe(1);

    await deliverQueuedEmails(api, t.companyId);
    const mail = await smtp.waitFor(
      (m) => m.subject === `Herinnering: factuur ${invoice.number} van Schildersbedrijf De Kwast`,
    );
    expect(mail.envelopeTo).toEqual([invoice.email]);
    expect(spaced(mail.text)).toContain('Openstaand bedrag: € 20,00.');
    expect(mail.text).toContain('10 maart 2026');
    expect(mail.text).toMatch(/Nu online betalen: http:\/\/api\.test\/invoice\/\S+\/pay/);
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`${invoice.number}.pdf`, 'application/pdf'],
      [`${invoice.number}.xml`, 'application/xml'],
    ]);
    const read = await api.call('getInvoice', { key: t.key, params: { invoice: invoice.id } });
    expect(read.body.data.reminders).toEqual([
      {
        kind: 'friendly',
        days_after_due: 7,
        status: 'sent',
        sent_at: expect.any(String),
        skipped_reason: null,
      },
    ]);
    const [event] = await api.sql<{ data: { object: { reminders: { status: string }[]; amount_due: string } } }[]>`
      select data from events where type = 'invoice.reminder_sent' and data->'object'->>'id' = ${invoice.id}`;
    expect(event.data.object.amount_due).toBe('20.00');
    expect(event.data.object.reminders).toMatchObject([{ status: 'sent' }]);

    // Day 14 and day 30, once each, however often the job runs.
    await runDaily('2026-03-24T00:30:00Z');
    await runDaily('2026-03-24T01:30:00Z');
    expect(await runReminderJobs(t)).toBe(1);
    await runDaily('2026-04-09T00:30:00Z');
    expect(await runReminderJobs(t)).toBe(1);
    await runDaily('2026-05-09T00:30:00Z');
    expect(await runReminderJobs(t)).toBe(0);
    expect((await remindersOf(invoice.id)).map((r) => [r.kind, r.status])).toEqual([
      ['friendly', 'sent'],
      ['second', 'sent'],
      ['final', 'sent'],
    ]);
    await deliverQueuedEmails(api, t.companyId);
    await smtp.waitFor(
      (m) => m.subject === `Laatste aanmaning: factuur ${invoice.number} van Schildersbedrijf De Kwast`,
    );
    expect(await eventsOf('invoice.reminder_sent', invoice.id)).toBe(3);
  });

  it('writes each language’s text, without "pay now" when the company has no provider', async () => {
    const t = await tenantIn('Europe/Amsterdam', [{ days_after_due: 3, kind: 'final' }]);
    const german = await sentInvoice(t, '2026-03-10', {}, 'de');
    const french = await sentInvoice(t, '2026-03-10', {}, 'fr');
    await runDaily('2026-03-13T12:00:00Z');
    expect(await runReminderJobs(t)).toBe(2);
    await deliverQueuedEmails(api, t.companyId);
    const de = await smtp.waitFor((m) => m.subject?.startsWith(`Letzte Mahnung: Rechnung ${german.number}`) ?? false);
    expect(spaced(de.text)).toContain('Offener Betrag: 24,20 €.');
    expect(de.text).not.toContain('/pay');
    const fr = await smtp.waitFor(
      (m) => m.subject?.startsWith(`Dernier avis\u00A0: facture ${french.number}`) ?? false,
    );
    expect(spaced(fr.text)).toContain('Montant restant dû : 24,20 €.');
    expect(fr.attachments.map((a) => a.filename)).toEqual([`${french.number}.pdf`]);
  });

  it('sends only the latest step reached, and skips an invoice that opted out (PATCH in any state)', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    const late = await sentInvoice(t, '2026-03-01');
    const optedOut = await sentInvoice(t, '2026-03-01');
    const patched = await api.call('updateInvoice', {
      key: t.key,
      params: { invoice: optedOut.id },
      body: { reminders_enabled: false, metadata: { dunning: 'manual' } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'sent', reminders_enabled: false });
    // Another field on a sent invoice is still refused.
    const other = await api.call('updateInvoice', {
      key: t.key,
      params: { invoice: optedOut.id },
      body: { reminders_enabled: true, title: 'Anders' },
    });
    expect(other.status).toBe(409);

    await runDaily('2026-03-20T12:00:00Z'); // 19 days overdue: the second step, not the friendly one
    expect(await remindersOf(late.id)).toMatchObject([{ days_after_due: 14, kind: 'second' }]);
    expect(await remindersOf(optedOut.id)).toEqual([]);
    expect(await statusOf(optedOut.id)).toBe('overdue');
    expect(await runReminderJobs(t)).toBe(1);
  });

  it('two runs at once schedule each step once, and two sends at once send it once', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    const invoices = await Promise.all([1, 2, 3].map(() => sentInvoice(t, '2026-03-01')));
    await Promise.all([runDaily('2026-03-09T12:00:00Z'), runDaily('2026-03-09T12:00:00Z')]);
    for (const invoice of invoices) expect(await remindersOf(invoice.id)).toHaveLength(1);
    const jobs = await queuedJobsOf(api, 'invoice_reminder_send', t.companyId);
    expect(jobs).toHaveLength(3);
    const task = tasksAt('2026-03-09T12:00:00Z').invoice_reminder_send;
    const payload = { companyId: t.companyId, reminderId: String(jobs[0]?.payload.reminderId) };
    await Promise.all([task(payload, {} as JobHelpers), task(payload, {} as JobHelpers)]);
    const [{ n }] = await api.sql<{ n: string }[]>`
      select count(*) as n from outbound_emails where company_id = ${t.companyId} and kind = 'invoice_reminder'`;
    expect(Number(n)).toBe(1);
  });

  it('is skipped when the invoice was paid, cancelled, refunded or opted out between scheduling and sending', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    const [paid, cancelled, refunded, optedOut, kept] = await Promise.all(
      [1, 2, 3, 4, 5].map(() => sentInvoice(t, '2026-03-01')),
    );
    await runDaily('2026-03-09T12:00:00Z');
    const pay = (id: string, amount: number, type?: 'refund') =>
      api.call('createInvoicePayment', { key: t.key, params: { invoice: id }, body: { amount, type } });
    expect((await pay(paid.id, 24.2)).status).toBe(201);
    expect((await api.call('cancelInvoice', { key: t.key, params: { invoice: cancelled.id } })).status).toBe(200);
    expect((await pay(refunded.id, 24.2)).status).toBe(201);
    expect((await pay(refunded.id, 24.2, 'refund')).status).toBe(201);
    await api.call('updateInvoice', {
      key: t.key,
      params: { invoice: optedOut.id },
      body: { reminders_enabled: false },
    });

    expect(await runReminderJobs(t)).toBe(5);
    const outcome = async (id: string) => (await remindersOf(id)).map((r) => [r.status, r.skipped_reason]);
    expect(await outcome(paid.id)).toEqual([['skipped', 'paid']]);
    expect(await outcome(cancelled.id)).toEqual([['skipped', 'cancelled']]);
    expect(await outcome(refunded.id)).toEqual([['skipped', 'refunded']]);
    expect(await outcome(optedOut.id)).toEqual([['skipped', 'opted_out']]);
    expect(await outcome(kept.id)).toEqual([['sent', null]]);
    const emails = await api.sql<{ to: string[] }[]>`
      select "to" from outbound_emails where company_id = ${t.companyId} and kind = 'invoice_reminder'`;
    expect(emails.map((e) => e.to)).toEqual([[kept.email]]);
    for (const invoice of [paid, cancelled, refunded, optedOut])
      expect(await eventsOf('invoice.reminder_sent', invoice.id)).toBe(0);
  });

  it('renders the PDF before it locks the invoice: a payment meanwhile does not wait for it, and is seen', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    const invoice = await sentInvoice(t, '2026-03-01');
    await runDaily('2026-03-09T12:00:00Z');
    let renderStarted = () => {};
    const rendering = new Promise<void>((resolve) => {
      renderStarted = resolve;
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const renderer = api.deps.pdfRenderer;
    const render = renderer.render.bind(renderer);
    const held = vi.spyOn(renderer, 'render').mockImplementation(async (...args) => {
      renderStarted();
      await released;
      return render(...args);
    });
    try {
      const sending = runReminderJobs(t);
      await rendering;
      // The reminder's PDF is rendering (held): the payment commits now, the invoice not locked by the send.
      const paid = await api.call('createInvoicePayment', {
        key: t.key,
        params: { invoice: invoice.id },
        body: { amount: 24.2 },
      });
      expect(paid.status).toBe(201);
      release();
      expect(await sending).toBe(1);
    } finally {
      release();
      held.mockRestore();
    }
    expect((await remindersOf(invoice.id)).map((r) => [r.status, r.skipped_reason])).toEqual([['skipped', 'paid']]);
    expect(await eventsOf('invoice.reminder_sent', invoice.id)).toBe(0);
  });

  it('withholds an email that could not leave before the invoice was paid (mail server down), and skips it', async () => {
    const t = await tenantIn('Europe/Amsterdam');
    const invoice = await sentInvoice(t, '2026-03-01');
    await runDaily('2026-03-09T12:00:00Z');
    expect(await runReminderJobs(t)).toBe(1);
    expect((await remindersOf(invoice.id)).map((r) => r.status)).toEqual(['sent']);
    // The email waits in the outbox (the mail server could not be reached) while the customer pays.
    const paid = await api.call('createInvoicePayment', {
      key: t.key,
      params: { invoice: invoice.id },
      body: { amount: 24.2 },
    });
    expect(paid.status).toBe(201);
    await deliverQueuedEmails(api, t.companyId);
    const [email] = await api.sql<{ status: string; error: string }[]>`
      select status, error from outbound_emails where company_id = ${t.companyId} and kind = 'invoice_reminder'`;
    expect(email).toEqual({ status: 'withheld', error: 'invoice reminder withheld: the invoice is paid' });
    expect(smtp.received.some((m) => m.subject?.startsWith(`Reminder: invoice ${invoice.number}`))).toBe(false);
    expect(await remindersOf(invoice.id)).toMatchObject([{ status: 'skipped', skipped_reason: 'paid' }]);
  });
});
