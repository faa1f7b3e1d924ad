// What a creation and an update of a customer cost on the wire (issue 30: the API's writes against a bare
// one-statement write), counted by a relay between a second API process and PostgreSQL: the duplicate-email
// check is the unique index's answer to the INSERT; the idempotency key's lock, look-up and the work's savepoint
// share one round trip; a creation's event and its stored answer are one statement; a PATCH's lock and its
// conditional write share one round trip. The same requests keep their answers when the email is taken:
// nothing of a failed creation or change is written but its stored answer.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.ts';
import { createDeps } from '../../../src/deps-factory.ts';
import { setupApi, type TestApi } from '../../harness/api.ts';
import { wireCounter } from '../../harness/wire-count.ts';

let api: TestApi;
let key: string;
let companyId: string;
let relay: Awaited<ReturnType<typeof wireCounter>>;
let relayed: ReturnType<typeof createApp>;

beforeAll(async () => {
  api = await setupApi();
  ({ key, companyId } = await api.tenant());
  relay = await wireCounter(api.url);
  const deps = await createDeps(api.config, relay.url);
  relayed = createApp(deps);
  return () => deps.close();
});

const json = { 'content-type': 'application/json' };
const post = (body: unknown, idempotencyKey = randomUUID()) =>
  relayed.request('/api/v1/customers', {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
const patch = (id: string, body: unknown, ifMatch: string) =>
  relayed.request(`/api/v1/customers/${id}`, {
    method: 'PATCH',
    headers: { ...json, authorization: `Bearer ${key}`, 'if-match': ifMatch },
    body: JSON.stringify(body),
  });

let n = 0;
const email = () => `rt${n++}@example.nl`;

/**
 * Requests of each kind first: the key is cached, and every statement is prepared on the connection (the first
 * use of a statement's text costs a round trip more).
 */
async function warmUp() {
  for (let i = 0; i < 2; i++) {
    const created = await post({ email: email(), name: 'Warm' });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    expect((await patch(data.id, { name: 'Warmer', city: 'Delft' }, '"1"')).status).toBe(200);
  }
}

describe('round trips of the writes', () => {
  it('POST with Idempotency-Key: 4 round trips, 8 statements (were 8 and 10)', async () => {
    await warmUp();
    let status = 0;
    const count = await relay.during(async () => {
      status = (await post({ email: email(), name: 'Geteld' })).status;
    });
    expect(status).toBe(201);
    // begin, tenant, key lock, stored answer, savepoint | insert | event with the answer to store, commit. The
    // event's statement is over 1 KiB, which postgres.js writes at once; COMMIT, sent after it without waiting,
    // follows in the next turn of the event loop, and the relay (in this process) may see its answer first: 3 or 4.
    expect(count.statements).toBe(8);
    expect(count.roundTrips).toBeLessThanOrEqual(4);
  });

  it('PATCH with If-Match: 2 round trips, 6 statements (were 3 and 6)', async () => {
    await warmUp();
    const created = await (await post({ email: email(), name: 'Eerst' })).json();
    let status = 0;
    const count = await relay.during(async () => {
      status = (await patch(created.data.id, { name: 'Tweede', city: 'Delft' }, '"1"')).status;
    });
    expect(status).toBe(200);
    // begin, tenant, lock with the change time, conditional update | event, commit (sent without waiting)
    expect(count).toEqual({ roundTrips: 2, statements: 6 });
  });
});

describe('a taken email, folded into the write', () => {
  it('POST: 422 already_exists; no customer, no event; the stored answer replays it', async () => {
    const taken = email();
    expect((await post({ email: taken, name: 'Eerste' })).status).toBe(201);
    const before = await api.sql`select
      (select count(*)::int from customers where company_id = ${companyId}) as customers,
      (select count(*)::int from events where company_id = ${companyId}) as events`;
    const ik = randomUUID();
    for (const attempt of ['first', 'replay']) {
      const res = await post({ email: taken.toUpperCase(), name: 'Tweede' }, ik);
      expect(res.status, attempt).toBe(422);
      expect(res.headers.get('idempotent-replayed')).toBe(attempt === 'replay' ? 'true' : null);
      const body = await res.json();
      expect(body.code).toBe('validation_failed');
      expect(body.errors).toEqual([expect.objectContaining({ pointer: '/email', code: 'already_exists' })]);
    }
    const after = await api.sql`select
      (select count(*)::int from customers where company_id = ${companyId}) as customers,
      (select count(*)::int from events where company_id = ${companyId}) as events`;
    expect(after).toEqual(before);
    const [stored] =
      await api.sql`select response_status from idempotency_keys where company_id = ${companyId} and key = ${ik}`;
    expect(stored.response_status).toBe(422);
  });

  it('PATCH: 422 already_exists; the customer, its version and its events unchanged', async () => {
    const taken = email();
    expect((await post({ email: taken })).status).toBe(201);
    const mine = await (await post({ email: email(), name: 'Mijn' })).json();
    const res = await patch(mine.data.id, { email: taken.toUpperCase(), name: 'Gewijzigd' }, '"1"');
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([expect.objectContaining({ pointer: '/email', code: 'already_exists' })]);
    const [row] = await api.sql`select name, version from customers where id = ${mine.data.id}`;
    expect(row).toEqual({ name: 'Mijn', version: 1 });
    const events = await api.sql`select type from events where customer_id = ${mine.data.id}`;
    expect(events.map((e) => e.type)).toEqual(['customer.created']);
  });

  it('PATCH that changes nothing: 200 at the same version, no event; a stale If-Match still 412', async () => {
    const mine = await (await post({ email: email(), name: 'Zelfde', city: 'Delft' })).json();
    const same = await patch(mine.data.id, { name: 'Zelfde', city: 'Delft' }, '"1"');
    expect(same.status).toBe(200);
    expect(same.headers.get('etag')).toBe('"1"');
    expect((await same.json()).data).toEqual(mine.data);
    expect((await patch(mine.data.id, { name: 'Zelfde' }, '"2"')).status).toBe(412);
    const events = await api.sql`select type from events where customer_id = ${mine.data.id}`;
    expect(events.map((e) => e.type)).toEqual(['customer.created']);
  });
});
