// The demo company's inbox: conversations on every channel, in every status, with threads in Dutch and English
// whose counters, times and events are those the inbox's own write path leaves.
import { beforeAll, expect, it } from 'vitest';
import { createDemo } from '../../../src/cli/demo.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
});

type Listed = { id: string; channel: string; status: string; message_count: number; last_message_at: string };

it('fills the demo inbox with conversations on each channel and in each status', async () => {
  const { key, companyId } = await createDemo(api.db);
  const list = await api.call('listConversations', { key, query: { limit: 100 } });
  expect(list.status).toBe(200);
  const conversations: Listed[] = list.body.data;
  expect(new Set(conversations.map((c) => c.channel))).toEqual(new Set(['web', 'whatsapp', 'email']));
  expect(new Set(conversations.map((c) => c.status))).toEqual(
    new Set(['open', 'waiting_on_customer', 'waiting_on_team', 'snoozed', 'closed']),
  );
  // Newest exchange first, all in the past.
  const times = conversations.map((c) => Date.parse(c.last_message_at));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());

  const bodies: string[] = [];
  for (const conversation of conversations) {
    const messages = await api.call('listConversationMessages', { key, params: { conversation: conversation.id } });
    expect(messages.body.data).toHaveLength(conversation.message_count);
    expect(messages.body.data[0].sender).toBe('customer');
    bodies.push(...messages.body.data.map((m: { body: string }) => m.body));
  }
  expect(bodies.some((b) => /cv-ketel|offerte/i.test(b))).toBe(true);
  expect(bodies.some((b) => /\b(the|thanks)\b/i.test(b))).toBe(true);

  // Events dated like the exchange they record, not like the moment the demo was written.
  const inbox = await api.sql`select type, created_at, data->'object' as object from events
    where company_id = ${companyId} and type in ('conversation.created', 'message.created', 'conversation.closed')`;
  expect(inbox.length).toBeGreaterThan(conversations.length);
  for (const event of inbox) {
    const at = event.type === 'conversation.closed' ? event.object.closed_at : event.object.created_at;
    expect(new Date(event.created_at).toISOString(), event.type).toBe(at);
  }
});
