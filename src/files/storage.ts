// Where the bytes of files live. The facts of a file (name, type, size) are always a `files` row, and that row is
// the truth: a file exists, and can be downloaded, exactly when its row is committed. Its bytes are kept by a
// FileStorage: PostgreSQL by default (file_chunks, transactional with the row and shared by every API node), or
// an S3-compatible bucket (s3-storage.ts) chosen by FILE_STORAGE. `files.storage` names the storage of each file,
// so files written before a switch are still served from where they are (FileStorages.of, storages.ts).
import { and, eq } from 'drizzle-orm';
import { fileChunks } from '../db/schema/index.ts';
import type { Tenant, Tx } from '../db/tenant.ts';

export type StorageName = 'postgres' | 's3';

/** Bytes given in order, at hand or arriving (a download from the other storage while migrating). */
export type Bytes = Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

export interface FileStorage {
  /** Stored in `files.storage`, so that files of an earlier storage can still be found. */
  readonly name: StorageName;
  /**
   * Writes the bytes of a new file before the caller's transaction commits its row, as they come: PostgreSQL in
   * that transaction, S3 at once under the file's own key (a rollback leaves bytes no row names, which nobody can
   * reach and the orphan sweep removes). `size` when known beforehand (an upload's, read from its spool file, is).
   * Bytes that fail leave no object (S3 aborts the write).
   */
  write(tx: Tx, companyId: string, fileId: string, bytes: Bytes, size?: number): Promise<void>;
  /** The bytes in order, a chunk at a time; ends short when the file is deleted meanwhile (callers check the size). */
  read(tenant: Tenant, fileId: string): AsyncIterable<Uint8Array>;
  /**
   * Removes the bytes of a file whose row the caller's transaction deletes (or moves): PostgreSQL in that
   * transaction, S3 by a job the transaction queues, which runs once it commits.
   */
  remove(tx: Tx, companyId: string, fileId: string): Promise<void>;
}

/** 256 KiB: each statement carries one chunk, so neither side holds a whole file for a statement. */
export const CHUNK_BYTES = 256 * 1024;

/** The bytes regrouped into chunks of exactly `size` (the last one shorter), copying each byte once. */
export async function* rechunk(source: Bytes, size = CHUNK_BYTES): AsyncGenerator<Buffer> {
  let chunk = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const piece of source) {
    for (let offset = 0; offset < piece.byteLength; ) {
      const n = Math.min(size - filled, piece.byteLength - offset);
      chunk.set(piece.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === size) {
        yield chunk;
        chunk = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}

const READ_CHUNK = 'select * from file_chunks where company_id = $1 and file_id = $2 and seq = $3';

/** Bytes in `file_chunks` rows, one per 256 KiB. */
export const postgresFileStorage: FileStorage = {
  name: 'postgres',

  async write(tx, companyId, fileId, bytes) {
    let seq = 0;
    for await (const data of rechunk(bytes)) {
      await tx.insert(fileChunks).values({ companyId, fileId, seq, data });
      seq += 1;
    }
  },

  async *read(tenant, fileId) {
    // One statement per chunk (by primary key): a download holds no connection between chunks, however slowly
    // the client reads. A file deleted meanwhile ends the stream short.
    for (let seq = 0; ; seq++) {
      const [row] = await tenant.read(fileChunks, { sql: READ_CHUNK, params: [tenant.companyId, fileId, seq] });
      if (!row) return;
      yield row.data;
    }
  },

  async remove(tx, companyId, fileId) {
    await tx.delete(fileChunks).where(and(eq(fileChunks.companyId, companyId), eq(fileChunks.fileId, fileId)));
  },
};
