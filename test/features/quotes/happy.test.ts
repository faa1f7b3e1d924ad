// Quotes: creation with numbers and totals, drafts-only updates, send (email through the outbox, counted in the
// company's outgoing limit), accept/reject on the customer's behalf, events and the deal's value.
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/domain/locale-format.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { customerOf, dealOf, pipelineOf } from '../deals/fixtures.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

const LINES = [
  { type: 'labor', name: 'Schilderwerk buitenkozijnen', quantity: 24, unit: 'uur', unit_price: 52.5, tax_rate: 9 },
  {
    type: 'material',
    name: 'Verf Sikkens Rubbol XD 2,5 L',
    quantity: 6,
    unit_price_incl: 96.8,
    discount_percentage: 10,
    tax_rate: 21,
  },
  { type: 'text', name: 'Inclusief afplakken en afdekken' },
];

async function quoteOf(body: Record<string, unknown> = {}) {
  const customer_id = (body.customer_id as string | undefined) ?? (await customerOf(api, key));
  const res = await api.call<'createQuote'>('createQuote', {
    key,
    body: { customer_id, title: 'Schilderwerk', items: LINES, discount_percentage: 5, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const eventsOf = async (type: string) =>
  api.sql<{ data: { object: { id: string; status: string } } }[]>`
    select data from events where company_id = ${companyId} and type = ${type} order by id`;

describe('createQuote', () => {
  it('creates a numbered draft with the totals of the contract, the customer copy and quote.created', async () => {
    const customer = await customerOf(api, key, 'Pieter de Boer');
    const quote = await quoteOf({ customer_id: customer, quote_date: '2026-03-02' });
    expect(quote).toMatchObject({
      object: 'quote',
      status: 'draft',
      number: expect.stringMatching(/^O\d{4}-\d{4}$/),
      customer: { name: 'Pieter de Boer', type: 'individual' },
      quote_date: '2026-03-02',
      valid_until: '2026-04-01',
      subtotal: '1692.00',
      discount_amount: '84.60',
      tax_amount: '193.91',
      total: '1801.31',
    });
    expect(quote.items.map((i) => [i.object, i.line_total, i.line_total_incl])).toEqual([
      ['quote_item', '1260.00', null],
      ['quote_item', '432.00', '522.72'],
      ['quote_item', '0.00', null],
    ]);
    const events = await eventsOf('quote.created');
    expect(events.map((e) => e.data.object.id)).toContain(quote.id);
  });

  it('refuses an unknown customer, a discount above the line and both prices at once', async () => {
    const res = await api.call('createQuote', {
      key,
      body: {
        customer_id: '01900000-0000-7000-8000-000000000000',
        title: 'X',
        items: [
          { name: 'A', unit_price: 10, discount_amount: 11 },
          { name: 'B', unit_price: 10, unit_price_incl: 12.1 },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
      ['/customer_id', 'invalid_reference'],
      ['/items/0/discount_amount', 'too_big'],
      ['/items/1/unit_price_incl', 'invalid_combination'],
    ]);
  });
});

describe('updateQuote', () => {
  it('changes a draft and recalculates; a sent quote answers 409', async () => {
    const quote = await quoteOf();
    const res = await api.call<'updateQuote'>('updateQuote', {
      key,
      params: { quote: quote.id },
      body: { discount_percentage: 0, discount_amount: 10 },
      headers: { 'if-match': '"1"' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ discount_amount: '10.00', subtotal: '1692.00' });
    // The lines were recalculated from what was entered (the line priced including tax keeps its price).
    expect(res.body.data.items[1]).toMatchObject({ unit_price_incl: '96.80', line_total: '432.00' });
    expect(res.headers.get('etag')).toBe('"2"');
    const stale = await api.call('updateQuote', {
      key,
      params: { quote: quote.id },
      body: { title: 'Y' },
      headers: { 'if-match': '"1"' },
    });
    expect(stale.status).toBe(412);
    expect((await api.call('sendQuote', { key, params: { quote: quote.id } })).status).toBe(200);
    const sent = await api.call('updateQuote', { key, params: { quote: quote.id }, body: { title: 'Z' } });
    expect(sent.status).toBe(409);
  });
});

describe('sendQuote', () => {
  it('queues the email to the customer, marks the quote sent once and emits quote.sent', async () => {
    const quote = await quoteOf();
    const res = await api.call<'sendQuote'>('sendQuote', { key, params: { quote: quote.id }, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('sent');
    expect(res.body.data.sent_at).not.toBeNull();
    const again = await api.call<'sendQuote'>('sendQuote', { key, params: { quote: quote.id } });
    expect(again.body.data.sent_at).toBe(res.body.data.sent_at);
    const emails = await api.sql<{ to: string[]; subject: string; body: string; kind: string }[]>`
      select "to", subject, body, kind from outbound_emails where company_id = ${companyId} and subject like ${`%${quote.number}%`}`;
    expect(emails).toHaveLength(2);
    expect(emails[0]).toMatchObject({ to: [quote.customer.email], kind: 'quote_sent' });
    // Written as the PDF writes it (src/domain/locale-format.ts), not as the API's decimal string.
    expect(emails[0].body).toContain(formatMoney('1801.31', quote.currency, quote.language));
    expect(emails[0].body).not.toContain('1801.31');
    expect((await eventsOf('quote.sent')).filter((e) => e.data.object.id === quote.id)).toHaveLength(1);
  });

  it('answers 429 past the 250 outgoing messages of the hour, queues nothing, and does not keep it for the key', async () => {
    const quote = await quoteOf();
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    await api.sql`
      insert into outgoing_message_counts (company_id, scope, hour_start, count)
      values (${companyId}, 'company', date_trunc('hour', now()), 250)
      on conflict (company_id, scope, hour_start) do update set count = 250`;
    try {
      const res = await api.call('sendQuote', { key, params: { quote: quote.id }, headers });
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('rate_limited');
      expect(res.body.detail).toBe('The company has sent 250 messages this hour, its limit; try again later.');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      const [row] = await api.sql`select status from quotes where id = ${quote.id}`;
      expect(row.status).toBe('draft');
      const emails = await api.sql`select 1 from outbound_emails where subject like ${`%${quote.number}%`}`;
      expect(emails).toHaveLength(0);
      // The refusal passes: after the hour (the count gone), the same key sends the quote.
      await api.sql`delete from outgoing_message_counts where company_id = ${companyId}`;
      const retried = await api.call('sendQuote', { key, params: { quote: quote.id }, headers });
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await api.sql`delete from outgoing_message_counts where company_id = ${companyId}`;
    }
  });
});

describe('acceptQuote and rejectQuote', () => {
  it('accepts a sent quote, moves its deal to the stage and sets the deal value from its quotes', async () => {
    const { companyId: other, key: otherKey } = await api.tenant();
    const stages = await pipelineOf(api, other);
    const customer = await customerOf(api, otherKey);
    const deal = await dealOf(api, otherKey, { customer_id: customer });
    const created = await api.call<'createQuote'>('createQuote', {
      key: otherKey,
      body: {
        customer_id: customer,
        title: 'Offerte',
        deal_id: deal.id,
        pipeline_stage_id: stages.won,
        items: [{ name: 'A', quantity: 2, unit_price: 10, tax_rate: 21 }],
      },
    });
    expect(created.status).toBe(201);
    const quote = created.body.data;
    const afterCreate = await api.call('getDeal', { key: otherKey, params: { deal: deal.id } });
    expect(afterCreate.body.data.value).toBe('24.20');
    const early = await api.call('acceptQuote', { key: otherKey, params: { quote: quote.id } });
    expect(early.status).toBe(409);
    await api.call('sendQuote', { key: otherKey, params: { quote: quote.id } });
    const accepted = await api.call<'acceptQuote'>('acceptQuote', { key: otherKey, params: { quote: quote.id } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'accepted' });
    const after = await api.call('getDeal', { key: otherKey, params: { deal: deal.id } });
    expect(after.body.data).toMatchObject({ status: 'won', stage: { id: String(stages.won) }, value: '24.20' });
  });

  it('rejects with the reason in notes; a draft cannot be rejected', async () => {
    const quote = await quoteOf({ notes: 'Belde op 3 maart' });
    expect((await api.call('rejectQuote', { key, params: { quote: quote.id } })).status).toBe(409);
    await api.call('sendQuote', { key, params: { quote: quote.id } });
    const res = await api.call<'rejectQuote'>('rejectQuote', {
      key,
      params: { quote: quote.id },
      body: { reason: 'Te duur' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', notes: 'Belde op 3 maart\nTe duur' });
    expect((await eventsOf('quote.rejected')).map((e) => e.data.object.id)).toContain(quote.id);
  });
});

describe('listQuotes', () => {
  it('filters by status and customer', async () => {
    const customer = await customerOf(api, key);
    const a = await quoteOf({ customer_id: customer });
    await quoteOf({ customer_id: customer });
    await api.call('sendQuote', { key, params: { quote: a.id } });
    const res = await api.call<'listQuotes'>('listQuotes', {
      key,
      query: { 'filter[customer_id]': customer, 'filter[status]': 'sent' },
    });
    expect(res.body.data.map((q) => q.id)).toEqual([a.id]);
  });
});
