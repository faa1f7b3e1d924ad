// Inbound email as a relay posts it (raw RFC 822): plain, HTML only, non-UTF-8 charsets, attachments, a reply
// threaded into the conversation of an email we sent (through a real SMTP server), the same mail twice, the
// company's inbound secret (wrong: 401), the size limit (413).
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { customerRow } from './fixtures.ts';

let api: TestApi;
let smtp: TestSmtp;
let company: { key: string; companyId: string };
let secret: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'inbox@mail.example.test' });
  company = await api.tenant();
  const settings = await setChannelSettings(api.db, company.companyId, { newInboundSecret: true });
  secret = settings.inboundSecret ?? '';
  expect(secret).toMatch(/^ibs_/);
  return () => smtp.close();
});

const CRLF = (text: string) => text.replace(/\r?\n/g, '\r\n');

/** A mail as its lines, with the given headers and body (CRLF line ends, as on the wire). */
const mail = (headers: Record<string, string>, body: string) =>
  CRLF(
    `${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n')}\n\n${body}`,
  );

const post = (
  raw: string | Uint8Array<ArrayBuffer>,
  authorization: string | null = `Bearer ${secret}`,
  type = 'message/rfc822',
) =>
  api.call('receiveInboundEmail', {
    rawBody: typeof raw === 'string' ? new TextEncoder().encode(raw) : raw,
    headers: { 'content-type': type, ...(authorization ? { authorization } : {}) },
  });

let sequence = 0;
const messageId = () => `<${Date.now()}.${++sequence}@mail.devries-bouw.nl>`;

const conversation = (id: string) =>
  api.call<'getConversation'>('getConversation', { key: company.key, params: { conversation: id } });

describe('a new email', () => {
  it('becomes a lead’s new conversation with the subject, its text as body, and its events', async () => {
    const res = await post(
      mail(
        {
          From: 'Petra de Vries <petra@devries-bouw.nl>',
          To: 'info@schildersbedrijf.nl',
          Subject: 'Offerte schilderwerk kozijnen',
          'Message-ID': messageId(),
          Date: 'Mon, 2 Mar 2026 10:15:00 +0100',
          'Content-Type': 'text/plain; charset=utf-8',
        },
        'Goedemorgen,\n\nKunnen jullie een offerte maken voor het schilderen van 12 kozijnen?\n\nPetra',
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      sender: 'customer',
      body: 'Goedemorgen,\n\nKunnen jullie een offerte maken voor het schilderen van 12 kozijnen?\n\nPetra',
      email_subject: 'Offerte schilderwerk kozijnen',
      attachment: null,
    });
    const shown = await conversation(res.body.data.conversation_id);
    expect(shown.body.data).toMatchObject({
      channel: 'email',
      status: 'open',
      subject: 'Offerte schilderwerk kozijnen',
      message_count: 1,
      customer: { name: 'Petra de Vries', email: 'petra@devries-bouw.nl' },
    });
    const [lead] = await api.sql`select status from customers where id = ${shown.body.data.customer_id}`;
    expect(lead?.status).toBe('lead');
    const events = await api.sql`select type from events where company_id = ${company.companyId}
      and (customer_id = ${shown.body.data.customer_id} or data->'object'->>'id' = ${res.body.data.id}) order by type`;
    expect(events.map((e) => e.type)).toEqual(['conversation.created', 'customer.created', 'message.created']);
  });

  it('joins a known customer (address in another case) without making a lead', async () => {
    const customerId = await customerRow(api, company.companyId, {
      name: 'Henk Bakker',
      email: 'henk@bakkerij-bakker.nl',
    });
    const res = await post(
      mail(
        { From: 'HENK@Bakkerij-Bakker.nl', Subject: 'Vraag', 'Message-ID': messageId(), 'Content-Type': 'text/plain' },
        'Hallo',
      ),
    );
    expect(res.status).toBe(201);
    expect((await conversation(res.body.data.conversation_id)).body.data.customer_id).toBe(customerId);
  });

  it('converts an HTML-only mail to text', async () => {
    const res = await post(
      mail(
        {
          From: 'jan@example.nl',
          Subject: 'Dakgoot',
          'Message-ID': messageId(),
          'Content-Type': 'text/html; charset=utf-8',
        },
        '<html><body><p>Beste <b>Jan</b>,</p><p>Kunt u ook de <a href="https://example.nl/goot">dakgoot</a> meenemen?</p><script>alert(1)</script></body></html>',
      ),
    );
    expect(res.status).toBe(201);
    const { body } = res.body.data;
    expect(body).toContain('Beste Jan,');
    expect(body).toContain('Kunt u ook de dakgoot');
    expect(body).not.toContain('<');
    expect(body).not.toContain('alert');
  });

  it('decodes ISO-8859-1 (8bit, encoded-word subject) and windows-1252 (quoted-printable) text', async () => {
    const latin1 = Buffer.from(
      mail(
        {
          From: '=?ISO-8859-1?Q?Jos=E9_M=FCller?= <jose@muller-vastgoed.nl>',
          Subject: '=?ISO-8859-1?Q?Co=F6rdinatie_schilderwerk?=',
          'Message-ID': messageId(),
          'MIME-Version': '1.0',
          'Content-Type': 'text/plain; charset=ISO-8859-1',
          'Content-Transfer-Encoding': '8bit',
        },
        'Geachte heer, wij gaan akkoord met de prijs. Één coördinator, café-eigenaar José.',
      ),
      'latin1',
    );
    const first = await post(new Uint8Array(latin1));
    expect(first.status).toBe(201);
    expect(first.body.data.body).toBe(
      'Geachte heer, wij gaan akkoord met de prijs. Één coördinator, café-eigenaar José.',
    );
    expect(first.body.data.email_subject).toBe('Coördinatie schilderwerk');
    expect((await conversation(first.body.data.conversation_id)).body.data.customer.name).toBe('José Müller');

    const cp1252 = await post(
      mail(
        {
          From: 'info@aannemer.nl',
          Subject: 'Prijs',
          'Message-ID': messageId(),
          'Content-Type': 'text/plain; charset=windows-1252',
          'Content-Transfer-Encoding': 'quoted-printable',
        },
        'Totaal =80 1.250,00 =96 inclusief =91btw=92, =E9=E9n termijn.',
      ),
    );
    expect(cp1252.status).toBe(201);
    expect(cp1252.body.data.body).toBe('Totaal € 1.250,00 – inclusief ‘btw’, één termijn.');
  });

  it('describes attachments: the first in `attachment`, every name at the end of the body', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
    const res = await post(
      mail(
        {
          From: 'Petra de Vries <petra@devries-bouw.nl>',
          Subject: 'Tekeningen',
          'Message-ID': messageId(),
          'MIME-Version': '1.0',
          'Content-Type': 'multipart/mixed; boundary="grens"',
        },
        [
          '--grens',
          'Content-Type: text/plain; charset=utf-8',
          '',
          'Hierbij de tekening en een foto van de achtergevel.',
          '--grens',
          'Content-Type: application/pdf; name="tekening gevel.pdf"',
          'Content-Disposition: attachment; filename="tekening gevel.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          pdf.toString('base64'),
          '--grens',
          'Content-Type: image/jpeg',
          'Content-Disposition: attachment; filename="achtergevel.jpg"',
          'Content-Transfer-Encoding: base64',
          '',
          jpeg.toString('base64'),
          '--grens--',
          '',
        ].join('\n'),
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.body).toBe(
      'Hierbij de tekening en een foto van de achtergevel.\n\n[Attachments: tekening gevel.pdf, achtergevel.jpg]',
    );
    expect(res.body.data.attachment).toEqual({
      name: 'tekening gevel.pdf',
      mime_type: 'application/pdf',
      size: pdf.length,
    });
  });

  it('stores the same Message-ID once: posted again, it answers 200 with the message stored first', async () => {
    const raw = mail(
      { From: 'kees@example.nl', Subject: 'Twee keer', 'Message-ID': messageId(), 'Content-Type': 'text/plain' },
      'Eén keer opslaan',
    );
    const first = await post(raw);
    const again = await post(raw);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    expect((await conversation(first.body.data.conversation_id)).body.data.message_count).toBe(1);
  });

  it('refuses a mail without a sender address (422)', async () => {
    const res = await post(mail({ Subject: 'Zonder afzender', 'Message-ID': messageId() }, 'Hallo'));
    expect(res.status).toBe(422);
  });
});

describe('a reply', () => {
  it('joins the conversation of the email we sent (its Message-ID from a real SMTP server) and reopens it', async () => {
    const first = await post(
      mail(
        {
          From: 'Anna Smit <anna@smit-installatie.nl>',
          Subject: 'Schilderwerk hal',
          'Message-ID': messageId(),
          'Content-Type': 'text/plain',
        },
        'Kunnen jullie de hal schilderen?',
      ),
    );
    const conversationId = first.body.data.conversation_id;
    const sent = await api.call('createConversationMessage', {
      key: company.key,
      params: { conversation: conversationId },
      body: { body: 'Beste Anna, dat kan in week 12.' },
    });
    expect(sent.status).toBe(201);
    const [stored] = await api.sql`select outbound_email_id from conversation_messages where id = ${sent.body.data.id}`;
    await taskList(api.deps).email_send(
      { companyId: company.companyId, emailId: stored?.outbound_email_id },
      {} as JobHelpers,
    );
    const delivered = await smtp.waitFor((m) => m.envelopeTo.includes('anna@smit-installatie.nl'));
    expect(delivered.messageId).toMatch(/^<em_/);
    await api.call('closeConversation', { key: company.key, params: { conversation: conversationId } });

    // The customer's mail client answers: In-Reply-To and References name our Message-ID.
    const reply = await post(
      mail(
        {
          From: 'Anna Smit <anna@smit-installatie.nl>',
          Subject: 'Re: Schilderwerk hal',
          'Message-ID': messageId(),
          'In-Reply-To': delivered.messageId as string,
          References: `<older@example.nl> ${delivered.messageId}`,
          'Content-Type': 'text/plain',
        },
        'Week 12 is prima.\n\n> Beste Anna, dat kan in week 12.',
      ),
    );
    expect(reply.status).toBe(201);
    expect(reply.body.data.conversation_id).toBe(conversationId);
    expect((await conversation(conversationId)).body.data).toMatchObject({
      status: 'waiting_on_team',
      closed_at: null,
      message_count: 3,
    });

    // A reply to the customer's own earlier mail (its Message-ID as we stored it) joins the same conversation.
    const [incoming] =
      await api.sql`select email_message_id from conversation_messages where id = ${first.body.data.id}`;
    const later = await post(
      mail(
        {
          From: 'anna@smit-installatie.nl',
          Subject: 'Re: Schilderwerk hal',
          'Message-ID': messageId(),
          References: incoming?.email_message_id,
          'Content-Type': 'text/plain',
        },
        'Nog een vraag over de kleur.',
      ),
    );
    expect(later.body.data.conversation_id).toBe(conversationId);
  });

  it('starts a new conversation when the mail it answers is unknown', async () => {
    const res = await post(
      mail(
        {
          From: 'anna@smit-installatie.nl',
          Subject: 'Re: iets anders',
          'Message-ID': messageId(),
          'In-Reply-To': '<unknown@elsewhere.nl>',
          'Content-Type': 'text/plain',
        },
        'Andere vraag',
      ),
    );
    expect(res.status).toBe(201);
    expect((await conversation(res.body.data.conversation_id)).body.data.message_count).toBe(1);
  });
});

describe('another sender', () => {
  it('naming a conversation’s Message-IDs neither joins it nor is dropped as its duplicate', async () => {
    const herId = messageId();
    const hers = await post(
      mail(
        { From: 'Lotte Bakker <lotte@bakker-advies.nl>', Subject: 'Offerte gevel', 'Message-ID': herId },
        'Mijn adres is Dorpsstraat 1, mijn telefoon 06 11122233.',
      ),
    );
    expect(hers.status).toBe(201);
    const herConversation = hers.body.data.conversation_id;

    // Someone else answers "in her thread": In-Reply-To and References name her mail.
    const intruder = await post(
      mail(
        {
          From: 'mallory@example.org',
          Subject: 'Re: Offerte gevel',
          'Message-ID': messageId(),
          'In-Reply-To': herId,
          References: herId,
        },
        'Stuur de offerte maar naar dit adres.',
      ),
    );
    expect(intruder.status).toBe(201);
    expect(intruder.body.data.conversation_id).not.toBe(herConversation);
    const own = (await conversation(intruder.body.data.conversation_id)).body.data;
    expect(own.customer.email).toBe('mallory@example.org');
    expect(own.message_count).toBe(1);

    // And reuses her Message-ID: a mail of its own, stored, not her message answered as a duplicate.
    const reused = await post(
      mail({ From: 'mallory@example.org', Subject: 'Nog iets', 'Message-ID': herId }, 'Tweede bericht.'),
    );
    expect(reused.status).toBe(201);
    expect(reused.body.data.id).not.toBe(hers.body.data.id);
    expect(reused.body.data.conversation_id).not.toBe(herConversation);
    expect((await conversation(herConversation)).body.data.message_count).toBe(1);

    // Her own reply, from her address in another case, still joins and is still deduplicated.
    const reply = mail(
      { From: 'LOTTE@bakker-advies.nl', Subject: 'Re: Offerte gevel', 'Message-ID': messageId(), 'In-Reply-To': herId },
      'Nog een foto volgt.',
    );
    const joined = await post(reply);
    expect(joined.body.data.conversation_id).toBe(herConversation);
    const again = await post(reply);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(joined.body.data.id);
  });
});

describe('the relay', () => {
  const simple = () => mail({ From: 'x@example.nl', Subject: 'Test', 'Message-ID': messageId() }, 'Hallo');

  it('refuses a wrong or missing secret with 401 and stores nothing', async () => {
    const raw = simple();
    for (const authorization of [
      'Bearer ibs_wrong',
      null,
      `Basic ${Buffer.from('inbound:ibs_wrong').toString('base64')}`,
    ]) {
      const res = await post(raw, authorization);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
    const [{ count }] = await api.sql`select count(*)::int as count from customers where email = 'x@example.nl'`;
    expect(count).toBe(0);
  });

  it('takes the secret as the password of Basic authentication', async () => {
    const res = await post(simple(), `Basic ${Buffer.from(`inbound:${secret}`).toString('base64')}`);
    expect(res.status).toBe(201);
  });

  it('refuses another media type (415) and a mail over 10 MB (413)', async () => {
    expect((await post(simple(), `Bearer ${secret}`, 'text/plain')).status).toBe(415);
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    const res = await post(big);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});

describe('failed secrets', () => {
  it('count against the client address like failed API keys: past the limit, 429 before any secret is judged', async () => {
    const limited = await setupApi({}, { authFailureWindows: [{ name: 'auth', limit: 2, windowSeconds: 60 }] });
    const tenant = await limited.tenant();
    const { inboundSecret } = await setChannelSettings(limited.db, tenant.companyId, { newInboundSecret: true });
    const send = (authorization: string) =>
      limited.call('receiveInboundEmail', {
        rawBody: new TextEncoder().encode(
          mail({ From: 'x@example.nl', Subject: 'Test', 'Message-ID': messageId() }, 'Hallo'),
        ),
        headers: { 'content-type': 'message/rfc822', authorization },
      });
    expect((await send('Bearer ibs_guess1')).status).toBe(401);
    expect((await send('Bearer ibs_guess2')).status).toBe(401);
    // Now even the right secret is not judged until the window frees up: guessing stops at the limit.
    const right = await send(`Bearer ${inboundSecret}`);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    const [{ count }] = await limited.sql`select count(*)::int as count from conversation_messages
      where company_id = ${tenant.companyId}`;
    expect(count).toBe(0);
  });
});
