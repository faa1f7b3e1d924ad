// An endpoint never receives more than its creator may see: the read scopes stored with the endpoint decide,
// per event, as for GET /events (deal events need deals.read; a note follows its customer or deal).
import { beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/tenant.ts';
import type { EventType } from '../../src/events/catalogue.ts';
import { recordEvent } from '../../src/events/record.ts';
import { createCustomer, insertEndpoint, receiver, runDueJobs } from '../features/webhook-deliveries/support.ts';
import { setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
});

// The contract's example deal and deal note (the event body is checked against the contract when sent).
const DEAL = {
  object: 'deal',
  id: '0192f4d3-4c5d-7e6f-8a9b-0c1d2e3f4a5b',
  title: 'Zonnepanelen Bakkerij Jansen',
  description: null,
  status: 'won',
  value: '18450.00',
  currency: 'EUR',
  value_source: 'quotes',
  stage: { object: 'pipeline_stage', id: '5' },
  customer_id: '0192f4a2-6c1e-7b3a-9d4f-2a8e5c7b1f30',
  assigned_user_id: null,
  source: 'api',
  lost_reason: null,
  external_ref: null,
  is_archived: false,
  stage_changed_at: '2026-03-14T08:30:05Z',
  won_at: '2026-03-14T08:30:05Z',
  lost_at: null,
  archived_at: null,
  created_at: '2026-02-03T10:20:00Z',
  updated_at: '2026-03-14T08:30:05Z',
};
const DEAL_NOTE = {
  object: 'note',
  id: '0192f4e1-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
  content: 'Montage ingepland in week 14.',
  is_important: false,
  parent: { object: 'deal', id: DEAL.id },
  author: null,
  created_at: '2026-03-14T11:40:09Z',
  updated_at: '2026-03-14T11:40:09Z',
};

/** An event about a deal (or a deal's note), recorded as the deals resource will record it. */
async function dealEvent(companyId: string, type: EventType) {
  const object = type.startsWith('note.') ? DEAL_NOTE : DEAL;
  return withTenant(api.db, companyId, (tx) =>
    recordEvent(tx, companyId, { type, scope: 'deals.read', customerId: null, object }),
  );
}

const typesReceived = (hook: Awaited<ReturnType<typeof receiver>>) =>
  hook.requests.map((r) => JSON.parse(r.body).type).sort();

describe('scope visibility of deliveries', () => {
  it('customers.read only: customer events yes, deal events and notes of deals no; both scopes: all', async () => {
    const { companyId, key } = await api.tenant();
    const customersOnly = await receiver();
    const everything = await receiver();
    const narrow = await insertEndpoint(api, companyId, {
      url: customersOnly.url,
      events: ['*'],
      scopes: ['customers.read'],
    });
    await insertEndpoint(api, companyId, {
      url: everything.url,
      events: ['*'],
      scopes: ['customers.read', 'deals.read'],
    });

    await createCustomer(api, key);
    const dealEventId = await dealEvent(companyId, 'deal.won');
    await dealEvent(companyId, 'note.created');
    await runDueJobs(api, companyId);

    expect(typesReceived(customersOnly)).toEqual(['customer.created']);
    expect(typesReceived(everything)).toEqual(['customer.created', 'deal.won', 'note.created']);
    // No delivery at all is logged for what the narrow endpoint may not see.
    const narrowDeliveries = await api.sql`select event_type from webhook_deliveries where endpoint_id = ${narrow.id}`;
    expect(narrowDeliveries.map((d) => d.event_type)).toEqual(['customer.created']);
    const ofDealEvent = await api.call('listEventDeliveries', { key, params: { event: dealEventId } });
    expect(ofDealEvent.status).toBe(200);
    expect(ofDealEvent.body.data.map((d: { endpoint_id: string }) => d.endpoint_id)).not.toContain(narrow.id);
    expect(ofDealEvent.body.data).toHaveLength(1);
  });

  it('an explicit subscription to deal types still gets nothing without deals.read', async () => {
    const { companyId } = await api.tenant();
    const hook = await receiver();
    await insertEndpoint(api, companyId, { url: hook.url, events: ['deal.won'], scopes: ['customers.read'] });
    await dealEvent(companyId, 'deal.won');
    await runDueJobs(api, companyId);
    expect(hook.requests).toHaveLength(0);
  });

  it('a subscription to some types gets only those, even with every scope', async () => {
    const { companyId, key } = await api.tenant();
    const hook = await receiver();
    await insertEndpoint(api, companyId, { url: hook.url, events: ['deal.won', 'note.created'] });
    await createCustomer(api, key);
    await dealEvent(companyId, 'deal.won');
    await dealEvent(companyId, 'deal.lost');
    await dealEvent(companyId, 'note.created');
    await runDueJobs(api, companyId);
    expect(typesReceived(hook)).toEqual(['deal.won', 'note.created']);
  });
});
