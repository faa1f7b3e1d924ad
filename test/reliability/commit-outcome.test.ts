// A connection lost after COMMIT was sent and before its answer arrived: PostgreSQL may have committed. The answer
// says so (503 outcome_unknown, not "try again"), and a repeat with the same Idempotency-Key replays the change
// that was made instead of making it twice. And a transaction whose connection was terminated mid-work sends its
// ROLLBACK on a connection already closed: that cannot fail another request's transaction on the same pool.
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql as statement } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.ts';
import { appOn, setupApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
let key: string;

beforeAll(async () => {
  api = await setupApi();
  ({ key } = await api.tenant());
});

/**
 * A relay to the test database that, once armed, lets a connection's COMMIT through after it carried an insert into
 * `table`, waits for PostgreSQL's answer `COMMIT` (so the transaction did commit) and then cuts that connection
 * instead of passing the answer on: the client sees its connection lost while awaiting COMMIT.
 */
async function commitCuttingRelay(table: string) {
  const target = new URL(api.url);
  const sockets = new Set<Socket>();
  let armed = false;
  let cut = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let inserted = false;
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes(`insert into "${table}"`)) inserted = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      // CommandComplete of COMMIT carries the tag "COMMIT" and a NUL.
      if (inserted && chunk.includes('COMMIT\0')) {
        armed = false;
        inserted = false;
        cut++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(api.url);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    arm: () => {
      armed = true;
    },
    cuts: () => cut,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a COMMIT whose connection is lost before its answer', () => {
  let relay: Awaited<ReturnType<typeof commitCuttingRelay>>;
  let viaRelay: Awaited<ReturnType<typeof appOn>>;

  beforeAll(async () => {
    relay = await commitCuttingRelay('customers');
    viaRelay = await appOn(relay.url);
  });

  afterAll(async () => {
    await viaRelay?.close();
    await relay?.close();
  });

  it('answers 503 outcome_unknown; the same Idempotency-Key then replays the customer that was made', async () => {
    const idempotencyKey = randomUUID();
    const body = { email: 'onzeker@example.nl', name: 'Onzeker' };
    relay.arm();
    const first = await viaRelay.call('createCustomer', {
      key,
      body,
      headers: { 'Idempotency-Key': idempotencyKey, 'Accept-Language': 'en' },
    });
    expect(relay.cuts()).toBe(1);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ code: 'outcome_unknown', status: 503 });
    expect(first.body.detail).toMatch(/same Idempotency-Key/);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    // It was committed: the customer is there, once.
    const listed = await api.call('listCustomers', { key, query: { q: 'onzeker@example.nl' } });
    expect(listed.body.data).toHaveLength(1);
    // The repeat with the same key answers the stored creation, and creates nothing more.
    const again = await viaRelay.call('createCustomer', { key, body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(listed.body.data[0].id);
    const after = await api.call('listCustomers', { key, query: { q: 'onzeker@example.nl' } });
    expect(after.body.data).toHaveLength(1);
  });
});

describe("a ROLLBACK on a connection already closed (pipelinedBegin's failure path)", () => {
  it("cannot fail another request's transaction on the same pool", async () => {
    const admin = postgres(api.url, { max: 1, onnotice: () => {} });
    // One connection: the transaction that waits for it gets the very connection object whose backend was
    // terminated and on which the ROLLBACK was sent.
    const { sql, db } = createDb(api.url, 1);
    try {
      await sql`create table if not exists rollback_probe (id int primary key)`;
      let release!: () => void;
      const terminated = new Promise<void>((resolve) => {
        release = resolve;
      });
      const doomed = db.transaction(async (tx) => {
        const [{ pid }] = await tx.execute<{ pid: number }>(statement`select pg_backend_pid() as pid`);
        await admin`select pg_terminate_backend(${pid})`;
        release();
        // The next statement finds the connection closed; pipelinedBegin then sends ROLLBACK on it.
        await tx.execute(statement`insert into rollback_probe values (1)`);
      });
      const doomedOutcome = doomed.then(
        () => 'committed',
        () => 'failed',
      );
      await terminated;
      // Queued behind the doomed transaction for the pool's only connection.
      const others = Array.from({ length: 3 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.execute(statement`insert into rollback_probe values (${10 + i})`);
          await tx.execute(statement`select pg_sleep(0.05)`);
        }),
      );
      expect(await doomedOutcome).toBe('failed');
      const outcomes = await Promise.allSettled(others);
      // The doomed transaction's connection went back to the pool by its socket's close, not before (its socket
      // failed, ECONNRESET, but not yet closed) nor with a ROLLBACK written on it once it was already connecting
      // again for the next transaction (CONNECTION_CLOSED first): every transaction after it commits.
      expect(
        outcomes.map((o) =>
          o.status === 'rejected' ? `${String(o.reason)} ${String((o.reason as { cause?: unknown }).cause)}` : o.status,
        ),
      ).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const rows = await admin<{ id: number }[]>`select id from rollback_probe order by id`;
      expect(rows.map((r) => r.id)).toEqual([10, 11, 12]);
    } finally {
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  });
});
