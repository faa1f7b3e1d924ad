// `files migrate --to s3|postgres` with a progress bar on stderr (src/services/file-migration.ts does the moving).
import { SingleBar } from 'cli-progress';
import type { Db, Sql } from '../db/client.ts';
import type { StorageName } from '../files/storage.ts';
import type { FileStorages } from '../files/storages.ts';
import { type MigrationCount, migrateFiles } from '../services/file-migration.ts';

export async function migrateWithProgress(
  pools: { db: Db; tenantSql: Sql },
  storages: FileStorages,
  to: StorageName,
  progress: NodeJS.WritableStream,
): Promise<MigrationCount> {
  const bar = new SingleBar({
    stream: progress,
    format: `files migrate --to ${to} [{bar}] {percentage}% | {value}/{total} files | {eta_formatted} left`,
    hideCursor: true,
    // Into a log too (not a terminal): a line every few seconds, so a long migration still shows it is moving.
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  let started = false;
  try {
    return await migrateFiles(pools, storages, to, {
      progress: (done, total) => {
        if (!started) bar.start(total, done);
        else bar.update(done);
        if (bar.getTotal() !== total) bar.setTotal(total);
        started = true;
      },
    });
  } finally {
    bar.stop();
  }
}
