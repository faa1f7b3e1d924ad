// Review requests: creation by channel (email through the outbox with an unsubscribe link, link sends nothing,
// whatsapp without a template refused: whatsapp-requests.test.ts has the rest), the three 409 rules with the cooldown checked by moving earlier requests back in time, the
// 422s of the recipient, list and get.
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { queuedJobsOf } from '../../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';

let api: TestApi;
let smtp: TestSmtp;
let key: string;
let companyId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'reviews@mail.example.test' });
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
});
afterAll(() => smtp.close());

const email = () => `${crypto.randomUUID()}@example.nl`;

async function customer(body: Record<string, unknown> = {}) {
  const res = await api.call('createCustomer', { key, body: { name: 'Jan Jansen', email: email(), ...body } });
  return res.body.data;
}

/** Moves the recipient's requests `days` back in time: what the clock moving forward would do. */
async function age(requestId: string, days: number) {
  await api.sql`update review_requests set created_at = created_at - make_interval(days => ${days}),
    sent_at = sent_at - make_interval(days => ${days}) where id = ${requestId}`;
}

describe('createReviewRequest', () => {
  it('email: queues the email with the page link and an unsubscribe link, which arrive at the SMTP server', async () => {
    const c = await customer({ name: 'Greta Müller' });
    const res = await api.call('createReviewRequest', {
      key,
      body: { customer_id: c.id, channel: 'email', language: 'de' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const data = res.body.data;
    expect(data).toMatchObject({
      status: 'sent',
      channel: 'email',
      trigger: 'api',
      customer_id: c.id,
      recipient: { name: 'Greta Müller', email: c.email, phone: null },
      language: 'de',
      review_id: null,
    });
    expect(data.url).toMatch(/^http:\/\/api\.test\/review\/[A-Za-z0-9_-]{46}$/);
    const jobs = await queuedJobsOf(api, 'email_send', companyId);
    const send = taskList({ ...api.deps, config: api.config }).email_send;
    for (const job of jobs) await send(job.payload as { companyId: string; emailId: string }, {} as JobHelpers);
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes(c.email));
    expect(mail.subject).toMatch(/^Wie waren wir\?/);
    expect(mail.text).toContain('Guten Tag Greta Müller,');
    expect(mail.text).toContain(data.url);
    expect(mail.text).toContain(`${data.url}/unsubscribe`);
    // Folded by the sender: unfold before reading the header.
    expect(mail.raw.toString().replace(/\r\n\s+/g, ' ')).toContain(`List-Unsubscribe: <${data.url}/unsubscribe>`);
    const counted = await api.sql`select count from outgoing_message_counts where company_id = ${companyId}`;
    expect(counted[0]?.count).toBeGreaterThanOrEqual(1);
  });

  it('link: sends nothing, for a recipient who is not a customer', async () => {
    const before = await api.sql`select count(*)::int as n from outbound_emails where company_id = ${companyId}`;
    const res = await api.call('createReviewRequest', { key, body: { name: 'Pieter de Graaf', channel: 'link' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'sent',
      channel: 'link',
      customer_id: null,
      scheduled_at: null,
      language: 'nl',
    });
    const after = await api.sql`select count(*)::int as n from outbound_emails where company_id = ${companyId}`;
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('whatsapp without a template nor a message of the customer is refused with 409 and creates nothing', async () => {
    const res = await api.call('createReviewRequest', {
      key,
      body: { name: 'Sanne', phone: '+31612345678', channel: 'whatsapp' },
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/WhatsApp-?(template|sjabloon)/i);
    const [row] = await api.sql`select count(*)::int as n from review_requests where recipient_phone = '+31612345678'`;
    expect(row?.n).toBe(0);
  });

  it('422: name without a customer, email for channel email, an unknown customer', async () => {
    const none = await api.call('createReviewRequest', { key, body: { channel: 'email' } });
    expect(none.status).toBe(422);
    expect(none.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/name', 'required'],
      ['/email', 'required'],
    ]);
    const unknown = await api.call('createReviewRequest', {
      key,
      body: { customer_id: '01900000-0000-7000-8000-000000000000', channel: 'link' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: '/customer_id', code: 'invalid_reference' });
  });
});

describe('the three rules (409 naming the rule)', () => {
  it('no second open request to the same customer', async () => {
    const c = await customer();
    expect((await api.call('createReviewRequest', { key, body: { customer_id: c.id, channel: 'link' } })).status).toBe(
      201,
    );
    const second = await api.call('createReviewRequest', { key, body: { customer_id: c.id, channel: 'email' } });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatch(/^Regel "één open verzoek"/);
  });

  it('no second open request to the same address without a customer', async () => {
    const address = email();
    await api.call('createReviewRequest', { key, body: { name: 'A', email: address, channel: 'email' } });
    const second = await api.call('createReviewRequest', {
      key,
      body: { name: 'A', email: address.toUpperCase(), channel: 'email' },
      headers: { 'Accept-Language': 'en' },
    });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatch(/^Rule "one open request"/);
  });

  it('the cooldown: 90 days after the last request (completed or expired), not after a failed one', async () => {
    const c = await customer();
    const first = await api.call('createReviewRequest', { key, body: { customer_id: c.id, channel: 'link' } });
    await api.sql`update review_requests set status = 'expired' where id = ${first.body.data.id}`;
    await age(first.body.data.id, 89);
    const early = await api.call('createReviewRequest', {
      key,
      body: { customer_id: c.id, channel: 'link' },
      headers: { 'Accept-Language': 'en' },
    });
    expect(early.status).toBe(409);
    expect(early.body.detail).toMatch(/^Rule "cooldown": .* less than 90 days ago/);
    await age(first.body.data.id, 2);
    const later = await api.call('createReviewRequest', { key, body: { customer_id: c.id, channel: 'link' } });
    expect(later.status).toBe(201);
    // A failed request does not count.
    const d = await customer();
    const failed = await api.call('createReviewRequest', { key, body: { customer_id: d.id, channel: 'link' } });
    await api.sql`update review_requests set status = 'failed' where id = ${failed.body.data.id}`;
    expect((await api.call('createReviewRequest', { key, body: { customer_id: d.id, channel: 'link' } })).status).toBe(
      201,
    );
  });

  it('an unsubscribed customer or an opted-out address gets none, on any channel', async () => {
    const c = await customer();
    await api.sql`update customers set email_unsubscribed = true where id = ${c.id}`;
    const res = await api.call('createReviewRequest', { key, body: { customer_id: c.id, channel: 'link' } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/^Regel "afgemeld"/);
    const address = email();
    await api.sql`insert into review_opt_outs (company_id, address) values (${companyId}, ${address})`;
    const optedOut = await api.call('createReviewRequest', {
      key,
      body: { name: 'B', email: address, channel: 'link' },
    });
    expect(optedOut.status).toBe(409);
    expect(await api.sql`select 1 from review_requests where recipient_email = ${address}`).toHaveLength(0);
  });
});

describe('listReviewRequests and getReviewRequest', () => {
  it('lists newest first with filters and gets one', async () => {
    const t = await api.tenant();
    const a = await api.call('createReviewRequest', { key: t.key, body: { name: 'A', channel: 'link' } });
    const b = await api.call('createReviewRequest', {
      key: t.key,
      body: { name: 'B', email: email(), channel: 'link' },
    });
    await api.sql`update review_requests set status = 'expired' where id = ${a.body.data.id}`;
    const list = await api.call('listReviewRequests', { key: t.key });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([b.body.data.id, a.body.data.id]);
    const expired = await api.call('listReviewRequests', { key: t.key, query: { 'filter[status]': 'expired' } });
    expect(expired.body.data.map((r: { id: string }) => r.id)).toEqual([a.body.data.id]);
    const got = await api.call('getReviewRequest', { key: t.key, params: { review_request: b.body.data.id } });
    expect(got.body.data).toEqual(b.body.data);
    const other = await api.call('getReviewRequest', { key, params: { review_request: b.body.data.id } });
    expect(other.status).toBe(404);
  });
});

describe('url, a write credential', () => {
  it('is shown only to keys with reviews.write: null for a key that may only read reviews', async () => {
    const res = await api.call('createReviewRequest', { key, body: { name: 'Els Visser', channel: 'link' } });
    expect(res.status).toBe(201);
    const { id, url } = res.body.data;
    expect(url).toMatch(/^http:\/\/api\.test\/review\//);
    const reader = await api.key(companyId, { scopes: ['reviews.read'] });
    const one = await api.call('getReviewRequest', { key: reader.key, params: { review_request: id } });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id, url: null });
    const list = await api.call('listReviewRequests', { key: reader.key, query: { limit: 100 } });
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((r: { url: string | null }) => r.url === null)).toBe(true);
    const writer = await api.key(companyId, { scopes: ['reviews.read', 'reviews.write'] });
    const seen = await api.call('getReviewRequest', { key: writer.key, params: { review_request: id } });
    expect(seen.body.data.url).toBe(url);
  });
});

describe('the unsubscribe link (no key)', () => {
  it('GET asks, POST opts the address out, and the next request is refused; an unknown link is a plain 404 page', async () => {
    const address = email();
    const res = await api.call('createReviewRequest', { key, body: { name: 'Ria', email: address, channel: 'email' } });
    const path = new URL(`${res.body.data.url}/unsubscribe`).pathname;
    const ask = await api.app.request(path);
    expect(ask.status).toBe(200);
    const page = await ask.text();
    expect(page).toContain('<html lang="nl">');
    expect(page).toContain('<button type="submit">Afmelden</button>');
    // Asking changes nothing: a mail scanner that follows the link unsubscribes no one.
    expect(await api.sql`select 1 from review_opt_outs where address = ${address}`).toHaveLength(0);
    const done = await api.app.request(path, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('U ontvangt geen reviewverzoeken meer');
    expect(await api.sql`select 1 from review_opt_outs where address = ${address}`).toHaveLength(1);
    await api.sql`update review_requests set status = 'completed' where id = ${res.body.data.id}`;
    const next = await api.call('createReviewRequest', {
      key,
      body: { name: 'Ria', email: address, channel: 'email' },
    });
    expect(next.status).toBe(409);
    expect(next.body.detail).toMatch(/afgemeld/);
    const unknown = await api.app.request('/review/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/unsubscribe');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('This link is not valid.');
  });
});
