// Idempotency-Key on createCustomer: replay, reuse with another request, stored business errors, per-company
// keys and concurrent repeats.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi, type TestApi } from '../../harness/api.ts';

let api: TestApi;
let key: string;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
});

const rowsWithEmail = async (company: string, email: string) =>
  api.sql`select id from customers where company_id = ${company} and lower(email) = lower(${email})`;

const create = (body: unknown, idempotencyKey: string, k = key) =>
  api.call('createCustomer', { key: k, body, headers: { 'idempotency-key': idempotencyKey } });

describe('Idempotency-Key', () => {
  it('the same key and body replays the first response with Idempotent-Replayed: true and creates once', async () => {
    const ik = randomUUID();
    const body = { email: 'eenmaal@example.nl', name: 'Eenmaal', country: 'nl' };
    const first = await create(body, ik);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await create(body, ik);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.body).toEqual(first.body);
    // A fresh request id for the replay.
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    const rows = await rowsWithEmail(companyId, body.email);
    expect(rows.map((r) => r.id)).toEqual([first.body.data.id]);
    const events = await api.sql`select id from events where type = 'customer.created' and customer_id = ${rows[0].id}`;
    expect(events).toHaveLength(1);
  });

  it('the replay is the stored response, even after the customer changed', async () => {
    const ik = randomUUID();
    const body = { email: 'opgeslagen@example.nl', name: 'Oud' };
    const first = await create(body, ik);
    await api.call('updateCustomer', { key, params: { customer: first.body.data.id }, body: { name: 'Nieuw' } });
    const replay = await create(body, ik);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('the same key with another body answers 422 idempotency_key_reused and creates nothing', async () => {
    const ik = randomUUID();
    expect((await create({ email: 'eerste@example.nl' }, ik)).status).toBe(201);
    const res = await create({ email: 'tweede@example.nl' }, ik);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('idempotency_key_reused');
    expect(await rowsWithEmail(companyId, 'tweede@example.nl')).toHaveLength(0);
  });

  it('the same key on another operation answers 422 idempotency_key_reused', async () => {
    const ik = randomUUID();
    const created = await create({ email: 'ander-pad@example.nl' }, ik);
    const note = await api.call('createCustomerNote', {
      key,
      params: { customer: created.body.data.id },
      body: { content: 'Notitie' },
      headers: { 'idempotency-key': ik },
    });
    expect(note.status).toBe(422);
    expect(note.body.code).toBe('idempotency_key_reused');
    const notes = await api.call('listCustomerNotes', { key, params: { customer: created.body.data.id } });
    expect(notes.body.data).toEqual([]);
  });

  it('a stored business error (duplicate email) is replayed for the same key', async () => {
    const existing = (await api.call('createCustomer', { key, body: { email: 'dubbel@example.nl' } })).body.data;
    const ik = randomUUID();
    const body = { email: 'DUBBEL@example.nl' };
    const first = await create(body, ik);
    expect(first.status).toBe(422);
    expect(first.body.errors[0]).toMatchObject({ pointer: '/email', code: 'already_exists' });
    // Free the address: a fresh attempt would now succeed, the replay must not.
    await api.call('updateCustomer', { key, params: { customer: existing.id }, body: { email: 'vrij@example.nl' } });
    const replay = await create(body, ik);
    expect(replay.status).toBe(422);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(replay.body).toEqual(first.body);
    expect(await rowsWithEmail(companyId, 'dubbel@example.nl')).toHaveLength(0);
    // Without the key the request is new and succeeds.
    expect((await api.call('createCustomer', { key, body })).status).toBe(201);
  });

  it('a validation failure before the handler (422) is not stored: the key is still free', async () => {
    const ik = randomUUID();
    const bad = await create({ email: 'geen-adres' }, ik);
    expect(bad.status).toBe(422);
    const good = await create({ email: 'goed@example.nl' }, ik);
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keys are per company: the same key creates in two companies', async () => {
    const other = await api.tenant();
    const ik = randomUUID();
    const body = { email: 'gedeeld@example.nl' };
    const a = await create(body, ik);
    const b = await create(body, ik, other.key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.data.id).not.toBe(a.body.data.id);
    expect(await rowsWithEmail(companyId, body.email)).toHaveLength(1);
    expect(await rowsWithEmail(other.companyId, body.email)).toHaveLength(1);
  });

  it('a repeat replays only to a key with the same scopes: another key of the company with other scopes gets 422', async () => {
    const ik = randomUUID();
    const body = { email: 'sleutels@example.nl' };
    const first = await create(body, ik);
    expect(first.status).toBe(201);
    // A second full-access key of the company (as a renewed key would be): the same request, replayed.
    const sameScopes = await api.key(companyId);
    const replay = await create(body, ik, sameScopes.key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // A key that may write customers but has other scopes: not the same request (its answer could show what that
    // key may not see, such as a webhook endpoint's secret).
    const narrower = await api.key(companyId, { scopes: ['customers.read', 'customers.write'] });
    const refused = await create(body, ik, narrower.key);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('idempotency_key_reused');
    expect(await rowsWithEmail(companyId, body.email)).toHaveLength(1);
  });

  it('concurrent repeats of one key create once: the others answer 409 idempotency_in_progress or a replay', async () => {
    const ik = randomUUID();
    const body = { email: 'gelijktijdig@example.nl' };
    const results = await Promise.all([create(body, ik), create(body, ik), create(body, ik)]);
    const fresh = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r === fresh[0]) continue;
      if (r.status === 409) expect(r.body.code).toBe('idempotency_in_progress');
      else {
        expect(r.status).toBe(201);
        expect(r.headers.get('idempotent-replayed')).toBe('true');
        expect(r.body).toEqual(fresh[0].body);
      }
    }
    expect(await rowsWithEmail(companyId, body.email)).toHaveLength(1);
    // Once the first has finished, a repeat replays.
    const later = await create(body, ik);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  it.each([
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'sleutel met spaties'],
  ])('an invalid Idempotency-Key (%s) answers 422', async (_, ik) => {
    const res = await create({ email: `ongeldig-${randomUUID()}@example.nl` }, ik);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0].parameter?.toLowerCase()).toBe('idempotency-key');
  });
});
