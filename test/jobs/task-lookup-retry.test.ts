// Graphile Worker 0.17.3 looks up the ids of its task names once, at the first fetch, and kept the promise of
// that lookup even when it failed: a first fetch whose connection was terminated answered every later fetch
// with the same error, and the runner fetched nothing for good (found by `npm run drill:worker-faults`).
// patches/graphile-worker+0.17.3.patch makes the next fetch look them up again. Here the first lookup runs on
// a connection whose backend was terminated (a real PostgreSQL error), the second on a healthy one.
import { getTaskDetails } from 'graphile-worker/dist/taskIdentifiers.js';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase } from '../harness/db.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let sql: postgres.Sql;

beforeAll(async () => {
  database = await freshDatabase();
  sql = postgres(database.url, { max: 3, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 1 });
  await database?.drop();
});

/** What the lookup needs of a pg client, on a postgres.js connection. */
const clientOn = (connection: postgres.Sql) => ({
  query: async ({ text, values }: { text: string; values: unknown[] }) => ({
    rows: await connection.unsafe(text, values as postgres.ParameterOrJSON<never>[]),
  }),
});

it('a task lookup that failed is made again by the next fetch', async () => {
  const dead = await sql.reserve();
  const [{ pid }] = await dead`select pg_backend_pid() as pid`;
  await sql`select pg_terminate_backend(${pid})`;
  await dead`select 1`.catch(() => {}); // the close is seen
  let calls = 0;
  const withPgClient = {
    withRetries: async <T>(work: (client: never) => Promise<T>) => {
      calls++;
      return work((calls === 1 ? clientOn(dead) : clientOn(sql)) as never);
    },
  };
  const shared = { escapedWorkerSchema: 'graphile_worker' } as never;
  const tasks = { noop: async () => {} } as never;

  await expect(Promise.resolve(getTaskDetails(shared, withPgClient as never, tasks))).rejects.toThrow();
  const details = await getTaskDetails(shared, withPgClient as never, tasks);
  expect(Object.values(details.supportedTaskIdentifierByTaskId)).toEqual(['noop']);
  expect(calls).toBe(2);
  dead.release();
});
