// `metadata` on the other records that have it (issue 51): notes (on customers), tasks, appointments and webhook
// endpoints. Each: stored on creation, merged by PATCH (a removed key, a kept key, `{}` changing nothing), refused
// past 50 keys at /metadata, found by its list's metadata[key]=value, and carried by its events where it has any.
import { beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;
let customer: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  const created = await api.call('createCustomer', { key, body: { email: 'records@metadata.example.nl' } });
  customer = created.body.data.id;
});

const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));

/** The same story for every record: create, merge, no-op, limit, filter. */
async function story(record: {
  create: (
    metadata: Record<string, string> | undefined,
  ) => Promise<{ status: number; body: { data: { id: string; metadata: unknown } } }>;
  update: (id: string, metadata: unknown) => Promise<CallResult>;
  list: (query: Record<string, string>) => Promise<{ body: { data: { id: string }[] } }>;
}) {
  const created = await record.create({ ext_id: 'R-1', stage: 'a' });
  expect(created.status).toBe(201);
  expect(created.body.data.metadata).toEqual({ ext_id: 'R-1', stage: 'a' });
  const id = created.body.data.id;
  const merged = await record.update(id, { stage: null, owner: 'anna' });
  expect(merged.status).toBe(200);
  expect(merged.body.data.metadata).toEqual({ ext_id: 'R-1', owner: 'anna' });
  const version = merged.headers.get('etag');
  const same = await record.update(id, {});
  expect(same.headers.get('etag')).toBe(version);
  const over = await record.update(id, fifty);
  expect(over.status).toBe(422);
  expect(over.body.errors).toEqual([expect.objectContaining({ pointer: '/metadata', code: 'too_big' })]);
  const other = await record.create(undefined);
  expect(other.body.data.metadata).toEqual({});
  expect((await record.list({ 'metadata[ext_id]': 'R-1' })).body.data.map((r) => r.id)).toEqual([id]);
  expect((await record.list({ 'metadata[ext_id]': 'R-1', 'metadata[owner]': 'bob' })).body.data).toEqual([]);
  return id;
}

const eventMetadata = async (type: string, id: string) =>
  (
    await api.sql`select data->'object'->'metadata' as metadata from events where company_id = ${companyId}
                  and type = ${type} and data->'object'->>'id' = ${id} order by created_at desc, id desc limit 1`
  )[0]?.metadata;

describe('records with metadata', () => {
  it('notes on a customer', async () => {
    const id = await story({
      create: (metadata) =>
        api.call('createCustomerNote', { key, params: { customer }, body: { content: 'Belde terug', metadata } }),
      update: (note, metadata) =>
        api.call('updateCustomerNote', { key, params: { customer, note }, body: { metadata } }),
      list: (query) => api.call('listCustomerNotes', { key, params: { customer }, query }),
    });
    expect(await eventMetadata('note.updated', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
  });

  it('tasks, with and without links in the PATCH', async () => {
    const id = await story({
      create: (metadata) => api.call('createTask', { key, body: { title: 'Offerte nabellen', metadata } }),
      update: (task, metadata) => api.call('updateTask', { key, params: { task }, body: { metadata } }),
      list: (query) => api.call('listTasks', { key, query }),
    });
    expect(await eventMetadata('task.updated', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
    // The PATCH that also changes links decides on the locked task: the same merge.
    const linked = await api.call('updateTask', {
      key,
      params: { task: id },
      body: { metadata: { owner: '' }, links: [{ object: 'customer', id: customer }] },
    });
    expect(linked.body.data.metadata).toEqual({ ext_id: 'R-1' });
  });

  it('appointments', async () => {
    let hour = 8;
    const id = await story({
      create: (metadata) =>
        api.call('createAppointment', {
          key,
          body: {
            customer_id: customer,
            title: 'Opname badkamer',
            starts_at: `2030-03-14T${String(hour++).padStart(2, '0')}:00:00+01:00`,
            metadata,
          },
        }),
      update: (appointment, metadata) =>
        api.call('updateAppointment', { key, params: { appointment }, body: { metadata } }),
      list: (query) => api.call('listAppointments', { key, query }),
    });
    expect(await eventMetadata('appointment.updated', id)).toEqual({ ext_id: 'R-1', owner: 'anna' });
  });

  it('webhook endpoints', async () => {
    let n = 0;
    await story({
      create: (metadata) =>
        api.call('createWebhookEndpoint', {
          key,
          // A public address (never called here): the URL guard resolves nothing for a literal IP.
          body: { url: `https://1.1.1.1/hooks/${n++}`, events: ['customer.created'], metadata },
        }),
      update: (endpoint, metadata) =>
        api.call('updateWebhookEndpoint', { key, params: { endpoint }, body: { metadata } }),
      list: (query) => api.call('listWebhookEndpoints', { key, query }),
    });
  });
});
