// The benchmarks' own database: on DATABASE_URL's server, or on an embedded PostgreSQL (fast mode) in a
// temporary directory; migrated. Everything it creates is registered in `cleanups`, undone in reverse order.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { freePort } from '../../test/harness/processes.ts';

export type Cleanup = { name: string; run: () => Promise<unknown> };

export async function benchDatabase(name: string, cleanups: Cleanup[], log: (line: string) => void) {
  let adminUrl = process.env.DATABASE_URL;
  const embedded = !adminUrl;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-bench-pg-'));
    cleanups.push({ name: 'temp dir', run: async () => rmSync(dataDir, { recursive: true, force: true }) });
    // As root, PostgreSQL runs as its own system user, which must be able to enter the directory.
    chmodSync(dataDir, 0o755);
    log(`starting embedded PostgreSQL in ${dataDir}`);
    const server = await startEmbeddedPostgres(dataDir, await freePort(), { fast: true });
    cleanups.push({ name: 'embedded PostgreSQL', run: server.stop });
    adminUrl = server.url;
  }
  const dbName = `crm_bench_${name}_${process.pid}_${Date.now()}`;
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const url = u.toString();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  cleanups.push({ name: 'admin pool', run: () => admin.end() });
  await admin.unsafe(`create database ${dbName}`);
  cleanups.push({ name: 'database', run: () => admin.unsafe(`drop database if exists ${dbName} with (force)`) });
  log(`database ${dbName} on ${new URL(adminUrl).host}${embedded ? ' (embedded, fast mode)' : ''}`);
  await runMigrations(url);
  const [{ version: pgVersion }] = await admin<{ version: string }[]>`select version()`;
  return { url, embedded, pgVersion };
}
