// Review requests over WhatsApp: the company's approved template (set with the CLI `company channels`) reaches a
// local fake of the Graph API over real HTTP with the company's phone-number id, token, template name, language and
// the request's link; without a template only a free-form text inside the customer's 24-hour window; no template
// and no window → 409 with nothing stored; the company's 251st outgoing message of the hour → 429; each company's
// settings and window are its own.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/commands.ts';
import { channelSettings } from '../../../src/db/schema/index.ts';
import { withTenant } from '../../../src/db/tenant.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { closeServerAtFileEnd } from '../../harness/file-end.ts';
import { ageConversation, conversationOf, customerRow } from '../conversations/fixtures.ts';

let api: TestApi;

type GraphCall = { path: string; authorization: string | undefined; body: Record<string, unknown> };
const graphCalls: GraphCall[] = [];
let graphAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let graphUrl: string;
let sent = 0;

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

beforeAll(async () => {
  api = await setupApi();
  const graph = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    graphCalls.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    sent += 1;
    const answer =
      graphAnswer.status === 200
        ? { messaging_product: 'whatsapp', contacts: [{ wa_id: body.to }], messages: [{ id: `wamid.REVIEW${sent}` }] }
        : graphAnswer.body;
    res.writeHead(graphAnswer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
  graphUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}/v21.0`;
  closeServerAtFileEnd(graph);
});

const channels = async (companyId: string, options: string[]) => {
  const command = parseCommand(['company', 'channels', companyId, ...options]);
  if (command.name !== 'company channels') throw new Error(`parsed as ${command.name}`);
  const output = await runCommand(api.deps, command, async () => {});
  return output?.json as Record<string, unknown>;
};

/** A company with a WhatsApp account at the fake Graph API, and its key. */
async function company(phoneNumberId: string, token: string, template: string[] = []) {
  const { key, companyId } = await api.tenant({ language: 'nl' });
  await channels(companyId, [
    '--whatsapp-phone-number-id',
    phoneNumberId,
    '--whatsapp-token',
    token,
    '--whatsapp-base-url',
    graphUrl,
    ...template,
  ]);
  return { key, companyId };
}

let number = 31612000000;
/** A phone number of its own per test: the one-open-request rule would otherwise refuse the next request. */
const newPhone = () => {
  number += 1;
  const digits = String(number);
  return { digits, display: `+${digits.slice(0, 2)} ${digits.slice(2, 3)} ${digits.slice(3)}` };
};

const requestsTo = async (companyId: string, phone: string) =>
  api.sql`select status, channel, whatsapp_message_id from review_requests
    where company_id = ${companyId} and recipient_phone = ${phone}`;

describe('createReviewRequest over WhatsApp', () => {
  it('sends the company template with the request link as {{1}}, in the approved language, and records the id', async () => {
    const { key, companyId } = await company('1098765432', 'EAAG-token-a', [
      '--whatsapp-review-template',
      'review_request_v2',
      '--whatsapp-review-template-languages',
      'nl,en_US',
    ]);
    const phone = newPhone();
    const customerId = await customerRow(api, companyId, { name: 'Fatima el Amrani', phone: phone.display });
    const before = graphCalls.length;
    const res = await api.call('createReviewRequest', {
      key,
      body: { customer_id: customerId, channel: 'whatsapp', language: 'en' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'sent',
      channel: 'whatsapp',
      customer_id: customerId,
      recipient: { name: 'Fatima el Amrani', phone: phone.display },
      language: 'en',
    });
    expect(graphCalls.length).toBe(before + 1);
    const call = graphCalls.at(-1);
    expect(call?.path).toBe('/v21.0/1098765432/messages');
    expect(call?.authorization).toBe('Bearer EAAG-token-a');
    expect(call?.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone.digits,
      type: 'template',
      template: {
        name: 'review_request_v2',
        language: { code: 'en_US' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: res.body.data.url }] }],
      },
    });
    const rows = await requestsTo(companyId, phone.display);
    expect(rows).toEqual([{ status: 'sent', channel: 'whatsapp', whatsapp_message_id: `wamid.REVIEW${sent}` }]);

    // A language the template is not approved in takes the first approved code.
    const other = newPhone();
    const german = await api.call('createReviewRequest', {
      key,
      body: { name: 'Greta', phone: other.display, channel: 'whatsapp', language: 'de' },
    });
    expect(german.status, JSON.stringify(german.body)).toBe(201);
    expect(graphCalls.at(-1)?.body.template).toMatchObject({ name: 'review_request_v2', language: { code: 'nl' } });
  });

  it('without a template and without a message of the customer: 409, nothing sent or stored', async () => {
    const { key, companyId } = await company('2098765432', 'EAAG-token-b');
    const phone = newPhone();
    const before = graphCalls.length;
    const res = await api.call('createReviewRequest', {
      key,
      body: { name: 'Sanne', phone: phone.display, channel: 'whatsapp' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.detail).toMatch(/--whatsapp-review-template/);
    expect(graphCalls.length).toBe(before);
    expect(await requestsTo(companyId, phone.display)).toEqual([]);
    const [count] = await api.sql`select coalesce(sum(count), 0)::int as n from outgoing_message_counts
      where company_id = ${companyId}`;
    expect(count?.n).toBe(0);
  });

  it('without a template: a free-form text with the link inside the 24-hour window, 409 after it', async () => {
    const { key, companyId } = await company('3098765432', 'EAAG-token-c');
    const phone = newPhone();
    const customerId = await customerRow(api, companyId, { name: 'Jan Jansen', phone: phone.display });
    const conversation = await conversationOf(api, companyId, {
      channel: 'whatsapp',
      customerId,
      contactAddress: phone.digits,
    });
    await ageConversation(api, companyId, conversation.id, 23);
    const res = await api.call('createReviewRequest', {
      key,
      body: { customer_id: customerId, channel: 'whatsapp', language: 'nl' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const call = graphCalls.at(-1);
    expect(call?.path).toBe('/v21.0/3098765432/messages');
    expect(call?.authorization).toBe('Bearer EAAG-token-c');
    expect(call?.body).toMatchObject({ to: phone.digits, type: 'text' });
    const text = (call?.body.text as { body: string }).body;
    expect(text).toContain('Beste Jan Jansen');
    expect(text).toContain(res.body.data.url);

    // Two more hours: the window closed, and the answer names the customer's last message.
    const later = newPhone();
    const laterCustomer = await customerRow(api, companyId, { phone: later.display });
    const old = await conversationOf(api, companyId, {
      channel: 'whatsapp',
      customerId: laterCustomer,
      contactAddress: later.digits,
    });
    await ageConversation(api, companyId, old.id, 25);
    const before = graphCalls.length;
    const closed = await api.call('createReviewRequest', {
      key,
      body: { customer_id: laterCustomer, channel: 'whatsapp' },
    });
    expect(closed.status).toBe(409);
    expect(closed.body.detail).toMatch(/24/);
    expect(graphCalls.length).toBe(before);
    expect(await requestsTo(companyId, later.display)).toEqual([]);
  });

  it('the 251st outgoing message of the hour answers 429 with Retry-After and sends nothing', async () => {
    const { key, companyId } = await company('4098765432', 'EAAG-token-d', ['--whatsapp-review-template', 'review']);
    // 249 messages of this hour already went out (inbox, emails): this request is the 250th, the next the 251st.
    await api.sql`insert into outgoing_message_counts (company_id, scope, hour_start, count)
      values (${companyId}, 'company', date_trunc('hour', now()), 249)`;
    const first = newPhone();
    const ok = await api.call('createReviewRequest', {
      key,
      body: { name: 'Nr 250', phone: first.display, channel: 'whatsapp' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const before = graphCalls.length;
    const second = newPhone();
    const idempotencyKey = crypto.randomUUID();
    const limited = await api.call('createReviewRequest', {
      key,
      body: { name: 'Nr 251', phone: second.display, channel: 'whatsapp' },
      headers: { 'Idempotency-Key': idempotencyKey, 'Accept-Language': 'en' },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.body.detail).toBe(
      'The company has sent 250 messages this hour, its limit; try again after the hour.',
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(graphCalls.length).toBe(before);
    expect(await requestsTo(companyId, second.display)).toEqual([]);

    // The refusal is not kept as the key's answer: after the hour (the count gone), the same key sends it.
    await api.sql`delete from outgoing_message_counts where company_id = ${companyId}`;
    const retried = await api.call('createReviewRequest', {
      key,
      body: { name: 'Nr 251', phone: second.display, channel: 'whatsapp' },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(graphCalls.length).toBe(before + 1);
  });

  it('WhatsApp not answering (5xx) is 503, nothing stored, and a retry with the same key sends it', async () => {
    const { key, companyId } = await company('9098765432', 'EAAG-token-i', ['--whatsapp-review-template', 'review']);
    const phone = newPhone();
    const idempotencyKey = crypto.randomUUID();
    const call = () =>
      api.call('createReviewRequest', {
        key,
        body: { name: 'Mila', phone: phone.display, channel: 'whatsapp' },
        headers: { 'Idempotency-Key': idempotencyKey },
      });
    graphAnswer = { status: 502, body: { error: { message: 'Bad gateway' } } };
    try {
      const unavailable = await call();
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toBe('30');
    } finally {
      graphAnswer = { status: 200, body: {} };
    }
    expect(await requestsTo(companyId, phone.display)).toEqual([]);
    const retried = await call();
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(await requestsTo(companyId, phone.display)).toEqual([
      { status: 'sent', channel: 'whatsapp', whatsapp_message_id: `wamid.REVIEW${sent}` },
    ]);
  });

  it("each company's template, account and window are its own", async () => {
    const withTemplate = await company('5098765432', 'EAAG-token-e', ['--whatsapp-review-template', 'review_e']);
    const without = await company('6098765432', 'EAAG-token-f');
    const phone = newPhone();
    // The number wrote to the first company only: that does not open the second company's window.
    await conversationOf(api, withTemplate.companyId, { channel: 'whatsapp', contactAddress: phone.digits });
    const refused = await api.call('createReviewRequest', {
      key: without.key,
      body: { name: 'Piet', phone: phone.display, channel: 'whatsapp' },
    });
    expect(refused.status).toBe(409);
    expect(await requestsTo(without.companyId, phone.display)).toEqual([]);

    const res = await api.call('createReviewRequest', {
      key: withTemplate.key,
      body: { name: 'Piet', phone: phone.display, channel: 'whatsapp' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(graphCalls.at(-1)).toMatchObject({
      path: '/v21.0/5098765432/messages',
      authorization: 'Bearer EAAG-token-e',
      body: { type: 'template', template: { name: 'review_e', language: { code: 'nl' } } },
    });
    // Row-level security: a transaction of the second company does not see the first one's settings.
    const seen = await withTenant(api.db, without.companyId, (tx) =>
      tx.select({ companyId: channelSettings.companyId }).from(channelSettings),
    );
    expect(seen).toEqual([{ companyId: without.companyId }]);
  });

  it('WhatsApp refusing the template answers 409 with its reason; nothing stored', async () => {
    const { key, companyId } = await company('7098765432', 'EAAG-token-g', ['--whatsapp-review-template', 'missing']);
    graphAnswer = {
      status: 404,
      body: { error: { message: '(#132001) Template name does not exist in the translation', code: 132001 } },
    };
    const phone = newPhone();
    try {
      const res = await api.call('createReviewRequest', {
        key,
        body: { name: 'Kees', phone: phone.display, channel: 'whatsapp' },
      });
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('Template name does not exist');
    } finally {
      graphAnswer = { status: 200, body: {} };
    }
    expect(await requestsTo(companyId, phone.display)).toEqual([]);
  });

  it('needs the whatsapp feature (403) and a number of 6 to 15 digits (409)', async () => {
    const { key } = await api.tenant({ features: ['reviews'] });
    const noFeature = await api.call('createReviewRequest', {
      key,
      body: { name: 'Anna', phone: newPhone().display, channel: 'whatsapp' },
    });
    expect(noFeature.status).toBe(403);
    expect(noFeature.body.code).toBe('feature_not_available');

    const other = await company('8098765432', 'EAAG-token-h', ['--whatsapp-review-template', 'review']);
    const bad = await api.call('createReviewRequest', {
      key: other.key,
      body: { name: 'Anna', phone: '12-34', channel: 'whatsapp' },
    });
    expect(bad.status).toBe(409);
    expect(bad.body.detail).toMatch(/international/);
  });

  it("a company with a template but no WhatsApp account gets the inbox's behaviour: recorded, not sent", async () => {
    const { key, companyId } = await api.tenant({ language: 'nl' });
    const json = await channels(companyId, ['--whatsapp-review-template', 'review_x']);
    expect(json).toMatchObject({ whatsapp_sends: false, whatsapp_review_template: 'review_x' });
    const phone = newPhone();
    const before = graphCalls.length;
    const res = await api.call('createReviewRequest', {
      key,
      body: { name: 'Joost', phone: phone.display, channel: 'whatsapp' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(graphCalls.length).toBe(before);
    expect(api.deps.channels.recorder.messages.at(-1)).toMatchObject({
      companyId,
      message: { channel: 'whatsapp', to: phone.digits, template: { name: 'review_x', language: 'nl' } },
    });
    expect(await requestsTo(companyId, phone.display)).toEqual([
      { status: 'sent', channel: 'whatsapp', whatsapp_message_id: null },
    ]);
  });
});

describe('company channels --whatsapp-review-template', () => {
  it('sets the template and its languages, refuses names WhatsApp does not allow, and none removes it', async () => {
    const { companyId } = await api.tenant();
    const set = await channels(companyId, [
      '--whatsapp-review-template',
      'review_nl_2',
      '--whatsapp-review-template-languages',
      'nl, en_US,de',
    ]);
    expect(set).toMatchObject({
      whatsapp_review_template: 'review_nl_2',
      whatsapp_review_template_languages: ['nl', 'en_US', 'de'],
    });
    expect(() => parseCommand(['company', 'channels', companyId, '--whatsapp-review-template', 'Review Me'])).toThrow(
      /whatsapp-review-template/,
    );
    expect(() =>
      parseCommand(['company', 'channels', companyId, '--whatsapp-review-template-languages', 'dutch']),
    ).toThrow(/whatsapp-review-template-languages/);
    const removed = await channels(companyId, ['--whatsapp-review-template', 'none']);
    expect(removed).toMatchObject({ whatsapp_review_template: null });
  });
});
