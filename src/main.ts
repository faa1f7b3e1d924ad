// `start` = migrate, then API + worker in one process; `api` and `worker` run one side each (production).
// Without DATABASE_URL an embedded PostgreSQL is started in DATA_DIR.
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { ensureDemo } from './cli/demo.ts';
import { expiryText } from './cli/output.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database-url.ts';
import { missingPatches } from './db/driver-patch.ts';
import { runMigrations } from './db/migrate.ts';
import { createDeps } from './deps-factory.ts';
import { markStopping } from './http/probes.ts';
import { httpServerOptions } from './http/server.ts';
import { startWorker, type Worker } from './jobs/worker.ts';

const command = process.argv[2] ?? 'start';
if (!['start', 'api', 'worker'].includes(command)) {
  console.error(`usage: main.ts start|api|worker (got ${command})`);
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase(config);
if (command === 'start' || database.embedded) await runMigrations(database.url);
const deps = await createDeps(config, database.url);

let server: ReturnType<typeof serve> | undefined;
let worker: Worker | undefined;

/** A start that cannot go on (the port is taken): one line, the database stopped, exit 1 — no stack trace and no
 * embedded PostgreSQL left running to lock the next start out. */
async function giveUp(reason: string): Promise<never> {
  console.error(reason);
  await deps.close().catch(() => {});
  await database.stop().catch(() => {});
  process.exit(1);
}

if (command !== 'worker') {
  const app = createApp(deps);
  const listening = serve({
    fetch: app.fetch,
    port: config.PORT,
    hostname: config.HOST,
    serverOptions: httpServerOptions(config),
  });
  server = listening;
  // The addresses are printed once the server listens, not before.
  await new Promise<void>((resolve, reject) => {
    listening.once('listening', resolve);
    listening.once('error', reject);
  }).catch((error: NodeJS.ErrnoException) =>
    giveUp(
      error.code === 'EADDRINUSE'
        ? `Port ${config.PORT} on ${config.HOST} is in use: stop what runs there, or start with PORT=<another port>.`
        : `The HTTP server could not start: ${error.message}`,
    ),
  );
  const base = `${config.publicUrl}/api/v1`;
  console.log(`API:      ${base}`);
  console.log(`Contract: ${base}/openapi.json`);
  console.log(`Docs:     ${config.publicUrl}/docs (nl, en, de, fr)`);
  console.log(`Probes:   ${config.publicUrl}/livez, ${config.publicUrl}/readyz`);
  if (command === 'start') {
    const demo = await ensureDemo(deps.db);
    if (demo.created) {
      console.log(
        `\nA demo company was created. Its full-access API key (shown only now; ${expiryText(demo.expiresAt)}):`,
      );
      console.log(`  ${demo.key}`);
      console.log(`  curl -H "Authorization: Bearer ${demo.key}" ${base}/me`);
    } else {
      console.log(`\nCreate a key with: npm run -s cli -- key create --company ${demo.companyId} --scopes all`);
    }
  }
}
if (command !== 'api') worker = await startWorker(database.url, deps);
const unpatched = missingPatches();
if (unpatched.length > 0) {
  deps.log.warn(
    { missing: unpatched },
    'postgres.js or graphile-worker is not patched (was npm install run with --ignore-scripts?): a lost database connection can end this process or stop its worker. Run npx patch-package.',
  );
}
if (config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true') {
  deps.log.warn(
    'WEBHOOK_ALLOW_PRIVATE_URLS=true: webhooks may target private addresses. Never use this in production.',
  );
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  markStopping();
  deps.log.info({ signal }, 'shutting down');
  // Each step runs even when one before it failed: after Ctrl-C in a terminal the embedded PostgreSQL got the
  // same signal and may be gone already (closing a pool then fails), and the process must still stop cleanly.
  let failed = false;
  // Once stopping, a connection that the database ends under an idle pool (Graphile Worker's, when the embedded
  // PostgreSQL stops, or after Ctrl-C reached it too) raises an error event nobody listens to any more: expected
  // now, logged, and no crash in the middle of the shutdown.
  process.on('uncaughtException', (error) => deps.log.warn({ err: error }, 'shutdown: a connection ended early'));
  const step = async (name: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      failed = true;
      deps.log.warn({ err: error }, `shutdown: ${name} failed`);
    }
  };
  // Stop accepting connections and let in-flight requests finish, then stop the worker and close pools.
  await step(
    'the HTTP server',
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );
  await step('the worker', async () => worker?.stop());
  // First attempts handed over by a fan-out record their answers (at most the 10-second request limit).
  await step('recording handed-over attempts', async () => worker?.settleHandedOver());
  await step('the database pools', () => deps.close());
  await step('the database', () => database.stop());
  process.exit(failed ? 1 : 0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
