// Probes for load balancers and orchestrators, outside the API (no key, no rate limit, not in the contract):
//   GET /livez   200 while the process serves HTTP at all (restart it when this fails)
//   GET /readyz  200 when this process can serve requests: the database answers within READY_TIMEOUT_MS and has
//                every migration this release needs; otherwise, and once the process is stopping, 503 with
//                Retry-After (route requests elsewhere meanwhile)
// `api` processes do not migrate (only `start` does): during a rolling deploy a process of a release whose
// migrations have not run yet answers 503 here instead of failing requests on a missing column.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'hono';
import { hasErrorCode } from '../db/errors.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import type { AppEnv } from './app-env.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './failures.ts';

export const READY_TIMEOUT_MS = 2_000;
/** undefined_table, invalid_schema_name. */
const NOT_MIGRATED = new Set(['42P01', '3F000']);

/** The newest migration of this release (drizzle's journal; the migrator records its `when` as created_at). */
const NEEDED_MIGRATION = (() => {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const newest = journal.entries.at(-1);
  if (!newest) throw new Error('drizzle/meta/_journal.json lists no migration');
  return newest;
})();

let stopping = false;

/** From the first signal of a shutdown on, /readyz answers 503 so that new requests go elsewhere. */
export function markStopping(): void {
  stopping = true;
}

type Checks = { database: 'ok' | 'unreachable' | 'timeout'; migrations: 'ok' | 'pending' | 'unknown' };

export function livez(c: Context<AppEnv>) {
  return c.json({ status: 'ok' }, 200, { 'Cache-Control': 'no-store' });
}

export async function readyz(c: Context<AppEnv>) {
  const headers = { 'Cache-Control': 'no-store' };
  if (stopping) return c.json({ status: 'stopping' }, 503, { ...headers, 'Retry-After': retryAfter });
  const checks = await check(c);
  const ready = checks.database === 'ok' && checks.migrations === 'ok';
  const body = { status: ready ? 'ready' : 'not_ready', checks, needed_migration: NEEDED_MIGRATION.tag };
  if (ready) return c.json(body, 200, headers);
  return c.json(body, 503, { ...headers, 'Retry-After': retryAfter });
}

const retryAfter = String(UNAVAILABLE_RETRY_AFTER_SECONDS);

/** One statement: the database answers, and says which migrations ran. */
async function check(c: Context<AppEnv>): Promise<Checks> {
  const { probeSql: sql, log } = c.get('deps');
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<Checks>((resolve) => {
    timer = setTimeout(() => resolve({ database: 'timeout', migrations: 'unknown' }), READY_TIMEOUT_MS);
  });
  const answer = sql<{ newest: string | null }[]>`
      select max(created_at)::text as newest from drizzle.__drizzle_migrations`.then(
    ([row]): Checks => ({
      database: 'ok',
      migrations: Number(row?.newest ?? 0) >= NEEDED_MIGRATION.when ? 'ok' : 'pending',
    }),
    (error: unknown): Checks => {
      // No migrations table (or schema) yet: the database answers, nothing has been migrated.
      if (hasErrorCode(error, NOT_MIGRATED)) return { database: 'ok', migrations: 'pending' };
      log.warn({ err: error }, 'readiness: the database did not answer');
      return { database: 'unreachable', migrations: 'unknown' };
    },
  );
  try {
    return await Promise.race([answer, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
