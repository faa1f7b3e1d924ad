// The file_remove task: removes a file's object from the bucket once the transaction that deleted (or moved) its
// row has committed (S3FileStorage.remove queues it there, so a rollback queues nothing). The row is locked while
// the object goes, and an object its row names again (a file moved back to S3 meanwhile) is kept.
import { and, eq } from 'drizzle-orm';
import type { Task } from 'graphile-worker';
import type { Db } from '../db/client.ts';
import { files } from '../db/schema/index.ts';
import { withTenant } from '../db/tenant.ts';
import type { FileStorages } from '../files/storages.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      file_remove: { companyId: string; fileId: string };
    }
  }
}

export function fileRemoveTask(db: Db, storages: FileStorages): Task<'file_remove'> {
  return async ({ companyId, fileId }) => {
    const s3 = storages.s3;
    // Retried with Graphile Worker's backoff until the operator configures the bucket again; the sweep would also
    // find the object later.
    if (!s3) throw new Error(`file_remove: S3_BUCKET is not set; the object of file ${fileId} stays until it is`);
    await withTenant(db, companyId, async (tx) => {
      const [row] = await tx
        .select({ storage: files.storage })
        .from(files)
        .where(and(eq(files.companyId, companyId), eq(files.id, fileId)))
        .for('update');
      if (row?.storage !== 's3') await s3.removeObject(companyId, fileId);
    });
  };
}
