// Messages about an appointment: the email reaches a real SMTP server with an iCalendar invitation that ical.js
// reads back (METHOD, one UID across updates, a growing SEQUENCE, times in UTC and in Europe/Amsterdam); which
// kinds fit which appointment (409), unsubscribed customers (409), WhatsApp (403/409), the hourly message
// limit (429), idempotent retries, and Cancel with notify_customer.
import type { JobHelpers } from 'graphile-worker';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { FEATURES } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { type ReceivedMail, startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { appointmentOf, customerOf } from './fixtures.ts';

let api: TestApi;
let smtp: TestSmtp;
let key: string;
let companyId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'crm@mail.example.test' });
  ({ key, companyId } = await api.tenant({ features: FEATURES.filter((f) => f !== 'whatsapp') }));
  await api.sql`update companies set name = 'Installatiebedrijf Dekker', email = 'info@dekker.nl', language = 'nl' where id = ${companyId}`;
  api.deps.clock = () => new Date('2026-03-01T12:00:00Z');
});
afterAll(() => smtp.close());

/** Sends every queued appointment email of the company, as the worker would, and returns what arrived. */
async function deliver(): Promise<ReceivedMail[]> {
  const rows = await api.sql<{ id: string }[]>`
    select id from outbound_emails where company_id = ${companyId} and status = 'queued' order by id`;
  const task = taskList(api.deps).email_send;
  for (const { id } of rows) await task({ companyId, emailId: id }, {} as JobHelpers);
  return Promise.all(rows.map(({ id }) => smtp.waitFor((m) => m.messageId === `<${id}@mail.example.test>`)));
}

type Invite = { method: string; uid: string; sequence: number; status: string; start: ICAL.Time; end: ICAL.Time };
function inviteOf(mail: ReceivedMail): Invite {
  const ics = mail.attachments.find((a) => a.filename?.endsWith('.ics'));
  if (!ics) throw new Error('no .ics attached');
  expect(ics.contentType).toBe('text/calendar');
  const calendar = new ICAL.Component(ICAL.parse(ics.content.toString('utf8')));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') as ICAL.Component);
  return {
    method: String(calendar.getFirstPropertyValue('method')),
    uid: event.uid,
    sequence: event.sequence,
    status: String(event.component.getFirstPropertyValue('status')),
    start: event.startDate,
    end: event.endDate,
  };
}

const notify = (id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call('notifyAppointment', {
    key,
    params: { appointment: id },
    body,
    headers: { 'accept-language': 'en', ...headers },
  });

describe('the iCalendar invitation', () => {
  it('keeps one UID while the appointment moves, raises SEQUENCE, and gives the times in UTC and in Amsterdam', async () => {
    const customer = await customerOf(api, key, { name: 'Jan Jansen', email: 'jan@bakkerijjansen.nl' });
    const a = await appointmentOf(api, key, {
      customer_id: customer,
      title: 'Onderhoud cv-ketel',
      starts_at: '2026-03-27T09:00:00+01:00',
      ends_at: '2026-03-27T11:00:00+01:00',
      location: 'Prinsengracht 263, Amsterdam',
    });
    const res = await notify(a.id, { kind: 'confirmation', message: 'Monteur Sanne komt langs.' });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      object: 'appointment_notification',
      appointment_id: a.id,
      kind: 'confirmation',
      channel: 'email',
      recipient: 'jan@bakkerijjansen.nl',
      language: 'nl',
      message: 'Monteur Sanne komt langs.',
    });
    const [confirmation] = await deliver();
    expect(confirmation.envelopeTo).toEqual(['jan@bakkerijjansen.nl']);
    expect(confirmation.subject).toBe('Afspraak bevestigd: Onderhoud cv-ketel');
    expect(confirmation.text).toContain('Monteur Sanne komt langs.');
    expect(confirmation.text).toContain('Prinsengracht 263, Amsterdam');
    const first = inviteOf(confirmation);
    expect(first).toMatchObject({
      method: 'REQUEST',
      uid: `${a.id}@mail.example.test`,
      sequence: 0,
      status: 'CONFIRMED',
    });
    expect(first.start.zone?.tzid).toBe('Europe/Amsterdam');
    expect(first.start.toString()).toBe('2026-03-27T09:00:00');
    expect(first.start.toJSDate().toISOString()).toBe('2026-03-27T08:00:00.000Z');
    expect(first.end.toJSDate().toISOString()).toBe('2026-03-27T10:00:00.000Z');

    // Moved across the clock change to Monday 30 March, 09:00 summer time (07:00 UTC).
    await api.call('updateAppointment', {
      key,
      params: { appointment: a.id },
      body: { starts_at: '2026-03-30T09:00:00+02:00' },
    });
    expect((await notify(a.id, { kind: 'update' })).status).toBe(202);
    const moved = inviteOf((await deliver())[0]);
    expect(moved).toMatchObject({ method: 'REQUEST', uid: first.uid, sequence: 1 });
    expect(moved.start.toString()).toBe('2026-03-30T09:00:00');
    expect(moved.start.toJSDate().toISOString()).toBe('2026-03-30T07:00:00.000Z');
    expect(moved.end.toJSDate().toISOString()).toBe('2026-03-30T09:00:00.000Z');

    // Cancelled with a message in the same step: METHOD:CANCEL for the same UID, a higher SEQUENCE.
    const cancelled = await api.call('cancelAppointment', {
      key,
      params: { appointment: a.id },
      body: { cancellation_reason: 'Monteur is ziek', notify_customer: true },
    });
    expect(cancelled.status).toBe(200);
    const [cancellation] = await deliver();
    expect(cancellation.text).toContain('Reden: Monteur is ziek');
    expect(inviteOf(cancellation)).toMatchObject({
      method: 'CANCEL',
      uid: first.uid,
      sequence: 2,
      status: 'CANCELLED',
    });
  });

  it('writes an all-day appointment as dates of the company day', async () => {
    const a = await appointmentOf(api, key, { starts_at: '2026-10-25T00:00:00+02:00', all_day: true });
    await notify(a.id, { kind: 'reminder', language: 'en' });
    const [mail] = await deliver();
    expect(mail.subject).toBe('Reminder: Onderhoud cv-ketel');
    const invite = inviteOf(mail);
    expect(invite.start.isDate).toBe(true);
    expect(invite.start.toString()).toBe('2026-10-25');
    expect(invite.end.toString()).toBe('2026-10-26');
  });

  it('sends an invitation without a time as a plain email asking for a time', async () => {
    const a = await appointmentOf(api, key, { starts_at: null });
    expect((await notify(a.id, { kind: 'invitation' })).status).toBe(202);
    const [mail] = await deliver();
    expect(mail.subject).toBe('Uitnodiging: Onderhoud cv-ketel');
    expect(mail.attachments).toEqual([]);
    expect(mail.replyTo?.value[0]?.address).toBe('info@dekker.nl');
  });
});

describe('refusals', () => {
  it('refuses kinds that do not fit the appointment (409) and sends nothing', async () => {
    const pending = await appointmentOf(api, key, { status: 'pending' });
    const past = await appointmentOf(api, key, { starts_at: '2026-02-01T09:00:00+01:00' });
    const invitation = await appointmentOf(api, key, { starts_at: null });
    const cases: [string, string, RegExp][] = [
      [pending.id, 'confirmation', /only sent for a confirmed appointment; this one is pending/],
      [pending.id, 'cancellation', /only sent for a cancelled appointment/],
      [pending.id, 'invitation', /pending appointment without a start/],
      [past.id, 'reminder', /starts in the future; this one is confirmed, starts_at 2026-02-01T08:00:00.000Z/],
      [invitation.id, 'update', /with a start; this one is pending, starts_at null/],
      [invitation.id, 'reminder', /starts in the future/],
    ];
    for (const [id, kind, detail] of cases) {
      const res = await notify(id, { kind });
      expect(res.status, kind).toBe(409);
      expect(res.body.detail).toMatch(detail);
    }
    expect(
      await api.sql`select 1 from outbound_emails where company_id = ${companyId} and status = 'queued'`,
    ).toHaveLength(0);
  });

  it('refuses an unsubscribed customer (409); a cancellation that must tell them leaves the appointment as it was', async () => {
    const customer = await customerOf(api, key);
    await api.sql`update customers set email_unsubscribed = true where company_id = ${companyId} and id = ${customer}`;
    const a = await appointmentOf(api, key, { customer_id: customer });
    const res = await notify(a.id, { kind: 'confirmation' });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/unsubscribed/);
    const cancel = await api.call('cancelAppointment', {
      key,
      params: { appointment: a.id },
      body: { notify_customer: true },
      headers: { 'accept-language': 'en' },
    });
    expect(cancel.body.detail).toMatch(/unsubscribed/);
    expect(cancel.status).toBe(409);
    expect((await api.call('getAppointment', { key, params: { appointment: a.id } })).body.data.status).toBe(
      'confirmed',
    );
  });

  it('needs the whatsapp feature (403) and has no approved WhatsApp template (409)', async () => {
    const a = await appointmentOf(api, key);
    const without = await notify(a.id, { kind: 'confirmation', channel: 'whatsapp' });
    expect(without.status).toBe(403);
    expect(without.body.code).toBe('feature_not_available');
    const other = await api.tenant();
    const b = await appointmentOf(api, other.key, {
      customer_id: await customerOf(api, other.key, { phone: '+31 6 1234 5678' }),
    });
    const res = await api.call('notifyAppointment', {
      key: other.key,
      params: { appointment: b.id },
      body: { kind: 'confirmation', channel: 'whatsapp' },
      headers: { 'accept-language': 'en' },
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/WhatsApp template/);
  });

  it('answers 429 with Retry-After past 250 messages in the hour, and a retry with the same key sends once', async () => {
    const a = await appointmentOf(api, key);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    expect((await notify(a.id, { kind: 'update' }, headers)).status).toBe(202);
    const again = await notify(a.id, { kind: 'update' }, headers);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await deliver()).toHaveLength(1);
    await api.sql`update outgoing_message_counts set count = 250 where company_id = ${companyId}`;
    const retryHeaders = { 'idempotency-key': crypto.randomUUID() };
    const limited = await notify(a.id, { kind: 'update' }, retryHeaders);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.detail).toBe('The company has sent 250 messages this hour, the most allowed; try again later.');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // The refusal is not kept as the key's answer: after the hour (the count gone), the same key sends it.
    await api.sql`delete from outgoing_message_counts where company_id = ${companyId}`;
    const retried = await notify(a.id, { kind: 'update' }, retryHeaders);
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await deliver()).toHaveLength(1);
  });
});
