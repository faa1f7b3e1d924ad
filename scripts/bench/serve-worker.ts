// Child process of scripts/bench/api.ts: the service's worker (Graphile Worker with the service's tasks, as
// `npm run worker` runs it) for DATABASE_URL, in a process of its own so that the bench counts its CPU apart from
// the API's. Prints `READY` once it runs; stops cleanly on SIGTERM.
import { loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps-factory.ts';
import { startWorker } from '../../src/jobs/worker.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const url = process.env.DATABASE_URL;
if (!url) throw new Error('serve-worker.ts needs DATABASE_URL');

const deps = await createDeps(config, url);
const worker = await startWorker(url, deps);
console.log('READY');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await worker.stop();
  await worker.settleHandedOver();
  await deps.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
