// /livez and /readyz for load balancers and orchestrators (src/http/probes.ts): live while the process serves
// HTTP; ready only while the database answers and has every migration this release needs, and not once stopping.
// @isolate: the stopping mark is the process's, for good (markStopping), so no file may share the process after.
import postgres from 'postgres';
import { beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { markStopping } from '../../src/http/probes.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { freePort } from '../harness/processes.ts';

let api: TestApi;
beforeAll(async () => {
  api = await setupApi();
});

const probe = async (app: { request: (path: string) => Response | Promise<Response> }, path: string) => {
  const res = await app.request(path);
  return { status: res.status, headers: res.headers, body: await res.json() };
};

it('/livez answers 200 without a key', async () => {
  const res = await probe(api.app, '/livez');
  expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('x-request-id')).toMatch(/^req_/);
});

it('/readyz answers 200 when the database answers and is migrated', async () => {
  const res = await probe(api.app, '/readyz');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  expect(res.body.needed_migration).toMatch(/^\d{4}_/);
});

it('/readyz answers 503 while a migration of this release has not run (a rolling deploy before migrating)', async () => {
  await api.sql
    .begin(async (tx) => {
      // The newest migration made undone for the probe only: rolled back below.
      await tx`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`;
      const other = createApp({ ...api.deps, probeSql: tx as unknown as postgres.Sql });
      const res = await probe(other, '/readyz');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body).toMatchObject({ status: 'not_ready', checks: { database: 'ok', migrations: 'pending' } });
      throw new RollBack();
    })
    .catch((error) => {
      if (!(error instanceof RollBack)) throw error;
    });
  expect((await probe(api.app, '/readyz')).status).toBe(200);
});
class RollBack extends Error {}

it('/readyz answers 503 migrations pending when nothing was migrated (no migrations table)', async () => {
  await api.sql
    .begin(async (tx) => {
      await tx`alter table drizzle.__drizzle_migrations rename to __drizzle_migrations_hidden`;
      const other = createApp({ ...api.deps, probeSql: tx as unknown as postgres.Sql });
      const res = await probe(other, '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'not_ready', checks: { database: 'ok', migrations: 'pending' } });
      throw new RollBack();
    })
    .catch((error) => {
      if (!(error instanceof RollBack)) throw error;
    });
});

it('/readyz stays 200 while every connection of the request pool is busy (the probe has its own)', async () => {
  const busy = postgres(api.url, { max: 1, onnotice: () => {} });
  const held = await busy.reserve();
  try {
    const other = createApp({ ...api.deps, sql: busy });
    const res = await probe(other, '/readyz');
    expect(res.status).toBe(200);
  } finally {
    held.release();
    await busy.end({ timeout: 1 });
  }
});

it('/readyz answers 503 when the database cannot be reached', async () => {
  const nowhere = postgres(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { max: 1, connect_timeout: 1 });
  try {
    const other = createApp({ ...api.deps, probeSql: nowhere });
    const res = await probe(other, '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'not_ready', checks: { database: 'unreachable', migrations: 'unknown' } });
  } finally {
    await nowhere.end({ timeout: 1 });
  }
});

// Last: the stopping mark is for the whole process.
it('/readyz answers 503 stopping once the process is shutting down; /livez still 200', async () => {
  markStopping();
  const res = await probe(api.app, '/readyz');
  expect(res).toMatchObject({ status: 503, body: { status: 'stopping' } });
  expect((await probe(api.app, '/livez')).status).toBe(200);
});
