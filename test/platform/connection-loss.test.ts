// A connection the database ends (a restart, a failover, pg_terminate_backend) fails its queries with
// CONNECTION_CLOSED, which callers catch; it must not end the process. postgres.js 3.4.9 threw from a timer
// callback when a reserved connection was written to after its socket closed (porsager/postgres#1208): the
// webhook worker's pipelined transactions (src/db/tenant-statement.ts) reserve their connection, and a fault
// drill terminating the worker's backends ended the worker. patches/postgres+3.4.9.patch (applied by
// patch-package at install) settles those queries instead. Without it, vitest reports the uncaught TypeError.
import { connect, createServer } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.ts';
import { missingPatches } from '../../src/db/driver-patch.ts';
import { tenantStatement } from '../../src/db/tenant-statement.ts';
import { within } from '../harness/async.ts';
import { freshDatabase } from '../harness/db.ts';
import { freePort } from '../harness/processes.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let admin: postgres.Sql;

beforeAll(async () => {
  database = await freshDatabase();
  admin = postgres(database.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await admin?.end();
  await database?.drop();
});

const terminate = (pid: number) => admin`select pg_terminate_backend(${pid})`;

it('a reserved connection whose backend was terminated fails its next queries with CONNECTION_CLOSED', async () => {
  const { sql } = createDb(database.url, 2);
  try {
    const reserved = await sql.reserve();
    const [{ pid }] = await reserved`select pg_backend_pid() as pid`;
    await terminate(pid);
    await expect(reserved`select 1`).rejects.toThrow(); // ECONNRESET or CONNECTION_CLOSED, as the close arrives
    await new Promise((r) => setTimeout(r, 100)); // the socket's close is handled
    await expect(reserved`select 2`).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    reserved.release();
    // The pool goes on with a new connection (released, the dead one was made open again and failed for good).
    const [row] = await sql`select 3 as three`;
    expect(row.three).toBe(3);
  } finally {
    await sql.end({ timeout: 1 });
  }
});

it('pipelined transactions on a pool whose connection was terminated settle, and the pool recovers', async () => {
  const db = createDb(database.url, 1);
  const company = '00000000-0000-4000-8000-000000000001';
  const pidOf = () => tenantStatement<{ pid: number }>(db.db, company, (sql) => sql`select pg_backend_pid() as pid`);
  /** Settled within 5 s: 'ok' or the error's code (unpatched, a reservation made while the connection was
   * connecting again was dropped, and queries written between the socket's error and its close never settled). */
  const settled = (work: Promise<unknown>) =>
    within(
      work.then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? 'error',
      ),
      5_000,
      'not settled',
    );
  try {
    const [{ pid }] = await pidOf();
    await terminate(pid);
    // The next one or two may fail (the connection can be handed out again before its close is seen); none hangs.
    const outcomes = [await settled(pidOf()), await settled(pidOf()), await settled(pidOf())];
    expect(outcomes).not.toContain('not settled');
    expect(outcomes.at(-1)).toBe('ok');
  } finally {
    await db.sql.end({ timeout: 1 });
  }
});

it('the postgres.js and graphile-worker this process loads are the patched ones (see src/db/driver-patch.ts)', () => {
  expect(missingPatches()).toEqual([]);
});

it('queries waiting on a reserved connection (its pipeline full) settle when the connection is lost', async () => {
  const { sql } = createDb(database.url, 2);
  try {
    const reserved = await sql.reserve();
    const [{ pid }] = await reserved`select pg_backend_pid() as pid`;
    // Statements with parameters are described first: the connection counts as full, and the rest wait in the
    // reservation's own queue (as the worker's pipelined transactions do, src/db/tenant-statement.ts).
    const queries = [
      reserved`begin`.execute(),
      reserved`select set_config('app.drill', ${'x'}, true)`.execute(),
      reserved`select pg_sleep(${2})`.execute(),
      reserved`commit`.execute(),
    ];
    await new Promise((r) => setTimeout(r, 300));
    await terminate(pid);
    const settled = await within(
      Promise.allSettled(queries).then((all) => all.map((q) => q.status)),
      5_000,
      'not settled',
    );
    expect(settled).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    reserved.release();
  } finally {
    await sql.end({ timeout: 1 });
  }
});

it('a pool whose reservation failed to connect serves queries again once the database is reachable', async () => {
  // The pool reaches the database through a TCP proxy that is not listening yet: the reservation is refused.
  const target = new URL(database.url);
  const port = await freePort();
  const sql = postgres({
    host: '127.0.0.1',
    port,
    user: decodeURIComponent(target.username),
    password: decodeURIComponent(target.password) || undefined,
    database: target.pathname.slice(1),
    max: 1,
    backoff: () => 0.05,
    connect_timeout: 2,
    fetch_types: false,
    onnotice: () => {},
  });
  await expect(sql.reserve()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  await new Promise((r) => setTimeout(r, 300));
  const proxy = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', () => r()));
  try {
    // Patched only in part, the refused reservation stayed queued: the connection went to it, never to the pool.
    const answer = await within(
      sql`select 1 as one`.then(
        (rows) => `ok ${rows[0].one}`,
        (error: { code?: string }) => `error ${error.code}`,
      ),
      5_000,
      'not settled',
    );
    expect(answer).toBe('ok 1');
  } finally {
    await sql.end({ timeout: 0 });
    proxy.close();
  }
});
