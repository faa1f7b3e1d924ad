// The benchmarks' own database: on DATABASE_URL's server, or on an embedded PostgreSQL (fast mode) in a
// temporary directory; migrated. Everything it creates is registered in `cleanups`, undone in reverse order.
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { freePort } from '../../test/harness/processes.ts';

import type { Cleanup } from '../lib/bounded-run.ts';

export type { Cleanup };

/** `statements`: load pg_stat_statements whatever BENCH_PG_STATEMENTS says (the API bench's statements per request). */
export async function benchDatabase(
  name: string,
  cleanups: Cleanup[],
  log: (line: string) => void,
  options: { statements?: boolean } = {},
) {
  const statements = Boolean(process.env.BENCH_PG_STATEMENTS) || options.statements === true;
  let adminUrl = process.env.DATABASE_URL;
  const embedded = !adminUrl;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-bench-pg-'));
    cleanups.push({ name: 'temp dir', run: async () => rmSync(dataDir, { recursive: true, force: true }) });
    // As root, PostgreSQL runs as its own system user, which must be able to enter the directory.
    chmodSync(dataDir, 0o755);
    log(`starting embedded PostgreSQL in ${dataDir}`);
    // BENCH_PG_STATEMENTS=1: per-statement timings (pg_stat_statements), printed by statementReport().
    // BENCH_PG_EXPLAIN=<ms>: the plans (with timings) of statements slower than that, in the server's log,
    // which then goes to bench-results/postgres-<pid>.log.
    const explainMs = process.env.BENCH_PG_EXPLAIN;
    const libraries = [statements && 'pg_stat_statements', explainMs && 'auto_explain'];
    const settings = [
      ...(libraries.some(Boolean) ? [`shared_preload_libraries=${libraries.filter(Boolean).join(',')}`] : []),
      ...(statements ? ['pg_stat_statements.track_planning=on'] : []),
      ...(explainMs
        ? [`auto_explain.log_min_duration=${explainMs}`, 'auto_explain.log_analyze=on', 'auto_explain.log_triggers=on']
        : []),
    ];
    const logFile = explainMs ? resolve('bench-results', `postgres-${process.pid}.log`) : null;
    if (logFile) {
      mkdirSync(dirname(logFile), { recursive: true });
      log(`PostgreSQL log (auto_explain over ${explainMs} ms): ${logFile}`);
    }
    const server = await startEmbeddedPostgres(dataDir, await freePort(), {
      fast: true,
      settings,
      log: logFile ? (line) => appendFileSync(logFile, `${line}\n`) : undefined,
    });
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
  const statementsWhy = statements ? await statementsUsable(url) : 'not asked for';
  if (statements && statementsWhy) log(`no statements per request: ${statementsWhy}`);
  const [{ version: pgVersion }] = await admin<{ version: string }[]>`select version()`;
  return { url, embedded, pgVersion, statements: statements && !statementsWhy, statementsWhy };
}

/**
 * Why pg_stat_statements cannot be read in the database at `url`, or '' when it can. A server that does not
 * preload it (DATABASE_URL's, which is shared and not restarted for a bench) has the extension's files but no
 * statistics.
 */
async function statementsUsable(url: string): Promise<string> {
  const db = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await db`create extension if not exists pg_stat_statements`;
    await db`select count(*) from pg_stat_statements`;
    return '';
  } catch (error) {
    return `pg_stat_statements is not available on this server (${error instanceof Error ? error.message : String(error)}); run without DATABASE_URL for them`;
  } finally {
    await db.end();
  }
}

/** A statement as pg_stat_statements counted it during a phase: its calls and its time, execution and planning. */
export type CountedStatement = { calls: number; execMs: number; planMs: number; rows: number; query: string };

/**
 * The statements of this database between `reset` and `read` (pg_stat_statements is server-wide: only for a
 * server of the bench's own). The bench's own reads of the statistics are left out.
 */
export function statementCounter(db: postgres.Sql) {
  return {
    reset: async () => {
      await db`select pg_stat_statements_reset()`;
    },
    read: () =>
      db<CountedStatement[]>`
        select calls::int, total_exec_time::float as "execMs", total_plan_time::float as "planMs", rows::int,
          regexp_replace(query, '[[:space:]]+', ' ', 'g') as query
        from pg_stat_statements
        where dbid = (select oid from pg_database where datname = current_database())
          and query not like '%pg_stat_statements%' and query not like '%pg_stat_activity%'
        order by total_exec_time + total_plan_time desc`,
  };
}

/** BENCH_PG_STATEMENTS=1: forget the statements so far (the report then covers what runs after this call). */
export async function resetStatementStats(url: string): Promise<void> {
  if (!process.env.BENCH_PG_STATEMENTS) return;
  const db = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await db`select pg_stat_statements_reset()`;
  } finally {
    await db.end();
  }
}

/** Where the database time went (BENCH_PG_STATEMENTS=1, embedded server only): statements and scanned tables. */
export async function statementReport(url: string, limit = 20): Promise<string> {
  if (!process.env.BENCH_PG_STATEMENTS) return '';
  const db = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await db<{ ms: number; plan_ms: number; calls: number; mean: number; query: string }[]>`
      select round(total_exec_time)::int as ms, round(total_plan_time)::int as plan_ms, calls::int,
        round(mean_exec_time::numeric, 3)::float as mean,
        regexp_replace(left(query, 160), '[[:space:]]+', ' ', 'g') as query
      from pg_stat_statements order by total_exec_time + total_plan_time desc limit ${limit}`;
    const tables = await db<{ relname: string; seq_scan: number; seq_tup_read: number; idx_scan: number }[]>`
      select relname, seq_scan::int, seq_tup_read::int, coalesce(idx_scan, 0)::int as idx_scan
      from pg_stat_user_tables where seq_tup_read > 10000 order by seq_tup_read desc limit 8`;
    return [
      ...rows.map(
        (r) =>
          `${String(r.ms).padStart(7)} ms ${`(+${r.plan_ms} planning)`.padStart(16)} ${String(r.calls).padStart(7)}× ${String(r.mean).padStart(8)} ${r.query}`,
      ),
      'Tables read by sequential scans (more than 10 000 rows):',
      ...tables.map((t) => `  ${t.relname}: ${t.seq_scan} scans, ${t.seq_tup_read} rows; ${t.idx_scan} index scans`),
    ].join('\n');
  } finally {
    await db.end();
  }
}
