// The anti-abuse limits on sending, counted in PostgreSQL: 20 per hour per conversation and 250 per hour per
// company, the company's count shared by two API processes on one database; beyond them 429 rate_limited with
// Retry-After, and the refused message is neither sent nor stored.
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { conversationOf } from './fixtures.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi();
  // Counts are per clock hour: a run that would straddle the hour waits for the next one.
  const left = 3600 - ((Date.now() / 1000) % 3600);
  if (left < 90) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 500));
}, 120_000);

const messageCount = async (conversation: string) =>
  Number((await api.sql`select count(*) from conversation_messages where conversation_id = ${conversation}`)[0].count);

describe('outgoing-message limits', () => {
  it('refuses the 21st message of the hour in one conversation with 429 and Retry-After', async () => {
    const { key, companyId } = await api.tenant();
    const row = await conversationOf(api, companyId);
    for (let i = 1; i <= 20; i++) {
      const res = await api.call('createConversationMessage', {
        key,
        params: { conversation: row.id },
        body: { body: `Bericht ${i}` },
      });
      expect(res.status).toBe(201);
    }
    const refused = await api.call('createConversationMessage', {
      key,
      params: { conversation: row.id },
      body: { body: 'Bericht 21' },
      headers: { 'Idempotency-Key': `limit-${row.id}` },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.body.detail).toBe(
      'Too many outgoing messages: at most 20 per hour (conversation). Try again after Retry-After seconds.',
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await messageCount(row.id)).toBe(21);
    // The refusal is not kept as the key's answer: the same key is tried again, not replayed.
    const [kept] = await api.sql`select 1 from idempotency_keys where key = ${`limit-${row.id}`}`;
    expect(kept).toBeUndefined();
    // Another conversation of the company still sends.
    const other = await conversationOf(api, companyId);
    expect(
      (await api.call('createConversationMessage', { key, params: { conversation: other.id }, body: { body: 'Ja' } }))
        .status,
    ).toBe(201);
  });

  it('refuses the 251st message of the hour in the company, counted across two API processes', async () => {
    const { key, companyId } = await api.tenant();
    const second = await api.otherProcess();
    const conversations = [];
    for (let i = 0; i < 13; i++) conversations.push(await conversationOf(api, companyId));
    for (let n = 0; n < 250; n++) {
      const call = n % 2 === 0 ? api.call : second.call;
      const res = await call('createConversationMessage', {
        key,
        params: { conversation: conversations[Math.floor(n / 20)].id },
        body: { body: `Bericht ${n + 1}` },
      });
      expect(res.status, `message ${n + 1}`).toBe(201);
    }
    const refused = await second.call('createConversationMessage', {
      key,
      params: { conversation: conversations[12].id },
      body: { body: 'Bericht 251' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.body.detail).toBe(
      'Too many outgoing messages: at most 250 per hour (company). Try again after Retry-After seconds.',
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const [stored] = await api.sql`select count(*) from conversation_messages where company_id = ${companyId}
      and sender = 'api'`;
    expect(Number(stored.count)).toBe(250);
  }, 120_000);
});
