// A repeated Idempotency-Key replays the first answer byte for byte. The stored body used to be jsonb, which
// orders an object's keys by length (`id` before `object`, `name` before `email`…), so the replay carried the same
// data in another order than the first answer: a client comparing bodies or hashing them saw two answers.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../generated/operations.ts';
import { pipelineOf } from '../features/deals/fixtures.ts';
import { type CallOptions, type CallResult, setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  let companyId: string;
  ({ key, companyId } = await api.tenant());
  await pipelineOf(api, companyId);
});

/** The same request twice with one Idempotency-Key: the first answer and its replay. */
async function twice(id: OperationId, opts: CallOptions): Promise<[CallResult, CallResult]> {
  const headers = { 'idempotency-key': randomUUID(), ...opts.headers };
  const first = await api.call(id, { key, ...opts, headers });
  const again = await api.call(id, { key, ...opts, headers });
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  return [first, again];
}

/** The body as jsonb would give it back: the premise of these tests is that it differs from the one sent. */
async function throughJsonb(text: string): Promise<string> {
  const [{ body }] = await api.sql`select ${text}::jsonb as body`;
  return JSON.stringify(body);
}

async function expectSameBytes([first, again]: [CallResult, CallResult], status: number) {
  expect(first.status).toBe(status);
  expect(again.status).toBe(status);
  expect(await throughJsonb(first.text)).not.toBe(first.text);
  expect(again.text).toBe(first.text);
}

const newCustomer = async () => {
  const res = await api.call('createCustomer', { key, body: { email: `${randomUUID()}@example.nl` } });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};

describe('the replay of a creation is the first answer, byte for byte', () => {
  it('createCustomer', async () => {
    const body = { email: `${randomUUID()}@example.nl`, name: 'Installatiebedrijf Dekker', city: 'Utrecht' };
    await expectSameBytes(await twice('createCustomer', { body }), 201);
  });

  it('createDeal', async () => {
    const body = { customer_id: await newCustomer(), title: 'Warmtepomp kantoorpand', value: '32500.00' };
    await expectSameBytes(await twice('createDeal', { body }), 201);
  });

  it('createCustomerNote and createDealNote', async () => {
    const customer = await newCustomer();
    const body = { content: 'Belde over de offerte; wil een tweede optie.', is_important: true };
    await expectSameBytes(await twice('createCustomerNote', { params: { customer }, body }), 201);
    const deal = await api.call('createDeal', { key, body: { customer_id: customer } });
    await expectSameBytes(await twice('createDealNote', { params: { deal: deal.body.data.id }, body }), 201);
  });

  it('createWebhookEndpoint', async () => {
    const body = { url: 'https://93.184.215.14/webhooks/crm', description: 'ERP', events: ['customer.created'] };
    await expectSameBytes(await twice('createWebhookEndpoint', { body }), 201);
  });

  it('a stored problem, replayed in the same language', async () => {
    const email = `${randomUUID()}@example.nl`;
    await newCustomer();
    await api.call('createCustomer', { key, body: { email } });
    await expectSameBytes(await twice('createCustomer', { body: { email } }), 422);
  });
});

describe('a response stored before migration 0020 (as jsonb)', () => {
  it('is still replayed after the migration, with the same data', async () => {
    const idempotencyKey = randomUUID();
    const body = { email: `${randomUUID()}@example.nl` };
    const send = () => api.call('createCustomer', { key, body, headers: { 'idempotency-key': idempotencyKey } });
    const first = await send();
    expect(first.status).toBe(201);
    // The table as it was before the migration, holding this response as jsonb; then the migration itself.
    await api.sql`alter table idempotency_keys alter column response_body type jsonb using response_body::jsonb`;
    const migration = new URL('../../drizzle/0020_idempotency_body_as_sent.sql', import.meta.url);
    await api.sql.unsafe(readFileSync(migration, 'utf8'));
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});
