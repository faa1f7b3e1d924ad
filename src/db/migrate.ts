// Forward-only migrations from drizzle/ (SQL written by drizzle-kit, plus hand-written ones for tenancy).
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations as runWorkerMigrations } from 'graphile-worker';
import postgres from 'postgres';
import { backfillPhoneE164 } from './phone-backfill.ts';

const quietLogger = new Logger(() => () => {});

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle', import.meta.url));

export async function runMigrations(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // Serialise concurrent starters (several API processes) on one advisory lock.
    await sql`select pg_advisory_lock(72173001)`;
    await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_DIR });
    // Data the SQL cannot compute: customers' phones in E.164 for the rows of before drizzle/0035.
    await backfillPhoneE164(sql);
    // Graphile Worker's schema (its own forward-only migrations); app_queue_job() calls into it.
    await runWorkerMigrations({ connectionString: url, logger: quietLogger });
  } finally {
    await sql.end();
  }
}
