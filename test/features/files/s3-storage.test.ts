// Files kept in S3 (a real S3 protocol server on 127.0.0.1, harness/s3.ts): the download, attachment and photo
// tests run again here on S3 (imported below, so they are written once), and what only S3 needs proving: a
// company's files under its prefix, a crash between the bytes and the commit (the orphan sweep after its grace
// period), the sweep racing a commit, a delete or a move racing a download, and `files migrate` both ways on the
// demo company, interrupted and resumed.
// The whole file set runs on S3 with `FILE_STORAGE=s3 npx vitest run …` (README, "Files").
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { JobHelpers } from 'graphile-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from '../../harness/cli.ts';
import { CLI_TEST_MS } from '../../harness/processes.ts';
import { onS3Server } from '../../harness/s3.ts';

// Before the suites below are imported: their apps read these variables (setupApi, storageEnv).
await onS3Server();

describe('on S3: downloads', async () => {
  await import('./download.test.ts');
});
describe('on S3: quote attachments', async () => {
  await import('../quote-attachments/attachments.test.ts');
});
describe('on S3: work-order photos', async () => {
  await import('../work-orders/photos.test.ts');
});

const { withTenant } = await import('../../../src/db/tenant.ts');
const { deleteFile, storeFile } = await import('../../../src/files/records.ts');
const { sweepFileOrphans, sweepFileOrphansTask, ORPHAN_GRACE_MS } = await import(
  '../../../src/jobs/sweep-file-orphans.ts'
);
const { createDemo } = await import('../../../src/cli/demo.ts');
const { FileStorages } = await import('../../../src/files/storages.ts');
const { S3FileStorage } = await import('../../../src/files/s3-storage.ts');
const { migrateFiles } = await import('../../../src/services/file-migration.ts');
const { deferred, until } = await import('../../harness/async.ts');
const { waitsForLock } = await import('../../harness/locks.ts');
const { setupApi } = await import('../../harness/api.ts');
const { fileBytesKept, objectExists } = await import('../../harness/s3.ts');

const ROOT = resolve(import.meta.dirname, '../../..');

type Api = Awaited<ReturnType<typeof setupApi>>;
let api: Api;
let companyId: string;

beforeAll(async () => {
  api = await setupApi();
  ({ companyId } = await api.tenant());
});

const s3 = () => {
  const storage = api.deps.fileStorages.s3;
  if (!storage) throw new Error('the test app has no S3 storage');
  return storage;
};

const bytesOf = (size: number, seed: string) => {
  const out = Buffer.alloc(size);
  for (let at = 0; at < size; at += 32) createHash('sha256').update(`${seed}:${at}`).digest().copy(out, at);
  return out;
};

/** The storages of an installation on PostgreSQL: files stored there are for a migration to move. */
const postgresOnly = () => new FileStorages('postgres', undefined);

function store(bytes: Buffer, company = companyId, storages = api.deps.fileStorages) {
  return withTenant(api.deps.db, company, (tx) =>
    storeFile(tx, storages, company, {
      name: 'x.pdf',
      mimeType: 'application/pdf',
      size: bytes.byteLength,
      chunks: [bytes.subarray(0, 1000), bytes.subarray(1000)],
    }),
  );
}

const download = (fileId: string, company = companyId) =>
  api.app.request(`http://api.test${new URL(api.deps.fileLinks.url({ companyId: company, fileId })).pathname}`);

describe('files in S3', () => {
  it('keeps each file as one object under its company’s prefix, no chunks in PostgreSQL', async () => {
    const bytes = bytesOf(300_000, 'one');
    const file = await store(bytes);
    expect(file.storage).toBe('s3');
    expect(s3().key(companyId, file.id)).toBe(`${api.config.S3_PREFIX}/${companyId}/${file.id}`);
    expect(await objectExists(s3(), companyId, file.id)).toBe(true);
    expect(await api.sql`select 1 from file_chunks where file_id = ${file.id}`).toHaveLength(0);
    // Another company's link to this file id finds no row of its own: the same 404 as any bad link.
    const other = await api.tenant();
    expect((await download(file.id, other.companyId)).status).toBe(404);
    expect(Buffer.from(await (await download(file.id)).arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a crash between the bytes and the commit: no file anyone reaches, and the sweep removes the bytes after the grace period', async () => {
    const kept = await store(bytesOf(1000, 'kept'));
    let orphanId = '';
    await expect(
      withTenant(api.deps.db, companyId, async (tx) => {
        const file = await storeFile(tx, api.deps.fileStorages, companyId, {
          name: 'lost.pdf',
          mimeType: 'application/pdf',
          size: 5,
          chunks: [Buffer.from('%PDF-')],
        });
        orphanId = file.id;
        throw new Error('the process died before the commit');
      }),
    ).rejects.toThrow(/died/);
    expect(await objectExists(s3(), companyId, orphanId)).toBe(true);
    expect(await api.sql`select 1 from files where id = ${orphanId}`).toHaveLength(0);
    expect((await download(orphanId)).status).toBe(404);

    // Within the grace period: kept, it may still get its row. The hourly task itself (as the worker runs it, its
    // clock now) takes the grace period off its clock; a cut-off of now would remove the object of an upload or a
    // move that has not committed yet.
    const sweepTask = sweepFileOrphansTask(api.deps.db, api.deps.fileStorages, () => new Date());
    await sweepTask({}, {} as JobHelpers);
    expect(await objectExists(s3(), companyId, orphanId)).toBe(true);
    expect(await sweepFileOrphans(api.deps.db, s3(), new Date(Date.now() - ORPHAN_GRACE_MS))).toBe(0);
    expect(await objectExists(s3(), companyId, orphanId)).toBe(true);
    // An hour later (the cut-off moved past the object's time): removed; the committed file stays.
    const later = new Date(Date.now() + ORPHAN_GRACE_MS + 60_000);
    await sweepFileOrphansTask(api.deps.db, api.deps.fileStorages, () => later)({}, {} as JobHelpers);
    expect(await objectExists(s3(), companyId, orphanId)).toBe(false);
    expect(await objectExists(s3(), companyId, kept.id)).toBe(true);
    expect((await download(kept.id)).status).toBe(200);
  });

  it('the sweep racing a commit: an object whose row commits while the sweep runs is kept (the sweep waits for the row’s lock)', async () => {
    // A file moving to S3 (files migrate) holds its row locked from before it writes the object until it commits
    // the row's switch to S3; until then the row says postgres to anyone else. The sweep here takes every object for
    // past its grace period (its cut-off an hour ahead), as it would an old object left under the same key.
    const company = (await api.tenant()).companyId;
    const bytes = bytesOf(50_000, 'moving');
    const file = await store(bytes, company, postgresOnly());
    const written = deferred<void>();
    const commit = deferred<void>();
    // The installation's bucket, held between the object's write and the row's switch.
    class HeldS3 extends S3FileStorage {
      override async write(...args: Parameters<InstanceType<typeof S3FileStorage>['write']>) {
        await super.write(...args);
        written.resolve();
        await commit.promise;
      }
    }
    const held = new HeldS3(s3().client, s3().bucket, api.config.S3_PREFIX);
    const moving = migrateFiles(api.deps, new FileStorages('postgres', held), 's3', { companyId: company });
    await written.promise;
    expect(await objectExists(s3(), company, file.id)).toBe(true);

    let swept = false;
    const sweeping = sweepFileOrphans(api.deps.db, s3(), new Date(Date.now() + ORPHAN_GRACE_MS)).finally(() => {
      swept = true;
    });
    // The sweep waits for the row before it decides whether a row names the object (a sweep that did not would end
    // here, having removed the object, and the checks below say so).
    await until(async () => swept || (await waitsForLock(api.sql, '%for update%')), 'the sweep waits or ends');
    const waited = !swept;
    commit.resolve();
    expect(await moving).toMatchObject({ moved: 1, total: 1 });
    await sweeping;
    expect(await objectExists(s3(), company, file.id)).toBe(true);
    expect(waited).toBe(true);
    const [row] = await api.sql`select storage from files where id = ${file.id}`;
    expect(row.storage).toBe('s3');
    const response = await download(file.id, company);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a new file whose row commits while the sweep runs: kept, its object being younger than the grace period', async () => {
    // A row not yet committed is seen by no other transaction, so no lock can hold the sweep for it: what keeps its
    // object is its age (a transaction lasts less than idle_in_transaction_session_timeout, far below the grace).
    const bytes = bytesOf(40_000, 'arriving');
    const written = deferred<string>();
    const commit = deferred<void>();
    const storing = withTenant(api.deps.db, companyId, async (tx) => {
      const file = await storeFile(tx, api.deps.fileStorages, companyId, {
        name: 'new.pdf',
        mimeType: 'application/pdf',
        size: bytes.length,
        chunks: [bytes],
      });
      written.resolve(file.id);
      await commit.promise;
      return file;
    });
    const id = await written.promise;
    await sweepFileOrphans(api.deps.db, s3(), new Date(Date.now() - ORPHAN_GRACE_MS));
    commit.resolve();
    await storing;
    expect(await objectExists(s3(), companyId, id)).toBe(true);
    const response = await download(id);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a delete racing a download: the download under way ends whole or fails, never other bytes; after the delete, 404 and no object', async () => {
    const bytes = bytesOf(900_000, 'race');
    const file = await store(bytes);
    const response = await download(file.id);
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const first = await reader.read();
    const received: Uint8Array[] = first.value ? [first.value] : [];

    await withTenant(api.deps.db, companyId, (tx) => deleteFile(tx, api.deps.fileStorages, companyId, file.id));
    expect(await fileBytesKept(api, companyId, file.id)).toBe(false);
    expect((await download(file.id)).status).toBe(404);

    let failed = false;
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) received.push(next.value);
    } catch {
      failed = true;
    }
    const got = Buffer.concat(received);
    if (!failed) expect(got.equals(bytes)).toBe(true);
    else expect(bytes.subarray(0, got.length).equals(got)).toBe(true);
  });

  it('a download racing a move to S3 (files migrate): the answer goes on from the file’s new storage, whole', async () => {
    const company = (await api.tenant()).companyId;
    const bytes = bytesOf(2_000_000, 'moved');
    const file = await store(bytes, company, postgresOnly());
    const response = await download(file.id, company);
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const first = await reader.read();
    const received: Uint8Array[] = first.value ? [first.value] : [];
    // The move switches the row and removes the chunks in one transaction, while the answer is being sent.
    expect(await migrateFiles(api.deps, api.deps.fileStorages, 's3', { companyId: company })).toMatchObject({
      moved: 1,
    });
    expect(await api.sql`select 1 from file_chunks where file_id = ${file.id}`).toHaveLength(0);
    for (let next = await reader.read(); !next.done; next = await reader.read()) received.push(next.value);
    expect(Buffer.concat(received).equals(bytes)).toBe(true);
  });

  it('a rolled-back delete keeps the file: no removal job was queued', async () => {
    const file = await store(bytesOf(2000, 'stays'));
    await expect(
      withTenant(api.deps.db, companyId, async (tx) => {
        await deleteFile(tx, api.deps.fileStorages, companyId, file.id);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow(/rolled back/);
    expect(await fileBytesKept(api, companyId, file.id)).toBe(true);
    expect((await download(file.id)).status).toBe(200);
  });
});

describe('files migrate', () => {
  const env = () => ({ ...process.env, DATABASE_URL: api.url, LOG_LEVEL: 'silent' });

  /** A command run in this process (harness/cli.ts). */
  const cli = (...args: string[]) => cliInProcess(env(), ...args);

  /** Every file of the company with a digest of its bytes as downloaded. */
  async function downloads(company: string) {
    const rows = await api.sql<{ id: string; storage: string }[]>`
      select id::text, storage from files where company_id = ${company} order by id`;
    const digests: Record<string, string> = {};
    for (const { id } of rows) {
      const response = await download(id, company);
      expect(response.status).toBe(200);
      digests[id] = createHash('sha256')
        .update(Buffer.from(await response.arrayBuffer()))
        .digest('hex');
    }
    return { storages: new Set(rows.map((r) => r.storage)), digests };
  }

  it(
    'moves the demo company’s files to S3 and back, every file served the same all along',
    async () => {
      const demo = await createDemo(api.db, 'never', postgresOnly());
      const before = await downloads(demo.companyId);
      expect(before.storages).toEqual(new Set(['postgres']));
      const files = Object.keys(before.digests).length;
      expect(files).toBeGreaterThan(3);

      const toS3 = await cli('files', 'migrate', '--to', 's3', '--json');
      expect(toS3.code, toS3.stderr).toBe(0);
      const moved = JSON.parse(toS3.stdout);
      expect(moved.to).toBe('s3');
      expect(moved.moved).toBeGreaterThanOrEqual(files);
      expect(moved.moved).toBe(moved.total);
      const inS3 = await downloads(demo.companyId);
      expect(inS3).toEqual({ storages: new Set(['s3']), digests: before.digests });
      expect(await api.sql`select 1 from file_chunks where company_id = ${demo.companyId}`).toHaveLength(0);
      for (const id of Object.keys(before.digests)) expect(await objectExists(s3(), demo.companyId, id)).toBe(true);

      const again = await cli('files', 'migrate', '--to', 's3', '--json');
      // A rerun counts what is there: every file, all in S3 already.
      expect(moved.files).toBe(moved.total + moved.already);
      expect(JSON.parse(again.stdout)).toMatchObject({ moved: 0, total: 0, already: moved.files, files: moved.files });

      const back = await cli('files', 'migrate', '--to', 'postgres');
      expect(back.code, back.stderr).toBe(0);
      expect(back.stdout).toMatch(/^\d+ file\(s\): \d+ moved to postgres, \d+ there already\.$/m);
      expect(await downloads(demo.companyId)).toEqual({ storages: new Set(['postgres']), digests: before.digests });
      // The objects go by the file_remove jobs the moves queued (the worker runs them after each commit).
      for (const id of Object.keys(before.digests)) expect(await fileBytesKept(api, demo.companyId, id)).toBe(false);
    },
    CLI_TEST_MS,
  );

  // The demo company (created first, so walked first) was moved back to PostgreSQL above: the killed run moves it
  // before this company's files.
  it(
    'interrupted (the process killed part-way), then run again: every file once, in S3, the counts right',
    async () => {
      const company = (await api.tenant()).companyId;
      const written: string[] = [];
      for (let i = 0; i < 8; i++) written.push((await store(bytesOf(20_000 + i, `m${i}`), company, postgresOnly())).id);
      const before = await downloads(company);

      // The fifth file's row is held locked: the migration moves the four before it, then waits there and is killed.
      const ordered = [...written].sort();
      const held = api.sql.reserve();
      const conn = await held;
      await conn`begin`;
      await conn`select 1 from files where id = ${ordered[4]} for update`;
      let child: ChildProcess | undefined;
      try {
        // Node itself with tsx's loader (not the tsx wrapper, whose child would outlive the kill).
        child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'files', 'migrate', '--to', 's3'], {
          cwd: ROOT,
          env: env(),
          stdio: 'ignore',
        });
        const exited = new Promise((done) => child?.once('exit', done));
        for (;;) {
          const [{ n }] =
            await api.sql`select count(*)::int as n from files where company_id = ${company} and storage = 's3'`;
          if (n === 4) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        child.kill('SIGKILL');
        await exited;
      } finally {
        await conn`rollback`;
        conn.release();
      }
      const [{ n: half }] =
        await api.sql`select count(*)::int as n from files where company_id = ${company} and storage = 's3'`;
      expect(half).toBe(4);
      // Half-migrated: every file is served from where its row says.
      expect((await downloads(company)).digests).toEqual(before.digests);

      const resumed = await cli('files', 'migrate', '--to', 's3', '--json');
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ to: 's3', moved: 4, skipped: 0, total: 4 });
      expect(await downloads(company)).toEqual({ storages: new Set(['s3']), digests: before.digests });
      const rows = await api.sql`select id from files where company_id = ${company}`;
      expect(rows).toHaveLength(8);
      for (const id of written) expect(await objectExists(s3(), company, id)).toBe(true);
      expect(await api.sql`select 1 from file_chunks where company_id = ${company}`).toHaveLength(0);
    },
    CLI_TEST_MS,
  );
});
