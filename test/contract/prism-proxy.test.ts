// Prism in the loop: a client's end-to-end flow sent through `prism proxy --errors` to the real server, so
// every request and answer is also checked by a second, independent validator of the contract (any violation
// makes Prism answer 500 or report it in `sl-violations`). The flow's read-only part against `prism mock` is in
// prism-mock.test.ts, which starts the mock once for both.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineOf } from '../features/deals/fixtures.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { prismClientOf, startPrism } from '../harness/prism.ts';
import { forRequests, PROCESS_START_HANG_MS, type Started } from '../harness/processes.ts';

describe('the client flow through prism proxy --errors to the real server', () => {
  let api: TestApi;
  let server: ReturnType<typeof serve>;
  let prism: Started;
  let key: string;
  let companyId: string;

  beforeAll(async () => {
    api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    ({ key, companyId } = await api.tenant());
    const address = await new Promise<AddressInfo>((resolve) => {
      // A request carrying X-Gate-Break gets a broken answer, to show Prism catches a non-conforming response.
      const fetch = (request: Request) =>
        request.headers.has('x-gate-break')
          ? Response.json({ data: { object: 'api_key', id: 42 } }, { status: 200 })
          : api.app.fetch(request);
      server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info));
    });
    prism = await startPrism(`http://127.0.0.1:${address.port}/api/v1`);
  }, PROCESS_START_HANG_MS);

  afterAll(async () => {
    await prism?.stop();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('notices a contract violation (the check is live)', async () => {
    // A request the contract refuses: Prism answers it itself, with a problem naming the violation.
    const response = await fetch(`${prism.url}/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 12 }),
    });
    expect(response.status).toBe(422);
    expect(await response.text()).toMatch(/email/);
  });

  it('notices a response outside the contract (the check is live)', async () => {
    const response = await fetch(`${prism.url}/me`, {
      headers: { authorization: `Bearer ${key}`, 'x-gate-break': '1' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/problem\+json/);
    expect(response.headers.get('sl-violations')).toContain('data.id must be string');
  });

  it(
    'runs customers, notes, deals, events, webhook endpoints, users, company and me without a violation',
    async () => {
      const { send, log } = prismClientOf(prism.url, key);
      const stages = await pipelineOf(api, companyId);

      expect((await send('getMe')).body.data.object).toBe('api_key');
      expect((await send('getCompany')).body.data.id).toBe(companyId);
      expect((await send('listUsers')).status).toBe(200);

      const created = await send('createCustomer', {
        body: { email: 'anna@bakkerij.example', name: 'Anna de Bakker', country: 'nl' },
        headers: { 'Idempotency-Key': 'flow-create-1' },
      });
      expect(created.status).toBe(201);
      const customer = created.body.data.id as string;
      const got = await send('getCustomer', { params: { customer } });
      expect(got.body.data.country).toBe('NL');
      const etag = got.headers.get('etag') as string;
      expect(etag).toBeTruthy();
      const patched = await send('updateCustomer', {
        params: { customer },
        body: { phone: '+31 20 123 4567' },
        headers: { 'If-Match': etag },
      });
      expect(patched.status).toBe(200);
      const stale = await send('updateCustomer', {
        params: { customer },
        body: { phone: '+31 20 000 0000' },
        headers: { 'If-Match': etag },
      });
      expect(stale.status).toBe(412);

      for (const n of [2, 3]) await send('createCustomer', { body: { email: `klant${n}@example.nl` } });
      const first = await send('listCustomers', { query: { limit: 2 } });
      expect(first.body.data).toHaveLength(2);
      const second = await send('listCustomers', { query: { limit: 2, cursor: first.body.meta.next_cursor } });
      expect(second.body.data).toHaveLength(1);

      const note = await send('createCustomerNote', {
        params: { customer },
        body: { content: 'Belt terug na 14:00.' },
      });
      expect(note.status).toBe(201);
      expect((await send('listCustomerNotes', { params: { customer } })).body.data).toHaveLength(1);
      const deleted = await send('deleteCustomerNote', { params: { customer, note: note.body.data.id } });
      expect(deleted.status).toBe(200);

      const converted = await send('convertCustomer', { params: { customer } });
      expect(converted.body.data.status).toBe('customer');
      expect((await send('listCustomerTimeline', { params: { customer } })).status).toBe(200);

      expect((await send('listPipelineStages')).body.data.length).toBeGreaterThanOrEqual(5);
      const deal = await send('createDeal', {
        body: { customer_id: customer, title: 'Nieuwe pui', value: '18450.00' },
      });
      expect(deal.status).toBe(201);
      const dealId = deal.body.data.id as string;
      const moved = await send('moveDeal', { params: { deal: dealId }, body: { stage_id: stages.qualified } });
      expect(moved.status).toBe(200);
      const won = await send('winDeal', { params: { deal: dealId } });
      expect(won.body.data.status).toBe('won');
      expect((await send('getDeal', { params: { deal: dealId } })).status).toBe(200);

      const events = await send('listEvents', { query: { limit: 5 } });
      expect(events.body.data.length).toBeGreaterThan(0);
      expect((await send('getEvent', { params: { event: events.body.data[0].id } })).status).toBe(200);

      const endpoint = await send('createWebhookEndpoint', {
        body: { url: 'http://127.0.0.1:9/crm-hooks', events: ['customer.created', 'deal.won'] },
      });
      expect(endpoint.status).toBe(201);
      const endpointId = endpoint.body.data.id as string;
      expect((await send('getWebhookEndpoint', { params: { endpoint: endpointId } })).status).toBe(200);
      expect((await send('listWebhookEndpoints')).body.data).toHaveLength(1);
      expect((await send('deleteWebhookEndpoint', { params: { endpoint: endpointId } })).status).toBe(200);
      expect((await send('getWebhookEndpoint', { params: { endpoint: endpointId } })).status).toBe(404);

      expect(log.length).toBeGreaterThanOrEqual(28);
    },
    forRequests(27),
  );
});
