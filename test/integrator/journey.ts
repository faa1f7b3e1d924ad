// An integrator's first day, written only with the exported typed client: create a customer safely
// (Idempotency-Key), update it without losing someone else's change (If-Match), page through a list with
// cursors, create a deal and move it on the board, and subscribe a webhook endpoint. Run against the real service
// (every assertion) and against the Prism mock (`behaviour: false`: what a mock can answer — each call is
// accepted as the contract says and answers a schema-shaped body — not what the service does with it).
import { expect } from 'vitest';
import { type CrmClient, listAll, newIdempotencyKey, ok, type Schemas } from '../../src/client/index.ts';

export type JourneyResult = {
  customer: Schemas['Customer'];
  deal: Schemas['Deal'];
  endpoint: Schemas['WebhookEndpointWithSecret'];
};

export async function integratorJourney(
  client: CrmClient,
  opts: { behaviour: boolean; webhookUrl: string; email: string },
): Promise<JourneyResult> {
  const { behaviour } = opts;
  const me = ok(await client.GET('/me')).data;
  expect(me.object).toBe('api_key');

  // A creation that can be retried safely: the same key replays the first answer instead of creating twice.
  const idempotencyKey = newIdempotencyKey();
  const create = () =>
    client.POST('/customers', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: { email: opts.email, name: 'Eva de Boer', country: 'nl' },
    });
  const created = await create();
  expect(created.response.status).toBe(201);
  const customer = ok(created).data;
  expect(customer.object).toBe('customer');
  if (behaviour) {
    expect(customer.email).toBe(opts.email);
    const retried = await create();
    expect(retried.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(ok(retried).data.id).toBe(customer.id);
  }

  // An update with If-Match: only while the customer is still the version we saw.
  const read = await client.GET('/customers/{customer}', { params: { path: { customer: customer.id } } });
  const etag = read.response.headers.get('ETag');
  expect(etag).toBeTruthy();
  const updated = await client.PATCH('/customers/{customer}', {
    params: { path: { customer: customer.id }, header: { 'If-Match': etag ?? '*' } },
    body: { phone: '+31 20 123 4567' },
  });
  expect(ok(updated).data.object).toBe('customer');
  if (behaviour) {
    expect(ok(updated).data.phone).toBe('+31 20 123 4567');
    expect(updated.response.headers.get('ETag')).not.toBe(etag);
    // Someone else's change came first: a second update with the old ETag is refused and changes nothing.
    const stale = await client.PATCH('/customers/{customer}', {
      params: { path: { customer: customer.id }, header: { 'If-Match': etag ?? '*' } },
      body: { phone: '+31 20 000 0000' },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error?.code).toBe('precondition_failed');
  }

  // Every customer, page after page (3 a page), following next_cursor.
  const pages: string[] = [];
  const seen: string[] = [];
  for await (const c of listAll((cursor) => {
    pages.push(cursor ?? 'first');
    return client.GET('/customers', { params: { query: { limit: 3, cursor } } });
  })) {
    seen.push(c.id);
    if (!behaviour && pages.length >= 2) break; // the mock's example page always offers a next one
  }
  expect(pages.length).toBeGreaterThanOrEqual(2);
  if (behaviour) {
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(customer.id);
  }

  // A deal, moved to the next stage of the board.
  const stages = ok(await client.GET('/pipeline-stages')).data;
  const open = stages.filter((s) => s.type === 'open').sort((a, b) => a.position - b.position);
  const target = open.find((s) => !s.is_default) ?? open[0];
  const deal = ok(
    await client.POST('/deals', {
      params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
      body: { customer_id: customer.id, title: 'Zonnepanelen op het dak', value: '18450.00' },
    }),
  ).data;
  expect(deal.object).toBe('deal');
  const moved = ok(
    await client.POST('/deals/{deal}/move', {
      params: { path: { deal: deal.id } },
      body: { stage_id: Number(target.id) },
    }),
  ).data;
  if (behaviour) expect(moved.stage.id).toBe(target.id);

  // A webhook endpoint for the deal's outcome; its signing secret is shown only in this answer.
  const endpoint = ok(
    await client.POST('/webhook-endpoints', {
      params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
      body: { url: opts.webhookUrl, events: ['deal.won', 'deal.lost'], description: 'Integrator journey' },
    }),
  ).data;
  expect(endpoint.secret).toMatch(/^whsec_/);
  return { customer, deal: moved, endpoint };
}
