// Closing and reopening: the states they allow (409 otherwise), closed_at, the AI agent switched off, the
// conversation.closed event, and a customer's message reopening a closed conversation as waiting_on_team.
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../../src/db/tenant.ts';
import { lockConversation } from '../../../src/resources/conversations/queries.ts';
import { addMessage } from '../../../src/resources/conversations/writes.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { conversationOf } from './fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

const eventsOf = async (type: string, id: string) =>
  api.sql`select data from events where company_id = ${companyId} and type = ${type}
          and data->'object'->>'id' = ${id}`;

describe('closeConversation and reopenConversation', () => {
  it('closes (closed_at, AI agent off, conversation.closed), refuses a second close, reopens as open', async () => {
    const row = await conversationOf(api, companyId);
    const closed = await api.call<'closeConversation'>('closeConversation', { key, params: { conversation: row.id } });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ status: 'closed', ai_agent_active: false });
    expect(closed.body.data.closed_at).not.toBeNull();
    const [event] = await eventsOf('conversation.closed', row.id);
    expect(event.data.object).toEqual(closed.body.data);

    const again = await api.call('closeConversation', { key, params: { conversation: row.id } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');

    const reopened = await api.call<'reopenConversation'>('reopenConversation', {
      key,
      params: { conversation: row.id },
    });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ status: 'open', closed_at: null, ai_agent_active: false });
    const twice = await api.call('reopenConversation', { key, params: { conversation: row.id } });
    expect(twice.status).toBe(409);
  });

  it('reopens a closed conversation as waiting_on_team when the customer writes', async () => {
    const row = await conversationOf(api, companyId);
    await api.call('closeConversation', { key, params: { conversation: row.id } });
    await withTenant(api.db, companyId, async (tx) => {
      const locked = await lockConversation(tx, companyId, row.id);
      if (!locked) throw new Error('missing');
      await addMessage(tx, locked, { sender: 'customer', body: 'Nog een vraag.' });
    });
    const res = await api.call<'getConversation'>('getConversation', { key, params: { conversation: row.id } });
    expect(res.body.data).toMatchObject({ status: 'waiting_on_team', closed_at: null, message_count: 2 });
  });

  it('records conversation.created and message.created, readable with messages.read', async () => {
    const row = await conversationOf(api, companyId);
    expect(await eventsOf('conversation.created', row.id)).toHaveLength(1);
    const reader = await api.key(companyId, { scopes: ['events.read', 'messages.read'] });
    const events = await api.call<'listEvents'>('listEvents', { key: reader.key, query: { limit: 100 } });
    expect(events.status).toBe(200);
    const types = new Set(events.body.data.map((e) => e.type));
    expect(types).toContain('conversation.created');
    expect(types).toContain('message.created');
    const other = await api.key(companyId, { scopes: ['events.read', 'customers.read'] });
    const hidden = await api.call<'listEvents'>('listEvents', { key: other.key, query: { limit: 100 } });
    expect(hidden.body.data.some((e) => e.type.startsWith('conversation.') || e.type === 'message.created')).toBe(
      false,
    );
  });

  it('answers 404 for another company and needs messages.send', async () => {
    const other = await api.tenant();
    const row = await conversationOf(api, other.companyId);
    expect((await api.call('closeConversation', { key, params: { conversation: row.id } })).status).toBe(404);
    const reader = await api.key(other.companyId, { scopes: ['messages.read'] });
    const refused = await api.call('closeConversation', { key: reader.key, params: { conversation: row.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_scope');
  });
});
