// Inputs that once answered 500 with an error-level log line (some carrying personal data): each now answers a 4xx
// problem, or — for the inbound email relay, which retries a 5xx for ever — an answer that stops the retries, with
// the reason logged at warn. Nothing here logs at error level.
import { createHmac, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setChannelSettings } from '../../src/services/channel-settings.ts';
import { fixtureFiles } from '../features/files/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;
let inboundSecret: string;
const APP_SECRET = 'b7e1c9a3d5f2a8c4e6f0b1d3a5c7e9f2';
const PHONE_NUMBER_ID = '2098765431';

type LogLine = { level: number; msg: string } & Record<string, unknown>;
let logged: LogLine[] = [];

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  const settings = await setChannelSettings(api.db, companyId, {
    newInboundSecret: true,
    whatsappPhoneNumberId: PHONE_NUMBER_ID,
    whatsappAppSecret: APP_SECRET,
    whatsappVerifyToken: 'bad-input-verify',
  });
  inboundSecret = settings.inboundSecret ?? '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });
  api.deps.log = pino({ level: 'debug' }, sink);
});

beforeEach(() => {
  logged = [];
});

/** No line at error level or above (pino: error is 50). */
const errorLines = () =>
  logged.filter((line) => line.level >= 50).map((line) => `${line.msg} ${JSON.stringify(line.err).slice(0, 300)}`);
const warnLines = () => logged.filter((line) => line.level === 40);

describe('the review form', () => {
  it('refuses a NUL in a text field next to the field (422), stores nothing', async () => {
    const created = await api.call('createReviewRequest', {
      key,
      body: { name: 'Sanne Visser', email: 'sanne@example.nl', channel: 'link', language: 'nl' },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.body.data.url).pathname;
    const page = await api.app.request(`http://api.test${path}`);
    const token = /name="form_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const res = await api.app.request(`http://api.test${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://api.test', cookie },
      body: new URLSearchParams({ rating: '4', comment: 'Prima\u0000service', name: 'Sanne', form_token: token }),
    });
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(await res.text()).toContain('aria-invalid');
    const [{ count }] = await api.sql`select count(*)::int as count from reviews where company_id = ${companyId}`;
    expect(count).toBe(0);
    expect(errorLines()).toEqual([]);
  });
});

describe('uploads', () => {
  let quote: string;
  beforeAll(async () => {
    const customer = await api.call('createCustomer', { key, body: { name: 'Jan', email: 'jan@bakkerij.nl' } });
    const created = await api.call('createQuote', {
      key,
      body: {
        customer_id: customer.body.data.id,
        title: 'Schilderwerk',
        items: [{ name: 'Kozijn', quantity: 1, unit_price: 10, tax_rate: 21 }],
      },
    });
    quote = created.body.data.id;
  });

  /** A multipart body written by hand: a file part with the given Content-Disposition, and text fields. */
  function multipart(disposition: string, fields: Record<string, string> = {}) {
    const boundary = 'bad-input-boundary';
    const parts = [
      ...Object.entries(fields).map(
        ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
      `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: image/png\r\n\r\n`,
    ];
    const body = Buffer.concat([Buffer.from(parts.join('')), fixtureFiles.png, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return { body: new Uint8Array(body), type: `multipart/form-data; boundary=${boundary}` };
  }

  const upload = (form: { body: Uint8Array<ArrayBuffer>; type: string }) =>
    api.call('createQuoteAttachment', {
      key,
      params: { quote },
      rawBody: form.body,
      headers: { 'content-type': form.type },
    });

  it("refuses a NUL in the file name's filename* (422 at /file)", async () => {
    const res = await upload(multipart(`form-data; name="file"; filename*=UTF-8''offerte%00.pdf`));
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '/file', code: 'invalid_format' }]);
    expect(errorLines()).toEqual([]);
  });

  it('refuses a NUL in the description (422 at /description)', async () => {
    const res = await upload(multipart('form-data; name="file"; filename="offerte.pdf"', { description: 'a\u0000b' }));
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '/description', code: 'invalid_format' }]);
    const [{ count }] = await api.sql`select count(*)::int as count from files where company_id = ${companyId}`;
    expect(count).toBe(0);
    expect(errorLines()).toEqual([]);
  });
});

describe('inbound email', () => {
  const post = (raw: string) =>
    api.call('receiveInboundEmail', {
      rawBody: new TextEncoder().encode(raw.replace(/\r?\n/g, '\r\n')),
      headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${inboundSecret}` },
    });
  let n = 0;
  const mail = (headers: string, body = 'Hallo') =>
    `${headers}\nSubject: Vraag ${++n}\nContent-Type: text/plain; charset=utf-8\n\n${body}\n`;

  it('refuses a 4 000-character From address (422, logged at warn without the address)', async () => {
    // Random, so that PostgreSQL cannot compress it under its index entry limit (as it would `aaaa…`).
    const from = `${randomBytes(2000).toString('hex')}@example.nl`;
    const res = await post(mail(`From: ${from}\nMessage-ID: <long-from-${Date.now()}@example.nl>`));
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '', code: 'too_long' }]);
    expect(errorLines()).toEqual([]);
    expect(warnLines()).toMatchObject([{ reason: 'sender_too_long' }]);
    expect(JSON.stringify(logged)).not.toContain(from.slice(0, 40));
  });

  it('stores a mail with a 4 000-character Message-ID once, identified by a digest of it', async () => {
    const raw = mail(`From: petra@example.nl\nMessage-ID: <${randomBytes(2000).toString('hex')}@example.nl>`);
    const first = await post(raw);
    expect(first.status, JSON.stringify(errorLines())).toBe(201);
    const again = await post(raw);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(errorLines()).toEqual([]);
  });

  it('refuses a mail with 2 000 attachments (more MIME parts than are read: 422, logged at warn)', async () => {
    const boundary = 'many-attachments';
    const parts = Array.from(
      { length: 2000 },
      (_, i) =>
        `--${boundary}\nContent-Type: text/plain; name="bijlage-${i}.txt"\nContent-Disposition: attachment; filename="bijlage-${i}.txt"\n\nx\n`,
    ).join('');
    const raw = `From: petra@example.nl\nMessage-ID: <many-${Date.now()}@example.nl>\nSubject: Bijlagen\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="${boundary}"\n\n--${boundary}\nContent-Type: text/plain\n\nZie bijlagen\n${parts}--${boundary}--\n`;
    const res = await post(raw);
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '', code: 'too_big' }]);
    expect(errorLines()).toEqual([]);
    expect(warnLines()).toMatchObject([{ reason: 'too_complex' }]);
  });

  it('refuses a mail with 1.2 MB of headers (422, logged at warn)', async () => {
    const headers = Array.from({ length: 12_000 }, (_, i) => `X-Filler-${i}: ${'h'.repeat(90)}`).join('\n');
    const res = await post(mail(`From: petra@example.nl\nMessage-ID: <headers-${Date.now()}@example.nl>\n${headers}`));
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ pointer: '', code: 'too_big' }]);
    expect(errorLines()).toEqual([]);
    expect(warnLines()).toMatchObject([{ reason: 'too_complex' }]);
  });
});

describe('appointment availability', () => {
  it.each([
    ['0001-01-01T00:00:00Z', '0001-01-02T00:00:00Z', 'from'],
    ['9999-12-30T00:00:00Z', '9999-12-31T23:59:59Z', 'until'],
  ])('refuses from %s (422 naming the parameter beyond ten years)', async (from, until, parameter) => {
    const res = await api.call('getAppointmentAvailability', { key, query: { from, until } });
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ parameter }]);
    expect(errorLines()).toEqual([]);
  });
});

describe('the WhatsApp webhook', () => {
  it('refuses an over-long signature with a body that is not JSON (422 on the header)', async () => {
    const res = await api.call('receiveWhatsAppWebhook', {
      rawBody: new TextEncoder().encode('T='),
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'a'.repeat(250)}` },
    });
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(res.body.errors).toMatchObject([{ parameter: 'X-Hub-Signature-256' }]);
    expect(errorLines()).toEqual([]);
  });

  it('still answers a signed body that is not JSON with 422 invalid_json', async () => {
    const body = 'T=';
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
    const res = await api.call('receiveWhatsAppWebhook', {
      rawBody: new TextEncoder().encode(body),
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    });
    expect(res.status, JSON.stringify(errorLines())).toBe(422);
    expect(errorLines()).toEqual([]);
  });
});
