// `files migrate --to s3|postgres`: moves files' bytes from the storage their row names into another, one file per
// transaction. The row is locked first (before any object is written: the file_remove job and the orphan sweep lock
// it too before they remove an object under the same key), the bytes stream from the old storage into the new one (checked against the
// file's size), the row is switched, and the old storage removes its copy (PostgreSQL in the transaction, S3 by a
// file_remove job after the commit). So an interrupted run leaves every file whole and served from where its row
// says, and a rerun skips the files already moved: the migration resumes where it stopped.
import { and, asc, eq, gt, ne, sql as sqlTag } from 'drizzle-orm';
import type { Db, Sql } from '../db/client.ts';
import { companies, files } from '../db/schema/index.ts';
import { type Tenant, tenantOf, withTenant } from '../db/tenant.ts';
import type { StorageName } from '../files/storage.ts';
import type { FileStorages } from '../files/storages.ts';

/**
 * `total` files were not in the target when the run began: `moved` of them moved, `skipped` were deleted or moved
 * meanwhile. `files` is every file of the companies looked at, `already` those that were in the target already.
 */
export type MigrationCount = { moved: number; skipped: number; total: number; already: number; files: number };

/** Files read per query while walking one company's files. */
const PAGE = 200;

export type MigrationOptions = {
  /** Only this company's files (after `company import`); all companies' otherwise. */
  companyId?: string;
  /** Told before the first file (`done` 0) and after each. */
  progress?: (done: number, total: number) => void;
};

/** Moves every file not yet in `to` there; returns how many moved and how many were gone or moved meanwhile. */
export async function migrateFiles(
  pools: { db: Db; tenantSql: Sql },
  storages: FileStorages,
  to: StorageName,
  options: MigrationOptions = {},
): Promise<MigrationCount> {
  // Refused at once when the target is not configured (S3_BUCKET unset).
  storages.of(to);
  const companyIds = options.companyId
    ? [options.companyId]
    : (await pools.db.select({ id: companies.id }).from(companies).orderBy(asc(companies.id))).map((c) => c.id);
  const pending = new Map<string, number>();
  let all = 0;
  for (const companyId of companyIds) {
    const [row] = await withTenant(pools.db, companyId, (tx) =>
      tx
        .select({
          all: sqlTag<number>`count(*)::int`,
          n: sqlTag<number>`(count(*) filter (where ${files.storage} <> ${to}))::int`,
        })
        .from(files)
        .where(eq(files.companyId, companyId)),
    );
    all += row?.all ?? 0;
    if (row && row.n > 0) pending.set(companyId, row.n);
  }
  const total = [...pending.values()].reduce((a, b) => a + b, 0);
  const count: MigrationCount = { moved: 0, skipped: 0, total, already: all - total, files: all };
  options.progress?.(0, count.total);
  for (const companyId of pending.keys()) {
    const tenant = tenantOf(pools, companyId);
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const page = await withTenant(pools.db, companyId, (tx) =>
        tx
          .select({ id: files.id })
          .from(files)
          .where(and(eq(files.companyId, companyId), ne(files.storage, to), gt(files.id, after)))
          .orderBy(asc(files.id))
          .limit(PAGE),
      );
      for (const { id } of page) {
        if (await moveFile(pools.db, tenant, storages, to, id)) count.moved++;
        else count.skipped++;
        options.progress?.(count.moved + count.skipped, Math.max(count.total, count.moved + count.skipped));
      }
      if (page.length < PAGE) break;
      after = page[page.length - 1].id;
    }
  }
  return count;
}

/** Moves one file in one transaction; false when it was deleted or moved meanwhile. */
async function moveFile(db: Db, tenant: Tenant, storages: FileStorages, to: StorageName, fileId: string) {
  const companyId = tenant.companyId;
  return withTenant(db, companyId, async (tx) => {
    const [row] = await tx
      .select({ storage: files.storage, size: files.size })
      .from(files)
      .where(and(eq(files.companyId, companyId), eq(files.id, fileId)))
      .for('update');
    if (!row || row.storage === to) return false;
    const source = storages.of(row.storage);
    let read = 0;
    async function* counted() {
      for await (const chunk of source.read(tenant, fileId)) {
        read += chunk.byteLength;
        yield chunk;
      }
    }
    await storages.of(to).write(tx, companyId, fileId, counted(), row.size);
    // A copy short of the file's size is not switched to (the rollback leaves the old copy in use).
    if (read !== row.size) throw new Error(`file ${fileId}: ${read} of ${row.size} bytes read from ${row.storage}`);
    await tx
      .update(files)
      .set({ storage: to })
      .where(and(eq(files.companyId, companyId), eq(files.id, fileId)));
    await source.remove(tx, companyId, fileId);
    return true;
  });
}
