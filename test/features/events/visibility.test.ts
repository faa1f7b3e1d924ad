// Who sees which event: the key's read scopes (customers.read for customer and customer-note events,
// deals.read for deal events), only its own company, and never a ping.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../../src/auth/scopes.ts';
import { newId, prefixedId } from '../../../src/ids.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let companyId: string;
let fullKey: string;
/** Ids of the customer and note events, and of the deal event inserted by hand. */
let customerEvents: string[];
let dealEvent: string;
let dealObject: Record<string, unknown>;

async function keyWith(scopes: Scope[]) {
  return (await api.key(companyId, { scopes })).key;
}

const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((e) => e.id);

beforeAll(async () => {
  api = await setupApi();
  ({ companyId, key: fullKey } = await api.tenant());
  const created = await api.call('createCustomer', { key: fullKey, body: { email: 'zicht@example.nl' } });
  const customer = created.body.data.id;
  await api.call('createCustomerNote', { key: fullKey, params: { customer }, body: { content: 'Notitie' } });
  customerEvents = (
    await api.sql`select id from events where company_id = ${companyId} order by created_at desc, id desc`
  ).map((r) => r.id);
  expect(customerEvents).toHaveLength(2);
  // The deals resource does not exist yet: its event is written as recordEvent would write it.
  const at = new Date(Date.now() + 1000).toISOString();
  dealObject = {
    object: 'deal',
    id: newId(),
    title: 'Zonnepanelen',
    description: null,
    status: 'won',
    value: '18450.00',
    currency: 'EUR',
    value_source: 'manual',
    stage: { object: 'pipeline_stage', id: '5' },
    customer_id: customer,
    assigned_user_id: null,
    source: 'api',
    lost_reason: null,
    external_ref: null,
    is_archived: false,
    stage_changed_at: at,
    won_at: at,
    lost_at: null,
    archived_at: null,
    created_at: at,
    updated_at: at,
  };
  dealEvent = prefixedId('evt');
  await api.sql`
    insert into events (company_id, id, type, scope, customer_id, data, created_at)
    values (${companyId}, ${dealEvent}, 'deal.won', 'deals.read', ${customer}, ${JSON.stringify({ object: dealObject })}::jsonb,
            now() + interval '1 second')`;
});

describe('listEvents by scope', () => {
  it('a key with customers.read and deals.read sees every event', async () => {
    const res = await api.call('listEvents', { key: fullKey });
    expect(idsOf(res)).toEqual([dealEvent, ...customerEvents]);
    expect(res.body.data[0]).toEqual({
      object: 'event',
      id: dealEvent,
      type: 'deal.won',
      created_at: expect.any(String),
      // Stored without metadata and custom fields (as before records had them): read back with `{}` (issue 51).
      data: { object: { ...dealObject, metadata: {}, custom_fields: {} } },
    });
  });

  it('a key with only events.read sees nothing', async () => {
    const res = await api.call('listEvents', { key: await keyWith(['events.read']) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { limit: 50, next_cursor: null, prev_cursor: null } });
  });

  it('customers.read shows customer and note events, not deal events', async () => {
    const key = await keyWith(['events.read', 'customers.read']);
    expect(idsOf(await api.call('listEvents', { key }))).toEqual(customerEvents);
    // A type the key may not read is not an error: it yields nothing.
    const deals = await api.call('listEvents', { key, query: { 'filter[type]': 'deal.won' } });
    expect(deals.status).toBe(200);
    expect(deals.body.data).toEqual([]);
  });

  it('deals.read shows deal events only', async () => {
    const key = await keyWith(['events.read', 'deals.read']);
    expect(idsOf(await api.call('listEvents', { key }))).toEqual([dealEvent]);
  });

  it('write scopes do not stand in for read scopes', async () => {
    const key = await keyWith(['events.read', 'customers.write', 'deals.write']);
    expect((await api.call('listEvents', { key })).body.data).toEqual([]);
  });
});

describe('getEvent by scope', () => {
  it('answers 403 insufficient_scope naming the scope the event needs', async () => {
    const only = await keyWith(['events.read']);
    const cases: [string, string, string][] = [
      [only, customerEvents[0], 'customers.read'],
      [only, dealEvent, 'deals.read'],
      [await keyWith(['events.read', 'customers.read']), dealEvent, 'deals.read'],
      [await keyWith(['events.read', 'deals.read']), customerEvents[1], 'customers.read'],
    ];
    for (const [key, event, scope] of cases) {
      const res = await api.call('getEvent', { key, params: { event } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: scope });
    }
  });

  it('answers the event to a key with its scope', async () => {
    const deals = await keyWith(['events.read', 'deals.read']);
    const res = await api.call('getEvent', { key: deals, params: { event: dealEvent } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: dealEvent, type: 'deal.won', data: { object: dealObject } });
    const customers = await keyWith(['events.read', 'customers.read']);
    const note = await api.call('getEvent', { key: customers, params: { event: customerEvents[0] } });
    expect(note.status).toBe(200);
    expect(note.body.data.type).toBe('note.created');
  });
});

describe('other companies', () => {
  it("never shows another company's events, in the list or by id", async () => {
    const other = await api.tenant();
    await api.call('createCustomer', { key: other.key, body: { email: 'ander@example.nl' } });
    const theirs = idsOf(await api.call('listEvents', { key: other.key }));
    expect(theirs).toHaveLength(1);
    const ours = idsOf(await api.call('listEvents', { key: fullKey }));
    expect(ours).toEqual([dealEvent, ...customerEvents]);
    for (const event of [dealEvent, ...customerEvents]) {
      expect((await api.call('getEvent', { key: other.key, params: { event } })).status).toBe(404);
    }
    expect((await api.call('getEvent', { key: fullKey, params: { event: theirs[0] } })).status).toBe(404);
  });
});

describe('ping', () => {
  it('is never listed nor answered, even if a row of it existed', async () => {
    const t = await api.tenant();
    const ping = prefixedId('evt');
    const object = { object: 'ping', webhook_endpoint_id: 'we_1', message: 'Test message for this webhook endpoint.' };
    await api.sql`
      insert into events (company_id, id, type, scope, data)
      values (${t.companyId}, ${ping}, 'ping', 'customers.read', ${JSON.stringify({ object })}::jsonb)`;
    const list = await api.call('listEvents', { key: t.key });
    expect(list.body.data).toEqual([]);
    const res = await api.call('getEvent', { key: t.key, params: { event: ping } });
    expect(res.status).toBe(404);
  });
});
