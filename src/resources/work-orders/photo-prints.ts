// Work-order photos' print versions (work_order_photo_prints): queued with the upload, made once by the
// work_order_photo_print job, read by the PDF. Every function takes the tenant transaction first.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { queueJob } from '../../db/job-queue.ts';
import { files, workOrderPhotoPrints, workOrderPhotos } from '../../db/schema/index.ts';
import type { Tx } from '../../db/tenant.ts';
import type { PrintablePhoto } from '../../pdf/printable-photo.ts';
import type { PhotoRow } from './queries.ts';

/** The job that makes a photo's print version, queued in the caller's transaction (one per photo: its job key). */
export async function queuePhotoPrint(tx: Tx, companyId: string, photoId: string): Promise<void> {
  await tx.execute(
    sql`select ${queueJob('work_order_photo_print', { companyId, photoId }, { jobKey: `work_order_photo_print:${photoId}` })}`,
  );
}

/** The photo with its file (keepPhotoPrint locks it when the result is recorded). */
export async function findPhotoToPrint(tx: Tx, companyId: string, photoId: string): Promise<PhotoRow | undefined> {
  const [row] = await tx
    .select({ photo: workOrderPhotos, file: files })
    .from(workOrderPhotos)
    .innerJoin(files, and(eq(files.companyId, workOrderPhotos.companyId), eq(files.id, workOrderPhotos.fileId)))
    .where(and(eq(workOrderPhotos.companyId, companyId), eq(workOrderPhotos.id, photoId)));
  return row && { ...row.photo, file: row.file };
}

/** Records what the job made: the print version (`ready`) or why there is none (`failed`); a photo made or deleted meanwhile is left. */
export async function keepPhotoPrint(tx: Tx, companyId: string, photoId: string, printable: PrintablePhoto) {
  const [pending] = await tx
    .select({ id: workOrderPhotos.id })
    .from(workOrderPhotos)
    .where(
      and(
        eq(workOrderPhotos.companyId, companyId),
        eq(workOrderPhotos.id, photoId),
        eq(workOrderPhotos.printStatus, 'pending'),
      ),
    )
    .for('update');
  if (!pending) return;
  if (printable.ok) {
    await tx.insert(workOrderPhotoPrints).values({
      companyId,
      photoId,
      image: printable.image,
      width: printable.width,
      height: printable.height,
      size: printable.image.byteLength,
    });
  }
  await tx
    .update(workOrderPhotos)
    .set(
      printable.ok
        ? { printStatus: 'ready', printProblem: null }
        : { printStatus: 'failed', printProblem: printable.failure },
    )
    .where(and(eq(workOrderPhotos.companyId, companyId), eq(workOrderPhotos.id, photoId)));
}

/** The print versions of `photoIds` (those that have one), by photo id. */
export async function printsOf(tx: Tx, companyId: string, photoIds: string[]): Promise<Map<string, Buffer>> {
  if (photoIds.length === 0) return new Map();
  const rows = await tx
    .select({ photoId: workOrderPhotoPrints.photoId, image: workOrderPhotoPrints.image })
    .from(workOrderPhotoPrints)
    .where(and(eq(workOrderPhotoPrints.companyId, companyId), inArray(workOrderPhotoPrints.photoId, photoIds)));
  return new Map(rows.map((r) => [r.photoId, r.image]));
}

/** Minutes a photo may wait for its print version before the sweep queues its job again. */
export const PRINT_SWEEP_MINUTES = 10;

/** Queues the print job of every photo still pending after PRINT_SWEEP_MINUTES (its job lost, or photos of before). */
export async function queuePendingPrints(tx: Tx, companyId: string): Promise<number> {
  const pending = await tx
    .select({ id: workOrderPhotos.id })
    .from(workOrderPhotos)
    .where(
      and(
        eq(workOrderPhotos.companyId, companyId),
        eq(workOrderPhotos.printStatus, 'pending'),
        lt(workOrderPhotos.createdAt, sql`app_now() - make_interval(mins => ${PRINT_SWEEP_MINUTES})`),
      ),
    );
  for (const { id } of pending) await queuePhotoPrint(tx, companyId, id);
  return pending.length;
}
