// The language and formats of messages about an appointment: a cancellation with notify_customer writes in the
// customer's language (the last message's, or the request's), English dates are British as on the PDFs, and
// French labels have the no-break space before the colon.
import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/services/companies.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { appointmentOf, customerOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ features: FEATURES.filter((f) => f !== 'whatsapp') }));
  await api.sql`update companies set name = 'Installatiebedrijf Dekker', language = 'nl' where id = ${companyId}`;
  api.deps.clock = () => new Date('2026-03-01T12:00:00Z');
});

/** The newest queued email of the company. */
async function lastEmail() {
  const [mail] = await api.sql<{ subject: string; body: string }[]>`
    select subject, body from outbound_emails where company_id = ${companyId} order by created_at desc, id desc limit 1`;
  return mail;
}

const appointment = async () =>
  appointmentOf(api, key, {
    customer_id: await customerOf(api, key, {
      name: 'Emma Clarke',
      email: `emma+${crypto.randomUUID()}@example.co.uk`,
    }),
    title: 'Boiler service',
    starts_at: '2026-03-27T09:00:00+01:00',
    ends_at: '2026-03-27T11:00:00+01:00',
    location: '10 Downing Street, London',
  });

const notify = (id: string, body: Record<string, unknown>) =>
  api.call('notifyAppointment', { key, params: { appointment: id }, body });
const cancel = (id: string, body: Record<string, unknown>) =>
  api.call('cancelAppointment', { key, params: { appointment: id }, body });

describe('a cancellation with notify_customer', () => {
  it('is written in the language of the last message to the customer, not the company’s', async () => {
    const a = await appointment();
    expect((await notify(a.id, { kind: 'confirmation', language: 'en' })).status).toBe(202);
    expect((await cancel(a.id, { notify_customer: true, cancellation_reason: 'The engineer is ill' })).status).toBe(
      200,
    );
    const mail = await lastEmail();
    expect(mail.subject).toBe('Appointment cancelled: Boiler service');
    expect(mail.body).toContain('Your appointment has been cancelled.');
    expect(mail.body).toContain('Reason: The engineer is ill');
    expect(mail.body).not.toMatch(/Afspraak|geannuleerd/);
  });

  it('takes the language the request names, and the company’s when nothing was sent before', async () => {
    const a = await appointment();
    expect((await cancel(a.id, { notify_customer: true, language: 'de' })).status).toBe(200);
    expect((await lastEmail()).subject).toBe('Termin abgesagt: Boiler service');
    const b = await appointment();
    expect((await cancel(b.id, { notify_customer: true })).status).toBe(200);
    expect((await lastEmail()).subject).toBe('Afspraak geannuleerd: Boiler service');
  });
});

describe('dates and labels', () => {
  it('writes English dates British-style (day before month), as the PDFs do', async () => {
    const a = await appointment();
    await notify(a.id, { kind: 'reminder', language: 'en' });
    const mail = await lastEmail();
    expect(mail.body).toContain('When: Friday, 27 March 2026, 09:00 – 11:00');
    expect(mail.body).not.toMatch(/March 27|AM|PM/);
  });

  it('puts the no-break space before the colon in French', async () => {
    const a = await appointment();
    await notify(a.id, { kind: 'reminder', language: 'fr' });
    const mail = await lastEmail();
    expect(mail.subject).toBe('Rappel\u00A0: Boiler service');
    expect(mail.body).toContain('Quand\u00A0: vendredi 27 mars 2026, 09:00 – 11:00');
    expect(mail.body).toContain('Où\u00A0: 10 Downing Street, London');
    expect(mail.body).not.toMatch(/\p{L}:/u);
  });

  it('writes Dutch and German dates in their own style', async () => {
    const a = await appointment();
    await notify(a.id, { kind: 'reminder', language: 'nl' });
    expect((await lastEmail()).body).toContain('Wanneer: vrijdag 27 maart 2026, 09:00 – 11:00');
    await notify(a.id, { kind: 'reminder', language: 'de' });
    expect((await lastEmail()).body).toContain('Wann: Freitag, 27. März 2026, 09:00 – 11:00');
  });
});
