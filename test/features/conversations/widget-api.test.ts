// The widget's visitor API over plain HTTP: sessions and their token (401 without it), the lead and the
// conversation a visitor's first message makes, replies read back by polling, a closed conversation reopened by
// the visitor, the company's feature (403), unknown widgets (404), per-address limits (429), small bodies (413),
// and CORS for the pages of other origins.
import { beforeAll, describe, expect, it } from 'vitest';
import { RateLimits } from '../../../src/http/rate-limit.ts';
import { setChannelSettings } from '../../../src/services/channel-settings.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerRow } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;
let widgetId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant({ language: 'nl' }));
  ({ widgetId } = (await setChannelSettings(api.db, companyId, {})).row);
  // Every request of this file comes from one address: more sessions than its hourly 10 (the limit has its own test).
  api.deps.widgetSessionLimits = new RateLimits([{ name: 'widget_sessions', limit: 1000, windowSeconds: 3600 }], 'ws');
});

const start = (body: Record<string, unknown>, widget = widgetId) =>
  api.call('createWidgetSession', { params: { widget_id: widget }, body });
const poll = (token: string | null, query: Record<string, string | number> = {}) =>
  api.call('listWidgetMessages', { key: token, params: { widget_id: widgetId }, query });
const write = (token: string, body: string) =>
  api.call('createWidgetMessage', {
    key: token,
    params: { widget_id: widgetId },
    body: { body },
  });
const conversationOfFirst = async (messageId: string) => {
  const [row] = await api.sql`select conversation_id from conversation_messages where id = ${messageId}`;
  return row.conversation_id as string;
};

describe('the widget', () => {
  it('answers its company name; an unknown id 404, a malformed one 422', async () => {
    const found = await api.call<'getWidget'>('getWidget', { params: { widget_id: widgetId } });
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual({ object: 'widget', id: widgetId, company_name: 'Schildersbedrijf De Kwast' });
    const unknown = await api.call('getWidget', { params: { widget_id: 'wid_doesnotexist000000000' } });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'not_found' });
    const malformed = await api.call('getWidget', { params: { widget_id: 'nope' } });
    expect(malformed.status).toBe(422);
  });

  it('is 403 feature_not_available for a company without chat_widget, for every operation', async () => {
    const other = await api.company({ features: ['email'] });
    const { row } = await setChannelSettings(api.db, other.id, {});
    const lookup = await api.call('getWidget', { params: { widget_id: row.widgetId } });
    expect({ status: lookup.status, code: lookup.body.code }).toEqual({ status: 403, code: 'feature_not_available' });
    const session = await start({ body: 'Hallo?' }, row.widgetId);
    expect(session.status).toBe(403);
    const [{ count }] = await api.sql`select count(*)::int as count from conversations where company_id = ${other.id}`;
    expect(count).toBe(0);
  });

  it('is 403 for a suspended company and one without an active subscription', async () => {
    const other = await api.company();
    const { row } = await setChannelSettings(api.db, other.id, {});
    const lookup = () => api.call('getWidget', { params: { widget_id: row.widgetId } });
    await api.sql`update companies set subscription_active = false where id = ${other.id}`;
    expect((await lookup()).body.code).toBe('subscription_inactive');
    await api.sql`update companies set suspended_at = now() where id = ${other.id}`;
    const suspended = await lookup();
    expect({ status: suspended.status, code: suspended.body.code }).toEqual({ status: 403, code: 'account_suspended' });
  });

  it('serves /widget.js as a script any page may load', async () => {
    const res = await api.app.request('http://api.test/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const text = await res.text();
    expect(text).toContain('data-widget-id');
    expect(text.length).toBeLessThan(20_000);
  });
});

describe('a visitor session', () => {
  it('starts a conversation of a new lead with the first message and returns the token once', async () => {
    const res = await start({
      body: 'Goedemorgen, kunnen jullie volgende maand onze woonkamer schilderen?',
      name: 'Sanne de Vries',
      email: 'sanne.devries@example.nl',
      page_url: 'https://www.dekwast.nl/binnenschilderwerk',
    });
    expect(res.status).toBe(201);
    const session = res.body.data;
    expect(session.visitor_token).toMatch(/^vt_[A-Za-z0-9_-]{43}$/);
    expect(session.conversation_status).toBe('open');
    expect(session.messages).toHaveLength(1);
    expect(session.messages[0]).toMatchObject({ sender: 'visitor', body: expect.stringContaining('woonkamer') });

    const conversationId = await conversationOfFirst(session.messages[0].id);
    const got = await api.call<'getConversation'>('getConversation', { key, params: { conversation: conversationId } });
    expect(got.body.data).toMatchObject({
      channel: 'web',
      status: 'open',
      message_count: 1,
      page_url: 'https://www.dekwast.nl/binnenschilderwerk',
      // The address as given, marked unverified; the lead's own address is none.
      visitor_email: { address: 'sanne.devries@example.nl', verified: false },
      customer: { name: 'Sanne de Vries', email: null },
    });
    const [stored] = await api.sql`select visitor_token_hash from conversations where id = ${conversationId}`;
    expect(stored.visitor_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.visitor_token_hash).not.toContain(session.visitor_token);
    const [lead] = await api.sql`select status from customers where id = ${got.body.data.customer_id}`;
    expect(lead.status).toBe('lead');
    const events = await api.sql`select type from events where company_id = ${companyId}
      and (data->'object'->>'id' = ${conversationId} or data->'object'->>'conversation_id' = ${conversationId})`;
    expect(events.map((e) => e.type).sort()).toEqual(['conversation.created', 'message.created']);
  });

  it('never attaches the chat to the customer who has the given address: a new lead, the address unverified', async () => {
    const existing = await customerRow(api, companyId, { name: 'Jan Jansen', email: 'jan@jansen.nl' });
    const [before] = await api.sql`select version from customers where id = ${existing}`;
    const claimed = await start({
      body: 'Wat is mijn adres ook alweer?',
      email: 'JAN@jansen.nl',
      name: 'Iemand anders',
    });
    expect(claimed.status).toBe(201);
    const conversationId = await conversationOfFirst(claimed.body.data.messages[0].id);
    const got = await api.call('getConversation', { key, params: { conversation: conversationId } });
    expect(got.body.data.customer_id).not.toBe(existing);
    // Staff see the claim as a claim, and none of Jan's data.
    expect(got.body.data.visitor_email).toEqual({ address: 'JAN@jansen.nl', verified: false });
    expect(got.body.data.customer).toEqual({ name: 'Iemand anders', email: null, phone: null });
    const [lead] = await api.sql`select status, email from customers where id = ${got.body.data.customer_id}`;
    expect(lead?.status).toBe('lead');
    expect(lead?.email).toMatch(/^visitor-.+@widget\.invalid$/);
    // Jan's record is untouched and has no conversation.
    const [after] = await api.sql`select version from customers where id = ${existing}`;
    expect(after?.version).toBe(before?.version);
    const [{ count }] = await api.sql`select count(*)::int as count from conversations where customer_id = ${existing}`;
    expect(count).toBe(0);

    const anonymous = await start({ body: 'Wat kost een kozijn schilderen?' });
    const anonymousConversation = await conversationOfFirst(anonymous.body.data.messages[0].id);
    const plain = await api.call('getConversation', { key, params: { conversation: anonymousConversation } });
    expect(plain.body.data.customer).toEqual({ name: null, email: null, phone: null });
    expect(plain.body.data.visitor_email).toBeNull();
  });

  it('refuses a page_url that is not http or https (422 naming page_url)', async () => {
    for (const page_url of ['javascript:alert(document.cookie)', 'data:text/html,<b>x</b>', 'file:///etc/passwd']) {
      const res = await start({ body: 'Hallo', page_url });
      expect(res.status, page_url).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer: '/page_url' });
    }
    expect((await start({ body: 'Hallo', page_url: 'HTTPS://www.dekwast.nl/' })).status).toBe(201);
  });

  it('refuses a missing, unknown or other widget’s token with 401 unauthenticated', async () => {
    const none = await poll(null);
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'unauthenticated' });
    expect((await poll('vt_thisisnotatokenofanyvisitor0000000000000')).status).toBe(401);
    expect((await poll('svc_notavisitortoken')).status).toBe(401);

    const other = await api.tenant();
    const { row } = await setChannelSettings(api.db, other.companyId, {});
    const theirs = await start({ body: 'Hallo' }, row.widgetId);
    const crossed = await poll(theirs.body.data.visitor_token);
    expect(crossed.status).toBe(401);
    expect((await write(theirs.body.data.visitor_token, 'Hallo?')).status).toBe(401);
  });

  it('reads the team’s replies sent through the API, with after as the poll cursor', async () => {
    const { body } = await start({ body: 'Hebben jullie volgende week tijd?' });
    const token = body.data.visitor_token;
    const first = body.data.messages[0].id;
    const conversationId = await conversationOfFirst(first);
    const reply = await api.call('createConversationMessage', {
      key,
      params: { conversation: conversationId },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      body: { body: 'Goedemorgen! Dinsdag kan zeker.' },
    });
    expect(reply.status).toBe(201);

    const all = await poll(token);
    expect(all.status).toBe(200);
    expect(all.body.data.map((m: { sender: string; body: string }) => [m.sender, m.body])).toEqual([
      ['visitor', 'Hebben jullie volgende week tijd?'],
      ['team', 'Goedemorgen! Dinsdag kan zeker.'],
    ]);
    expect(all.body.meta).toEqual({ conversation_status: 'open', has_more: false });
    const later = await poll(token, { after: first });
    expect(later.body.data.map((m: { id: string }) => m.id)).toEqual([all.body.data[1].id]);
    const none = await poll(token, { after: all.body.data[1].id });
    expect(none.body.data).toEqual([]);
    const paged = await poll(token, { limit: 1 });
    expect(paged.body.meta.has_more).toBe(true);
    const unknown = await poll(token, { after: crypto.randomUUID() });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ parameter: 'after', code: 'invalid_reference' });

    const sent = await write(token, 'Top, dan zie ik jullie dinsdag.');
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ sender: 'visitor', body: 'Top, dan zie ik jullie dinsdag.' });
    const got = await api.call('getConversation', { key, params: { conversation: conversationId } });
    expect(got.body.data).toMatchObject({ status: 'waiting_on_team', message_count: 3 });
  });

  it('reopens a closed conversation as waiting_on_team when the visitor writes', async () => {
    const { body } = await start({ body: 'Bedankt voor de offerte.' });
    const token = body.data.visitor_token;
    const conversationId = await conversationOfFirst(body.data.messages[0].id);
    await api.call('closeConversation', { key, params: { conversation: conversationId } });
    expect((await poll(token)).body.meta.conversation_status).toBe('closed');

    expect((await write(token, 'Nog één vraag over de kleur.')).status).toBe(201);
    const got = await api.call('getConversation', { key, params: { conversation: conversationId } });
    expect(got.body.data).toMatchObject({ status: 'waiting_on_team', closed_at: null, message_count: 2 });
    expect((await poll(token)).body.meta.conversation_status).toBe('open');
  });

  it('takes bodies of at most 16 KiB and closed bodies', async () => {
    const big = await start({
      body: 'x'.repeat(3000),
      name: 'y'.repeat(200),
      email: `${'z'.repeat(60)}@example.nl`,
      page_url: `https://example.nl/${'p'.repeat(1900)}`,
      extra: 'q'.repeat(12_000),
    });
    expect({ status: big.status, code: big.body.code }).toEqual({ status: 413, code: 'payload_too_large' });
    const unknown = await start({ body: 'Hallo', phone: '0612345678' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: '/phone', code: 'unknown_field' });
    const empty = await start({ body: '' });
    expect(empty.status).toBe(422);
  });
});

describe('limits per client address', () => {
  it('limits new sessions (widget_sessions) and all widget requests (widget) with 429 and Retry-After', async () => {
    const saved = { sessions: api.deps.widgetSessionLimits, all: api.deps.widgetLimits };
    api.deps.widgetSessionLimits = new RateLimits(
      [{ name: 'widget_sessions', limit: 2, windowSeconds: 3600 }],
      'ws-test',
    );
    api.deps.widgetLimits = new RateLimits([{ name: 'widget', limit: 5, windowSeconds: 60 }], 'w-test');
    try {
      expect((await start({ body: 'Eén' })).status).toBe(201);
      const second = await start({ body: 'Twee' });
      expect(second.status).toBe(201);
      expect(second.headers.get('ratelimit')).toMatch(/^"widget_sessions";r=0;t=\d+$/);
      const third = await start({ body: 'Drie' });
      expect({ status: third.status, code: third.body.code }).toEqual({ status: 429, code: 'rate_limited' });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

      // Polls count in the widget window only: the fourth and fifth request pass, the sixth is refused.
      const token = second.body.data.visitor_token;
      expect((await poll(token)).status).toBe(200);
      expect((await poll(token)).status).toBe(200);
      const refused = await poll(token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit')).toMatch(/^"widget";r=0;t=\d+$/);
    } finally {
      api.deps.widgetSessionLimits = saved.sessions;
      api.deps.widgetLimits = saved.all;
    }
  });
});

describe('CORS', () => {
  const origin = 'https://www.dekwast.nl';

  it('answers the preflight of a page on another origin', async () => {
    const res = await api.app.request(`http://api.test/api/v1/widget/${widgetId}/messages`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets the page read answers and problems, with their rate-limit headers', async () => {
    const ok = await api.call('getWidget', { params: { widget_id: widgetId }, headers: { Origin: origin } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toContain('RateLimit');
    const problem = await poll(null);
    expect(problem.status).toBe(401);
    const withOrigin = await api.call('listWidgetMessages', {
      params: { widget_id: widgetId },
      headers: { Origin: origin },
    });
    expect(withOrigin.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('gives the rest of the API no CORS headers', async () => {
    const res = await api.call('listConversations', { key, headers: { Origin: origin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
