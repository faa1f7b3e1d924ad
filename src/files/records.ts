// A file as the resources use it: its facts in `files` and its bytes in the installation's FileStorage, written
// before the caller's transaction commits the row and removed with (PostgreSQL) or after (S3) the row's deletion.
import { and, eq } from 'drizzle-orm';
import { files } from '../db/schema/index.ts';
import type { Tenant, Tx } from '../db/tenant.ts';
import { newId } from '../ids.ts';
import type { Bytes } from './storage.ts';
import type { FileStorages } from './storages.ts';

export type StoredFile = typeof files.$inferSelect;

/** A new file's facts and its bytes: at hand (the demo's), or read from an upload's spool file (src/http/upload.ts). */
export type NewFile = { name: string; mimeType: string; size: number; chunks: Bytes };

export async function storeFile(tx: Tx, storages: FileStorages, companyId: string, file: NewFile): Promise<StoredFile> {
  const storage = storages.current;
  const [row] = await tx
    .insert(files)
    .values({
      companyId,
      id: newId(),
      name: file.name,
      mimeType: file.mimeType,
      size: file.size,
      storage: storage.name,
    })
    .returning();
  await storage.write(tx, companyId, row.id, file.chunks, file.size);
  return row;
}

/** Deletes the row (from then on no download finds the file) and has its storage remove the bytes. */
export async function deleteFile(tx: Tx, storages: FileStorages, companyId: string, fileId: string): Promise<void> {
  const [row] = await tx
    .delete(files)
    .where(and(eq(files.companyId, companyId), eq(files.id, fileId)))
    .returning({ storage: files.storage });
  if (row) await storages.of(row.storage).remove(tx, companyId, fileId);
}

const FIND_FILE = 'select * from files where company_id = $1 and id = $2';

/** One statement as the tenant (a download needs no transaction). */
export async function findFile(tenant: Tenant, fileId: string): Promise<StoredFile | undefined> {
  const [row] = await tenant.read(files, { sql: FIND_FILE, params: [tenant.companyId, fileId] });
  return row;
}

/**
 * The bytes of a file found by findFile, in order, from the storage its row names. A storage that ends short because
 * the file was moved meanwhile (`files migrate` switches the row and removes the old copy as it commits) is followed:
 * the rest comes from the file's new storage. A file deleted meanwhile ends short (callers check the size).
 */
export async function* readFile(
  storages: FileStorages,
  tenant: Tenant,
  file: Pick<StoredFile, 'id' | 'storage' | 'size'>,
): AsyncIterable<Uint8Array> {
  let given = 0;
  let storage = file.storage;
  for (;;) {
    // From a storage the file has moved to, the bytes already given are skipped.
    let skip = given;
    for await (const chunk of storages.of(storage).read(tenant, file.id)) {
      if (skip >= chunk.byteLength) {
        skip -= chunk.byteLength;
        continue;
      }
      const rest = skip > 0 ? chunk.subarray(skip) : chunk;
      skip = 0;
      given += rest.byteLength;
      yield rest;
    }
    if (given >= file.size) return;
    const now = await findFile(tenant, file.id);
    if (!now || now.storage === storage) return;
    storage = now.storage;
  }
}
