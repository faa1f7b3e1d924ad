// Reading the inbox: every field of a conversation and a message, the list's sorts and filters (messages oldest
// first by default), 404 for another company's conversation, and the features that open the inbox.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { ageConversation, conversationOf, customerRow, UUID } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

describe('getConversation', () => {
  it('shows the conversation with its customer, counters and the AI-agent flag', async () => {
    const customerId = await customerRow(api, companyId, {
      name: 'Fatima el Amrani',
      email: 'fatima@example.nl',
      phone: '+31 6 23456789',
    });
    const row = await conversationOf(api, companyId, {
      customerId,
      channel: 'whatsapp',
      messages: [
        { sender: 'customer', body: 'Mijn omvormer geeft een storing.' },
        { sender: 'ai_agent', body: 'Wat staat er op het display?' },
      ],
    });
    const res = await api.call<'getConversation'>('getConversation', { key, params: { conversation: row.id } });
    expect(res.status).toBe(200);
    const c = res.body.data;
    expect(c).toMatchObject({
      object: 'conversation',
      id: row.id,
      status: 'waiting_on_customer',
      channel: 'whatsapp',
      priority: 'normal',
      customer_id: customerId,
      customer: { name: 'Fatima el Amrani', email: 'fatima@example.nl', phone: '+31 6 23456789' },
      ai_agent_active: true,
      message_count: 2,
      closed_at: null,
    });
    expect(c.id).toMatch(UUID);
    expect(c.last_message_at).toBe(row.lastMessageAt?.toISOString());
  });

  it('shows no address for a contact known only by a placeholder in .invalid', async () => {
    const customerId = await customerRow(api, companyId, { email: 'whatsapp-31612345678@contact.invalid' });
    const row = await conversationOf(api, companyId, { customerId, channel: 'whatsapp' });
    const res = await api.call<'getConversation'>('getConversation', { key, params: { conversation: row.id } });
    expect(res.body.data.customer.email).toBeNull();
  });

  it('answers 404 for a conversation of another company', async () => {
    const other = await api.tenant();
    const row = await conversationOf(api, other.companyId);
    const res = await api.call('getConversation', { key, params: { conversation: row.id } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('listConversations', () => {
  let tenant: { key: string; companyId: string };
  let ids: { old: string; mid: string; fresh: string; empty: string };

  beforeAll(async () => {
    tenant = await api.tenant();
    const old = await conversationOf(api, tenant.companyId, { channel: 'email', subject: 'Offerte' });
    const mid = await conversationOf(api, tenant.companyId, { channel: 'whatsapp' });
    const fresh = await conversationOf(api, tenant.companyId, { channel: 'web' });
    const empty = await conversationOf(api, tenant.companyId, { channel: 'web', messages: [] });
    await ageConversation(api, tenant.companyId, old.id, 5);
    await ageConversation(api, tenant.companyId, mid.id, 2);
    ids = { old: old.id, mid: mid.id, fresh: fresh.id, empty: empty.id };
  });

  const list = async (query: Record<string, string | number>) => {
    const res = await api.call<'listConversations'>('listConversations', { key: tenant.key, query });
    expect(res.status).toBe(200);
    return res.body;
  };

  it('puts the most recent message first and conversations without messages last by default', async () => {
    const page = await list({});
    expect(page.data.map((c) => c.id)).toEqual([ids.fresh, ids.mid, ids.old, ids.empty]);
  });

  it('puts conversations without messages first with last_message_at, and pages through with cursors', async () => {
    const first = await list({ sort: 'last_message_at', limit: 2 });
    expect(first.data.map((c) => c.id)).toEqual([ids.empty, ids.old]);
    const second = await list({ sort: 'last_message_at', limit: 2, cursor: first.meta.next_cursor as string });
    expect(second.data.map((c) => c.id)).toEqual([ids.mid, ids.fresh]);
    expect(second.meta.next_cursor).toBeNull();
    const back = await list({ sort: 'last_message_at', limit: 2, cursor: second.meta.prev_cursor as string });
    expect(back.data.map((c) => c.id)).toEqual([ids.empty, ids.old]);
  });

  it('sorts by created_at and updated_at both ways', async () => {
    expect((await list({ sort: 'created_at' })).data.map((c) => c.id)).toEqual([
      ids.old,
      ids.mid,
      ids.fresh,
      ids.empty,
    ]);
    expect((await list({ sort: '-created_at' })).data.map((c) => c.id)).toEqual([
      ids.empty,
      ids.fresh,
      ids.mid,
      ids.old,
    ]);
    const updated = (await list({ sort: 'updated_at' })).data;
    expect(updated.map((c) => c.updated_at)).toEqual([...updated.map((c) => c.updated_at)].sort());
    const down = (await list({ sort: '-updated_at' })).data;
    expect(down.map((c) => c.updated_at)).toEqual([...down.map((c) => c.updated_at)].sort().reverse());
  });

  it('filters by status, channel, customer and updated_since', async () => {
    expect((await list({ 'filter[channel]': 'web' })).data.map((c) => c.id).sort()).toEqual(
      [ids.fresh, ids.empty].sort(),
    );
    expect((await list({ 'filter[status]': 'open' })).data).toHaveLength(4);
    expect((await list({ 'filter[status]': 'closed' })).data).toHaveLength(0);
    const mid = (await list({ 'filter[channel]': 'whatsapp' })).data[0];
    expect((await list({ 'filter[customer_id]': mid.customer_id })).data.map((c) => c.id)).toEqual([ids.mid]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list({ 'filter[updated_since]': future })).data).toHaveLength(0);
  });

  it('needs one of the inbox features', async () => {
    const none = await api.tenant({ features: ['pipeline'] });
    const refused = await api.call('listConversations', { key: none.key });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('feature_not_available');
    const emailOnly = await api.tenant({ features: ['email'] });
    expect((await api.call('listConversations', { key: emailOnly.key })).status).toBe(200);
  });
});

describe('listConversationMessages', () => {
  it('lists the messages oldest first by default, newest first with -created_at, every field', async () => {
    const row = await conversationOf(api, companyId, {
      messages: [
        { sender: 'customer', body: 'Eén' },
        { sender: 'ai_agent', body: 'Twee' },
        { sender: 'customer', body: 'Drie' },
      ],
    });
    const res = await api.call<'listConversationMessages'>('listConversationMessages', {
      key,
      params: { conversation: row.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => m.body)).toEqual(['Eén', 'Twee', 'Drie']);
    expect(res.body.data[0]).toMatchObject({
      object: 'message',
      conversation_id: row.id,
      sender: 'customer',
      user_id: null,
      email_subject: null,
      attachment: null,
      whatsapp_status: null,
    });
    const newest = await api.call<'listConversationMessages'>('listConversationMessages', {
      key,
      params: { conversation: row.id },
      query: { sort: '-created_at', limit: 2 },
    });
    expect(newest.body.data.map((m) => m.body)).toEqual(['Drie', 'Twee']);
    expect(newest.body.meta.next_cursor).not.toBeNull();
  });

  it('answers 404 for a conversation of another company', async () => {
    const other = await api.tenant();
    const row = await conversationOf(api, other.companyId);
    const res = await api.call('listConversationMessages', { key, params: { conversation: row.id } });
    expect(res.status).toBe(404);
  });
});
