// The WhatsApp Cloud API webhook, driven by a fake Cloud API sender posting signed deliveries to the real app over
// HTTP: the handshake, the signature (bad or missing: 401 and nothing stored), messages into the number's
// conversation (a new number becomes a lead), retries stored once, delivery statuses that never move back.
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { backfillPhoneE164 } from '../../../src/db/phone-backfill.ts';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { assertConforms, schemaProblems } from '../../harness/contract.ts';
import { listenOnLoopback } from '../../harness/loopback-server.ts';
import { conversationOf, customerRow } from './fixtures.ts';

let api: TestApi;
let origin: string;
let company: { key: string; companyId: string };
const APP_SECRET = 'a3f1c9e7d5b2a8c4e6f0b1d3a5c7e9f2';
const PHONE_NUMBER_ID = '1098765432';
const WEBHOOK = '/api/v1/channels/whatsapp/webhook';

beforeAll(async () => {
  api = await setupApi();
  ({ origin } = await listenOnLoopback(api.app));
  company = await api.tenant();
  await setChannelSettings(api.db, company.companyId, {
    whatsappPhoneNumberId: PHONE_NUMBER_ID,
    whatsappAppSecret: APP_SECRET,
    whatsappVerifyToken: 'schilderwerk-whatsapp-2026',
  });
});

/** What Meta's Cloud API posts: one change of our number, with the given messages, contacts and statuses. */
function delivery(
  value: { messages?: unknown[]; contacts?: unknown[]; statuses?: unknown[] },
  phoneNumberId = PHONE_NUMBER_ID,
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '31201234567', phone_number_id: phoneNumberId },
              ...value,
              // A field this service does not know: ignored, never refused.
              pricing_preview: { billable: false },
            },
          },
        ],
      },
    ],
  };
}

const textMessage = (from: string, id: string, body: string) => ({
  from,
  id,
  timestamp: String(Math.floor(Date.now() / 1000)),
  type: 'text',
  text: { body },
});

const sign = (body: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The fake Cloud API sender: posts the delivery over HTTP, signed unless told otherwise. */
async function post(payload: unknown, signature: string | null | ((body: string) => string) = sign) {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const header = typeof signature === 'function' ? signature(body) : signature;
  if (header !== null) headers['x-hub-signature-256'] = header;
  const response = await fetch(`${origin}${WEBHOOK}`, { method: 'POST', headers, body });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  assertConforms('receiveWhatsAppWebhook', { status: response.status, headers: response.headers, body: parsed });
  return { status: response.status, body: parsed };
}

const messagesOf = (whatsappIds: string[]) =>
  api.sql`select * from conversation_messages where company_id = ${company.companyId}
    and whatsapp_message_id in ${api.sql(whatsappIds)}`;

describe('verification handshake', () => {
  const handshake = async (token: string) => {
    const query = new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.verify_token': token,
      'hub.challenge': '1158201444',
    });
    const response = await fetch(`${origin}${WEBHOOK}?${query}`);
    const text = await response.text();
    const body = response.headers.get('content-type')?.startsWith('text/plain') ? text : JSON.parse(text);
    assertConforms('verifyWhatsAppWebhook', { status: response.status, headers: response.headers, body });
    return { status: response.status, type: response.headers.get('content-type'), body };
  };

  it('answers the challenge as text/plain for the company’s verify token', async () => {
    const answer = await handshake('schilderwerk-whatsapp-2026');
    expect(answer).toEqual({ status: 200, type: 'text/plain; charset=UTF-8', body: '1158201444' });
  });

  it('refuses another token with 403 verification_failed', async () => {
    const answer = await handshake('iets-anders');
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('verification_failed');
  });
});

describe('signature', () => {
  it('refuses a wrong signature, a missing one and one made with another secret: 401, nothing stored', async () => {
    const payload = delivery({ messages: [textMessage('31699990001', 'wamid.SIG1', 'Hallo')] });
    for (const signature of [
      'sha256=0000000000000000000000000000000000000000000000000000000000000000',
      null,
      (body: string) => sign(body, 'another-app-secret'),
      (body: string) => sign(body).replace('sha256=', 'sha1='),
    ]) {
      const answer = await post(payload, signature);
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('unauthenticated');
    }
    // A signature of other bytes (the same JSON with a space more) does not sign this body either.
    const other = JSON.stringify(payload).replace('"Hallo"', '"Hallo" ');
    const answer = await post(payload, () => sign(other));
    expect(answer.status).toBe(401);
    expect(await messagesOf(['wamid.SIG1'])).toEqual([]);
    const [{ count }] = await api.sql`select count(*)::int as count from customers
      where company_id = ${company.companyId} and phone = '+31699990001'`;
    expect(count).toBe(0);
  });

  it('refuses a body naming no company’s phone-number id (401)', async () => {
    const answer = await post(delivery({ messages: [textMessage('31699990002', 'wamid.SIG2', 'Hallo')] }, '555'));
    expect(answer.status).toBe(401);
    expect(await messagesOf(['wamid.SIG2'])).toEqual([]);
  });

  it('refuses a body that is not the Cloud API’s JSON (422)', async () => {
    const response = await fetch(`${origin}${WEBHOOK}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign('{"entry": ') },
      body: '{"entry": ',
    });
    expect(response.status).toBe(422);
  });

  it('refuses a body without entry (422), as the contract says: WhatsAppWebhook requires entry', async () => {
    const response = await fetch(`${origin}${WEBHOOK}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign('{}') },
      body: '{}',
    });
    expect(response.status).toBe(422);
    expect(schemaProblems('WhatsAppWebhook', {})).not.toEqual([]);
    expect(schemaProblems('WhatsAppWebhook', { entry: [], object: 'whatsapp_business_account' })).toEqual([]);
  });
});

describe('messages', () => {
  it('stores a signed message of an unknown number as a lead’s new conversation, with its events', async () => {
    const answer = await post(
      delivery({
        contacts: [{ profile: { name: 'Petra de Vries' }, wa_id: '31612340001' }],
        messages: [textMessage('31612340001', 'wamid.NEW1', 'Goedemiddag, kunnen jullie de kozijnen schilderen?')],
      }),
    );
    expect(answer).toEqual({
      status: 200,
      body: {
        data: {
          object: 'whatsapp_webhook_receipt',
          messages_stored: 1,
          messages_already_stored: 0,
          statuses_applied: 0,
        },
      },
    });
    const [message] = await messagesOf(['wamid.NEW1']);
    expect(message).toMatchObject({ sender: 'customer', body: 'Goedemiddag, kunnen jullie de kozijnen schilderen?' });
    const [customer] = await api.sql`select * from customers where company_id = ${company.companyId}
      and phone = '+31612340001'`;
    expect(customer).toMatchObject({
      status: 'lead',
      name: 'Petra de Vries',
      email: 'whatsapp-31612340001@contact.invalid',
    });
    const listed = await api.call<'listConversations'>('listConversations', {
      key: company.key,
      query: { 'filter[customer_id]': customer.id },
    });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      id: message.conversation_id,
      channel: 'whatsapp',
      status: 'open',
      message_count: 1,
      customer: { name: 'Petra de Vries', email: null, phone: '+31612340001' },
    });
    const events = await api.sql`select type from events where company_id = ${company.companyId}
      and (customer_id = ${customer.id} or data->'object'->>'id' = ${message.id}) order by type`;
    expect(events.map((e) => e.type)).toEqual(['conversation.created', 'customer.created', 'message.created']);
  });

  it('continues the open conversation of the number, of a customer known by the number in national form', async () => {
    const customerId = await customerRow(api, company.companyId, { name: 'Henk Bakker', phone: '06 12340002' });
    const first = await post(delivery({ messages: [textMessage('31612340002', 'wamid.KNOWN1', 'Hallo')] }));
    expect(first.body.data.messages_stored).toBe(1);
    // Two messages in one delivery, a photo with a caption among them.
    const second = await post(
      delivery({
        messages: [
          {
            from: '31612340002',
            id: 'wamid.KNOWN2',
            type: 'image',
            image: { id: '123', mime_type: 'image/jpeg', caption: 'Scheur in de muur' },
          },
          textMessage('31612340002', 'wamid.KNOWN3', 'Zie foto'),
        ],
      }),
    );
    expect(second.body.data.messages_stored).toBe(2);
    const rows = await messagesOf(['wamid.KNOWN1', 'wamid.KNOWN2', 'wamid.KNOWN3']);
    expect(new Set(rows.map((r) => r.conversation_id)).size).toBe(1);
    expect(rows.map((r) => r.body).sort()).toEqual(['Hallo', '[Image] Scheur in de muur', 'Zie foto'].sort());
    const [conversation] = await api.sql`select * from conversations where id = ${rows[0]?.conversation_id}`;
    expect(conversation).toMatchObject({ customer_id: customerId, message_count: 3, contact_address: '31612340002' });
    const [{ count }] =
      await api.sql`select count(*)::int as count from customers where company_id = ${company.companyId}
      and (phone = '+31612340002' or email like 'whatsapp-31612340002@%')`;
    expect(count).toBe(0);
  });

  it('stores a repeated delivery once', async () => {
    const payload = delivery({ messages: [textMessage('31612340003', 'wamid.RETRY1', 'Wanneer komen jullie?')] });
    expect((await post(payload)).body.data.messages_stored).toBe(1);
    const again = await post(payload);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ messages_stored: 0, messages_already_stored: 1 });
    // Delivered twice at the same time (Meta retries while the first is still being answered): still once.
    const twice = delivery({ messages: [textMessage('31612340004', 'wamid.RETRY2', 'Nog een vraag')] });
    const answers = await Promise.all([post(twice), post(twice)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const rows = await messagesOf(['wamid.RETRY1', 'wamid.RETRY2']);
    expect(rows).toHaveLength(2);
    const [{ count }] = await api.sql`select count(*)::int as count from conversations c
      join conversation_messages m on m.company_id = c.company_id and m.conversation_id = c.id
      where m.whatsapp_message_id in ('wamid.RETRY1', 'wamid.RETRY2')`;
    expect(count).toBe(2);
    const [{ leads }] = await api.sql`select count(*)::int as leads from customers where phone = '+31612340004'`;
    expect(leads).toBe(1);
  });

  it('reopens a closed conversation of the number as waiting_on_team', async () => {
    const customerId = await customerRow(api, company.companyId, { phone: '+31 6 12340005' });
    const row = await conversationOf(api, company.companyId, {
      channel: 'whatsapp',
      customerId,
      contactAddress: '31612340005',
      messages: [
        { sender: 'customer', body: 'Hallo' },
        { sender: 'api', body: 'Goedemiddag!' },
      ],
    });
    const closed = await api.call('closeConversation', { key: company.key, params: { conversation: row.id } });
    expect(closed.body.data.status).toBe('closed');
    await post(delivery({ messages: [textMessage('31612340005', 'wamid.REOPEN1', 'Toch nog een vraag')] }));
    const after = await api.call<'getConversation'>('getConversation', {
      key: company.key,
      params: { conversation: row.id },
    });
    expect(after.body.data).toMatchObject({ status: 'waiting_on_team', closed_at: null, message_count: 3 });
    const [message] = await messagesOf(['wamid.REOPEN1']);
    expect(message?.conversation_id).toBe(row.id);
  });
});

describe('senders matched on whole international numbers (E.164)', () => {
  it('a French number never gets the conversation of a Dutch customer whose number ends in the same digits', async () => {
    // The customer's phone written nationally, as Dutch staff type it: +31 6 19335561 in E.164.
    const created = await api.call('createCustomer', {
      key: company.key,
      body: { name: 'Sanne de Boer', email: 'sanne.deboer@example.nl', phone: '06 19335561' },
    });
    expect(created.status).toBe(201);
    const [stored] = await api.sql`select phone_e164 from customers where id = ${created.body.data.id}`;
    expect(stored?.phone_e164).toBe('+31619335561');
    // +33 6 19 33 55 61, a French mobile: the same last nine digits.
    const answer = await post(delivery({ messages: [textMessage('33619335561', 'wamid.FR1', 'Bonjour')] }));
    expect(answer.body.data.messages_stored).toBe(1);
    const [message] = await messagesOf(['wamid.FR1']);
    const [conversation] = await api.sql`select * from conversations where id = ${message?.conversation_id}`;
    expect(conversation?.customer_id).not.toBe(created.body.data.id);
    const [lead] =
      await api.sql`select email, phone, phone_e164 from customers where id = ${conversation?.customer_id}`;
    expect(lead).toEqual({
      email: 'whatsapp-33619335561@contact.invalid',
      phone: '+33619335561',
      phone_e164: '+33619335561',
    });
    // Her own number, from WhatsApp, finds her.
    await post(delivery({ messages: [textMessage('31619335561', 'wamid.NL1', 'Hallo')] }));
    const [own] = await messagesOf(['wamid.NL1']);
    const [hers] = await api.sql`select customer_id from conversations where id = ${own?.conversation_id}`;
    expect(hers?.customer_id).toBe(created.body.data.id);
  });

  it('a changed phone is matched in its new form; rows from before the column are filled by the backfill', async () => {
    const created = await api.call('createCustomer', {
      key: company.key,
      body: { name: 'Kees Mulder', email: 'kees.mulder@example.nl', phone: '020 123 4567' },
    });
    const changed = await api.call('updateCustomer', {
      key: company.key,
      params: { customer: created.body.data.id },
      body: { phone: '0031 6 55501234' },
    });
    expect(changed.status).toBe(200);
    const [row] = await api.sql`select phone_e164 from customers where id = ${created.body.data.id}`;
    expect(row?.phone_e164).toBe('+31655501234');
    // A customer stored before drizzle/0035 (no phone_e164), then the backfill that runs after the migrations.
    const id = await customerRow(api, company.companyId, { name: 'Oud', phone: '06-55509876' });
    await api.sql`update customers set phone_e164 = null where id = ${id}`;
    expect(await backfillPhoneE164(api.sql)).toBeGreaterThanOrEqual(1);
    const [filled] = await api.sql`select phone_e164 from customers where id = ${id}`;
    expect(filled?.phone_e164).toBe('+31655509876');
    await post(delivery({ messages: [textMessage('31655509876', 'wamid.OLD1', 'Hoi')] }));
    const [message] = await messagesOf(['wamid.OLD1']);
    const [conversation] = await api.sql`select customer_id from conversations where id = ${message?.conversation_id}`;
    expect(conversation?.customer_id).toBe(id);
  });
});

describe('statuses', () => {
  it('moves the whatsapp_status of a sent message on, never back, and ignores unknown messages', async () => {
    const row = await conversationOf(api, company.companyId, { channel: 'whatsapp', contactAddress: '31612340006' });
    await api.sql`insert into conversation_messages (company_id, id, conversation_id, sender, body, whatsapp_message_id, whatsapp_status)
      values (${company.companyId}, gen_random_uuid(), ${row.id}, 'api', 'De monteur komt dinsdag.', 'wamid.OUT1', 'sent')`;
    const status = (id: string, s: string) => ({ id, status: s, timestamp: '1772446460', recipient_id: '31612340006' });
    const statusOf = async () =>
      (await api.sql`select whatsapp_status from conversation_messages where whatsapp_message_id = 'wamid.OUT1'`)[0]
        ?.whatsapp_status;
    expect((await post(delivery({ statuses: [status('wamid.OUT1', 'delivered')] }))).body.data.statuses_applied).toBe(
      1,
    );
    expect(await statusOf()).toBe('delivered');
    expect((await post(delivery({ statuses: [status('wamid.OUT1', 'read')] }))).body.data.statuses_applied).toBe(1);
    expect(await statusOf()).toBe('read');
    // Late: a `delivered` and a `sent` after `read` change nothing.
    const late = await post(delivery({ statuses: [status('wamid.OUT1', 'delivered'), status('wamid.OUT1', 'sent')] }));
    expect(late.body.data.statuses_applied).toBe(0);
    expect(await statusOf()).toBe('read');
    const unknown = await post(delivery({ statuses: [status('wamid.NOSUCH', 'delivered')] }));
    expect(unknown).toMatchObject({ status: 200, body: { data: { statuses_applied: 0 } } });
    const messages = await api.call<'listConversationMessages'>('listConversationMessages', {
      key: company.key,
      params: { conversation: row.id },
    });
    expect(messages.body.data.at(-1)).toMatchObject({ sender: 'api', whatsapp_status: 'read' });
  });

  it('marks a message WhatsApp could not deliver as failed', async () => {
    const row = await conversationOf(api, company.companyId, { channel: 'whatsapp', contactAddress: '31612340007' });
    await api.sql`insert into conversation_messages (company_id, id, conversation_id, sender, body, whatsapp_message_id, whatsapp_status)
      values (${company.companyId}, gen_random_uuid(), ${row.id}, 'api', 'Tot morgen', 'wamid.OUT2', 'sent')`;
    await post(delivery({ statuses: [{ id: 'wamid.OUT2', status: 'failed', errors: [{ code: 131026 }] }] }));
    const [message] = await messagesOf(['wamid.OUT2']);
    expect(message?.whatsapp_status).toBe('failed');
  });
});
