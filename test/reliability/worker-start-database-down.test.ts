// A worker process started while its database cannot be reached waits for it (src/db/until-reachable.ts). The
// db-restart drill's worker exited with code 1 on `connect ECONNREFUSED` from postgres.js's `listen` when, on a
// loaded machine, the drill stopped the database before the worker had finished starting (docs/drills.md, issue 38
// point 19). Here the worker's way to the database is a TCP relay on 127.0.0.1 that refuses connections until the
// worker has said it is waiting, then forwards them.
import { createServer, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../harness/async.ts';
import { freshDatabase } from '../harness/db.ts';
import { freePort, runService } from '../harness/processes.ts';
import { forwardTo } from '../harness/relay.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let sql: postgres.Sql;
let worker: ReturnType<typeof runService> | undefined;
const sockets = new Set<Socket>();
let relay: ReturnType<typeof createServer> | undefined;

beforeAll(async () => {
  database = await freshDatabase();
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  if (worker && worker.child.exitCode === null && worker.child.pid !== undefined) {
    process.kill(worker.child.pid, 'SIGTERM');
    await worker.exited;
  }
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (relay ? relay.close(resolve) : resolve(undefined)));
  await sql?.end();
  await database?.drop();
});

it('a worker started while the database refuses connections waits for it, then runs', async () => {
  const target = new URL(database.url);
  // Nothing listens on this port yet: every connection the worker tries is refused (ECONNREFUSED).
  const port = await freePort();
  const viaRelay = new URL(database.url);
  viaRelay.host = `127.0.0.1:${port}`;
  worker = runService('worker', { DATABASE_URL: viaRelay.toString(), LOG_LEVEL: 'warn' });
  const exited = () => worker?.child.exitCode !== null || worker.child.signalCode !== null;
  await until(
    () => exited() || /cannot be reached yet/.test(worker?.output() ?? ''),
    'the worker waits for the database (or exits)',
    60_000,
  );
  expect(exited(), `the worker exited while the database refused connections:\n${worker.output()}`).toBe(false);

  relay = createServer(forwardTo(target, sockets));
  await new Promise<void>((resolve) => relay?.listen(port, '127.0.0.1', resolve));
  // Its runner started: it holds the liveness lock of its pool (src/jobs/liveness.ts).
  await until(
    async () => {
      const [{ n }] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name like 'crm-worker-liveness %'`;
      return exited() || n === 1;
    },
    'the worker runs once the database answers',
    60_000,
  );
  expect(exited(), `the worker exited:\n${worker.output()}`).toBe(false);
});
