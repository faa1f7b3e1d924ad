// Sending a message through the API over each channel: web chat (stored for the widget), email (a real SMTP
// server receives the reply in the customer's thread) and WhatsApp (a local fake of the Graph API receives it;
// a controllable clock drives the 24-hour window). A refusal stores nothing; sending stops the AI agent.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskList } from '../../../src/jobs/worker.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { closeServerAtFileEnd } from '../../harness/file-end.ts';
import { queuedJobsOf } from '../../harness/jobs.ts';
import { startSmtpServer, type TestSmtp } from '../../harness/smtp.ts';
import { conversationOf, customerRow } from './fixtures.ts';

let api: TestApi;
let smtp: TestSmtp;
let key: string;
let companyId: string;
let now = new Date();

type GraphCall = { path: string; authorization: string | undefined; body: Record<string, unknown> };
const graphCalls: GraphCall[] = [];
let graphAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let graphUrl: string;

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await setupApi({ SMTP_URL: smtp.url, MAIL_FROM: 'inbox@mail.example.test' });
  // The process's clock: the channels read it at each send (WhatsApp's 24-hour window).
  api.deps.clock = () => now;
  ({ key, companyId } = await api.tenant());
  const graph = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    graphCalls.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    res.writeHead(graphAnswer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(graphAnswer.body));
  });
  await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
  graphUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}/v21.0`;
  closeServerAtFileEnd(graph);
});
afterAll(() => smtp.close());

const send = (conversation: string, body: string, headers: Record<string, string> = {}, k = key) =>
  api.call('createConversationMessage', {
    key: k,
    params: { conversation },
    body: { body },
    headers,
  });

const messageCount = async (conversation: string) =>
  Number((await api.sql`select count(*) from conversation_messages where conversation_id = ${conversation}`)[0].count);

describe('web chat', () => {
  it('stores the message as api, moves the conversation to waiting_on_customer and stops the AI agent', async () => {
    const row = await conversationOf(api, companyId, { channel: 'web' });
    const res = await send(row.id, 'Goedemorgen Jan, dat kan zeker.');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      object: 'message',
      conversation_id: row.id,
      sender: 'api',
      user_id: null,
      body: 'Goedemorgen Jan, dat kan zeker.',
      email_subject: null,
      whatsapp_status: null,
    });
    const conversation = await api.call<'getConversation'>('getConversation', {
      key,
      params: { conversation: row.id },
    });
    expect(conversation.body.data).toMatchObject({
      status: 'waiting_on_customer',
      ai_agent_active: false,
      message_count: 2,
      last_message_at: res.body.data.created_at,
    });
    const [event] = await api.sql`select data from events where company_id = ${companyId} and type = 'message.created'
      and data->'object'->>'id' = ${res.body.data.id}`;
    expect(event.data.object).toEqual(res.body.data);
  });

  it('replays a request with the same Idempotency-Key without sending again', async () => {
    const row = await conversationOf(api, companyId, { channel: 'web' });
    const first = await send(row.id, 'Eén keer', { 'Idempotency-Key': `send-${row.id}` });
    const again = await send(row.id, 'Eén keer', { 'Idempotency-Key': `send-${row.id}` });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await messageCount(row.id)).toBe(2);
  });

  it('needs the feature of the conversation’s channel and messages.send', async () => {
    const emailOnly = await api.tenant({ features: ['email'] });
    const row = await conversationOf(api, emailOnly.companyId, { channel: 'web' });
    const refused = await send(row.id, 'Hallo', {}, emailOnly.key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('feature_not_available');
    expect(await messageCount(row.id)).toBe(1);
    const reader = await api.key(companyId, { scopes: ['messages.read'] });
    expect((await send(row.id, 'Hallo', {}, reader.key)).status).toBe(403);
  });

  it('answers 404 for another company’s conversation', async () => {
    const other = await api.tenant();
    const row = await conversationOf(api, other.companyId);
    expect((await send(row.id, 'Hallo')).status).toBe(404);
  });
});

describe('email', () => {
  it('sends a reply in the customer’s thread (In-Reply-To, References) to a real SMTP server', async () => {
    const customerId = await customerRow(api, companyId, { email: 'jan@bakkerijjansen.nl' });
    const row = await conversationOf(api, companyId, { channel: 'email', customerId, subject: 'Offerte dakpanelen' });
    await api.sql`update conversation_messages set email_message_id = '<CAF=abc123@mail.gmail.com>'
      where conversation_id = ${row.id}`;
    const res = await send(row.id, 'Beste Jan, u ontvangt vandaag de offerte.');
    expect(res.status).toBe(201);
    expect(res.body.data.email_subject).toBe('Re: Offerte dakpanelen');
    const [stored] = await api.sql`select outbound_email_id, email_message_id from conversation_messages
      where company_id = ${companyId} and id = ${res.body.data.id}`;
    const jobs = await queuedJobsOf(api, 'email_send', companyId);
    expect(jobs.map((j) => j.payload.emailId)).toContain(stored.outbound_email_id);
    await taskList(api.deps).email_send({ companyId, emailId: stored.outbound_email_id }, {} as JobHelpers);
    const mail = smtp.received.find((m) => m.messageId === stored.email_message_id);
    expect(mail).toBeDefined();
    expect(mail?.envelopeTo).toEqual(['jan@bakkerijjansen.nl']);
    expect(mail?.subject).toBe('Re: Offerte dakpanelen');
    expect(mail?.inReplyTo).toBe('<CAF=abc123@mail.gmail.com>');
    expect(mail?.references).toEqual('<CAF=abc123@mail.gmail.com>');
    expect(mail?.text?.trim()).toBe('Beste Jan, u ontvangt vandaag de offerte.');
  });

  it('refuses (409, nothing stored or queued) when the customer has no usable address', async () => {
    const customerId = await customerRow(api, companyId, { email: 'whatsapp-31611111111@contact.invalid' });
    const row = await conversationOf(api, companyId, { channel: 'email', customerId });
    const before = (await queuedJobsOf(api, 'email_send', companyId)).length;
    const res = await send(row.id, 'Hallo');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(await messageCount(row.id)).toBe(1);
    expect((await queuedJobsOf(api, 'email_send', companyId)).length).toBe(before);
  });
});

describe('WhatsApp', () => {
  let tenant: { key: string; companyId: string };
  beforeAll(async () => {
    tenant = await api.tenant();
    await api.sql`insert into channel_settings (company_id, widget_id, whatsapp_phone_number_id, whatsapp_api_base_url,
        whatsapp_access_token)
      values (${tenant.companyId}, ${`wid_${tenant.companyId.slice(0, 8)}`}, '1098765432', ${graphUrl}, 'EAAG-test-token')`;
  });

  const whatsappConversation = async () => {
    const customerId = await customerRow(api, tenant.companyId, { phone: '+31 6 12345678' });
    const row = await conversationOf(api, tenant.companyId, { channel: 'whatsapp', customerId });
    return row;
  };

  it('posts the text to the Graph API messages endpoint inside the 24-hour window and keeps its wamid', async () => {
    now = new Date();
    const row = await whatsappConversation();
    graphAnswer = {
      status: 200,
      body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.HBgLMzE2MTIzNDU2NzgVAgARGBI' }] },
    };
    graphCalls.length = 0;
    const res = await send(row.id, 'De monteur komt dinsdag.', {}, tenant.key);
    expect(res.status).toBe(201);
    expect(res.body.data.whatsapp_status).toBe('sent');
    expect(graphCalls).toEqual([
      {
        path: '/v21.0/1098765432/messages',
        authorization: 'Bearer EAAG-test-token',
        body: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: '31612345678',
          type: 'text',
          text: { preview_url: false, body: 'De monteur komt dinsdag.' },
        },
      },
    ]);
    const [stored] =
      await api.sql`select whatsapp_message_id from conversation_messages where id = ${res.body.data.id}`;
    expect(stored.whatsapp_message_id).toBe('wamid.HBgLMzE2MTIzNDU2NzgVAgARGBI');
  });

  it('refuses after 24 hours without a customer message: 409 saying why, nothing sent, stored or counted', async () => {
    const row = await whatsappConversation();
    now = new Date(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
    graphCalls.length = 0;
    const res = await send(row.id, 'Nog een vraag?', {}, tenant.key);
    now = new Date();
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.detail).toContain('24');
    expect(graphCalls).toEqual([]);
    expect(await messageCount(row.id)).toBe(1);
    const [count] = await api.sql`select count from outgoing_message_counts
      where company_id = ${tenant.companyId} and scope = ${`conversation:${row.id}`}`;
    expect(count).toBeUndefined();
  });

  it('answers 409 with WhatsApp’s reason when the Graph API refuses, and stores nothing', async () => {
    const row = await whatsappConversation();
    graphAnswer = { status: 400, body: { error: { message: '(#131026) Message undeliverable', code: 131026 } } };
    const res = await send(row.id, 'Hallo', {}, tenant.key);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('Message undeliverable');
    expect(await messageCount(row.id)).toBe(1);
  });

  it('answers 503 with Retry-After when the Graph API fails, and stores nothing', async () => {
    const row = await whatsappConversation();
    graphAnswer = { status: 500, body: { error: { message: 'An unexpected error has occurred.', code: 2 } } };
    const res = await send(row.id, 'Hallo', {}, tenant.key);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('service_unavailable');
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await messageCount(row.id)).toBe(1);
  });

  it('does not send again when PostgreSQL runs the creation a second time (serialization failure)', async () => {
    const row = await whatsappConversation();
    // The first insert of this text fails as a serialization failure would (a sequence is not rolled back, so only
    // the first run fails); withTenant runs the whole creation again.
    await api.sql.unsafe(`
      create sequence if not exists test_send_retry;
      grant usage on sequence test_send_retry to app_api;
      create or replace function test_fail_first_insert() returns trigger language plpgsql security definer as $$
      begin
        if new.body = 'Eén keer versturen' and nextval('test_send_retry') = 1 then
          raise exception 'forced serialization failure' using errcode = '40001';
        end if;
        return new;
      end $$;
      create trigger test_fail_first_insert before insert on conversation_messages
        for each row execute function test_fail_first_insert();`);
    try {
      graphAnswer = { status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.ONCE' }] } };
      graphCalls.length = 0;
      const res = await send(row.id, 'Eén keer versturen', {}, tenant.key);
      expect(res.status).toBe(201);
      expect(graphCalls).toHaveLength(1);
      const [stored] =
        await api.sql`select whatsapp_message_id from conversation_messages where id = ${res.body.data.id}`;
      expect(stored?.whatsapp_message_id).toBe('wamid.ONCE');
      expect(await messageCount(row.id)).toBe(2);
    } finally {
      await api.sql.unsafe('drop trigger test_fail_first_insert on conversation_messages');
    }
  });

  it('records instead of sending for a company without WhatsApp settings', async () => {
    const customerId = await customerRow(api, companyId, { phone: '+31 6 98765432' });
    const row = await conversationOf(api, companyId, { channel: 'whatsapp', customerId });
    graphCalls.length = 0;
    const res = await send(row.id, 'Opgenomen, niet verstuurd.');
    expect(res.status).toBe(201);
    expect(res.body.data.whatsapp_status).toBeNull();
    expect(graphCalls).toEqual([]);
    expect(api.deps.channels.recorder.messages.at(-1)?.message).toMatchObject({
      channel: 'whatsapp',
      to: '31698765432',
      text: 'Opgenomen, niet verstuurd.',
    });
  });
});
