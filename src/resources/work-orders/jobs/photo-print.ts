// The work_order_photo_print task, queued in the transaction of a photo's upload: makes the photo's print version
// once (src/pdf/printable-photo.ts: bounded pixels, time and bytes), so that no PDF ever reduces an original. A
// photo that cannot be reduced within the limits is marked `failed` with the reason (the contract's
// `print_failure`); its PDF then names it instead of showing it. Reductions run a few at a time per worker process,
// companies in turn (the fair queue of the rendering threads): each holds an original of up to 10 MB and its pixels.
import type { Task } from 'graphile-worker';
import type { Db, Sql } from '../../../db/client.ts';
import { tenantOf, withTenant } from '../../../db/tenant.ts';
import { readFile } from '../../../files/records.ts';
import type { FileStorages } from '../../../files/storages.ts';
import { FairQueue } from '../../../pdf/fair-queue.ts';
import { printablePhoto } from '../../../pdf/printable-photo.ts';
import { findPhotoToPrint, keepPhotoPrint } from '../photo-prints.ts';

declare global {
  namespace GraphileWorker {
    interface Tasks {
      work_order_photo_print: { companyId: string; photoId: string };
    }
  }
}

/** Reductions at once in one worker process (sharp uses several threads for each). */
export const PHOTO_PRINTS_AT_ONCE = 2;

export function workOrderPhotoPrintTask(
  pools: { db: Db; tenantSql: Sql },
  storages: FileStorages,
): Task<'work_order_photo_print'> {
  const { db } = pools;
  const slots = new FairQueue({ slots: PHOTO_PRINTS_AT_ONCE, maxWaiting: Number.POSITIVE_INFINITY });
  return async ({ companyId, photoId }) => {
    const tenant = tenantOf(pools, companyId);
    const photo = await withTenant(db, companyId, (tx) => findPhotoToPrint(tx, companyId, photoId));
    // Deleted meanwhile, or made already (a job queued again by the sweep).
    if (!photo || photo.printStatus !== 'pending') return;
    const printable = await slots.run(companyId, async () => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of readFile(storages, tenant, photo.file)) chunks.push(chunk);
      return printablePhoto(Buffer.concat(chunks));
    });
    await withTenant(db, companyId, (tx) => keepPhotoPrint(tx, companyId, photoId, printable));
  };
}
