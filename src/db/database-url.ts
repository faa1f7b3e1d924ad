// Resolves the database to use: DATABASE_URL, or the embedded PostgreSQL with a `crm` database in it.
import postgres from 'postgres';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export type Database = { url: string; embedded: boolean; stop: () => Promise<void> };

/**
 * `ownProcessGroup`: for the service, whose SIGINT handler stops the server after the worker and the pools (Ctrl-C
 * reaching the server too cut connections under the shutdown: errors on the terminal). The CLI has no such
 * handler: there Ctrl-C stops the server with the process, as before.
 */
export async function openDatabase(
  config: Config,
  log: (line: string) => void = () => {},
  { ownProcessGroup = false } = {},
): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, stop: async () => {} };
  const server = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT, { log, ownProcessGroup });
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = 'crm'`;
    if (!exists) await admin`create database crm`;
  } finally {
    await admin.end();
  }
  return { url: server.url.replace(/\/postgres$/, '/crm'), embedded: true, stop: server.stop };
}
