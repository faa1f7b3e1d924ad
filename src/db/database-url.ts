// Resolves the database to use: DATABASE_URL, or the embedded PostgreSQL with a `crm` database in it.
import postgres from 'postgres';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export type Database = { url: string; embedded: boolean; stop: () => Promise<void> };

export async function openDatabase(config: Config, log: (line: string) => void = () => {}): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false, stop: async () => {} };
  const server = await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT, { log });
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = 'crm'`;
    if (!exists) await admin`create database crm`;
  } finally {
    await admin.end();
  }
  return { url: server.url.replace(/\/postgres$/, '/crm'), embedded: true, stop: server.stop };
}
