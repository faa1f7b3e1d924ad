// Where the bytes of files live. The facts of a file (name, type, size) are always a `files` row; its bytes are
// kept by a FileStorage. PostgreSQL is the storage of this release: transactional with the change that adds or
// removes a file and shared by every API node. Another storage (S3-compatible) implements the same interface and
// is chosen in deps-factory.ts; the resources only ever see the interface.
import { and, eq } from 'drizzle-orm';
import { fileChunks } from '../db/schema/index.ts';
import type { Tenant, Tx } from '../db/tenant.ts';

export interface FileStorage {
  /** Stored in `files.storage`, so that files of an earlier storage can still be found. */
  readonly name: string;
  /** Writes the bytes of a new file, in the caller's transaction (a rollback leaves nothing). */
  write(tx: Tx, companyId: string, fileId: string, bytes: Iterable<Uint8Array>): Promise<void>;
  /** The bytes in order, a chunk at a time; ends short when the file is deleted meanwhile (callers check the size). */
  read(tenant: Tenant, fileId: string): AsyncIterable<Uint8Array>;
  /** Removes the bytes, in the caller's transaction. */
  remove(tx: Tx, companyId: string, fileId: string): Promise<void>;
}

/** 256 KiB: each statement carries one chunk, so neither side holds a whole file for a statement. */
export const CHUNK_BYTES = 256 * 1024;

/** The bytes regrouped into chunks of exactly `size` (the last one shorter), copying each byte once. */
export function* rechunk(source: Iterable<Uint8Array>, size = CHUNK_BYTES): Generator<Buffer> {
  let chunk = Buffer.allocUnsafe(size);
  let filled = 0;
  for (const piece of source) {
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
    for (const data of rechunk(bytes)) {
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
