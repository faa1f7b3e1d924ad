// The sweep_file_orphans task (hourly, see CRONTAB in worker.ts): objects in the bucket that no `files` row names
// as kept in S3 are removed once they are older than a grace period. They are the bytes of an upload whose
// transaction rolled back or whose process died before the commit, of a deletion whose file_remove job was lost,
// or of a company deleted since. The grace period covers uploads and migrations between their write and their
// commit: a young object may still get its row. Each company's rows are read as that company (row-level security),
// so the check never depends on the role the worker connects as.
import { sql } from 'drizzle-orm';
import type { Task } from 'graphile-worker';
import type { Db } from '../db/client.ts';
import type { CronPayload } from '../db/maintenance.ts';
import { withTenant } from '../db/tenant.ts';
import type { S3FileStorage, StoredObject } from '../files/s3-storage.ts';
import type { FileStorages } from '../files/storages.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      sweep_file_orphans: CronPayload;
    }
  }
}

/** How old an object without a row must be before it is removed: far longer than any upload or migration step. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/** Removes the objects last written before `before` that no row names; returns how many. */
export async function sweepFileOrphans(db: Db, s3: S3FileStorage, before: Date): Promise<number> {
  let removed = 0;
  for await (const page of s3.objects()) {
    const byCompany = new Map<string, StoredObject[]>();
    for (const object of page) {
      if (object.lastModified >= before) continue;
      byCompany.set(object.companyId, [...(byCompany.get(object.companyId) ?? []), object]);
    }
    for (const [companyId, objects] of byCompany) {
      // The rows of these ids stay locked (whatever their storage) until the objects are removed: a migration to S3
      // locks its row before it writes the object again under the same key, so the sweep never removes an object
      // written after it decided that no row named it (a file moved back to S3 while its old object was pending).
      removed += await withTenant(db, companyId, async (tx) => {
        const rows = await tx.execute<{ id: string; storage: string }>(
          sql`select id::text, storage from files where company_id = ${companyId}
              and id = any(${`{${objects.map((o) => o.fileId).join(',')}}`}::uuid[]) for update`,
        );
        const kept = new Set(rows.filter((r) => r.storage === 's3').map((r) => r.id));
        const orphans = objects.filter((o) => !kept.has(o.fileId));
        await s3.removeMany(orphans);
        return orphans.length;
      });
    }
  }
  return removed;
}

export function sweepFileOrphansTask(db: Db, storages: FileStorages, now: () => Date): Task<'sweep_file_orphans'> {
  return async () => {
    if (storages.s3) await sweepFileOrphans(db, storages.s3, new Date(now().getTime() - ORPHAN_GRACE_MS));
  };
}
