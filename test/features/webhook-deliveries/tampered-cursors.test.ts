// A decoded, edited and re-encoded cursor of the delivery log (and of the endpoints) whose values PostgreSQL
// cannot take is a damaged cursor: 422 on `cursor`, never a 500 from the database.
import { beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../../../generated/operations.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { createCustomer, deliveriesOf, insertEndpoint, latestEventId, receiver, runDueJobs } from './support.ts';

let api: TestApi;
let key: string;
let lists: [OperationId, Record<string, string>][];

beforeAll(async () => {
  api = await setupApi({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  const { key: k, companyId } = await api.tenant();
  key = k;
  const endpoint = (await insertEndpoint(api, companyId, { url: (await receiver()).url })).id;
  const event = await latestEventId(api, (await createCustomer(api, key)).id);
  await runDueJobs(api, companyId);
  const [{ id: delivery }] = await deliveriesOf(api, endpoint);
  lists = [
    ['listWebhookEndpoints', {}],
    ['listWebhookEndpointDeliveries', { endpoint }],
    ['listWebhookDeliveryAttempts', { endpoint, delivery }],
    ['listEventDeliveries', { event }],
  ];
});

const cursorOf = (values: unknown[]) =>
  Buffer.from(JSON.stringify({ s: '-created_at', v: values, d: 'n' })).toString('base64url');

describe('a tampered cursor answers 422 invalid_cursor', () => {
  it.each([
    ['year 0000', ['0000-01-01T00:00:00Z', 'wd_x']],
    ['year +275760', ['+275760-09-13T00:00:00Z', 'wd_x']],
    ['year -000001', ['-000001-01-01T00:00:00Z', 'wd_x']],
    ['year 10000', ['10000-01-01', 'wd_x']],
    ['a boolean as the id', ['2026-03-14T09:30:00Z', true]],
  ])('%s, on every list', async (label, values) => {
    for (const [operation, params] of lists) {
      const res = await api.call(operation, { key, params, query: { sort: '-created_at', cursor: cursorOf(values) } });
      expect(res.status, `${operation}: ${label}`).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ parameter: 'cursor', code: 'invalid_cursor' })]);
    }
  });

  it('while an edited cursor with values the columns can hold still pages', async () => {
    for (const [operation, params] of lists) {
      const cursor = cursorOf([new Date().toISOString(), 'wd_x']);
      const res = await api.call(operation, { key, params, query: { sort: '-created_at', cursor } });
      expect(res.status, operation).toBe(200);
      expect(res.body.data, operation).toHaveLength(1);
    }
  });
});
