// A company as a unit an operator can move or erase: the archive of the demo company (every kind of record)
// restored into another installation with the same ids exports to the same archive; the CLI writes that
// archive and reads it back; erasure removes every row of every tenant table (walked from the catalogue), and the
// company's files in whichever storage keeps them. company-archive-s3.test.ts runs this file again with files in S3.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../src/cli/demo.ts';
import { createDb } from '../../src/db/client.ts';
import { withTenant } from '../../src/db/tenant.ts';
import { storeFile } from '../../src/files/records.ts';
import { deleteCompany, exportCompany, importCompany } from '../../src/services/company-archive.ts';
import { setupApi, type TestApi } from '../harness/api.ts';
import { cliInProcess } from '../harness/cli.ts';
import { freshDatabase } from '../harness/db.ts';
import { CLI_TEST_MS } from '../harness/processes.ts';
import { storedFilesOf } from '../harness/s3.ts';

let api: TestApi;
let target: { url: string; drop: () => Promise<void> };
let targetPools: ReturnType<typeof createDb>;

beforeAll(async () => {
  api = await setupApi();
  target = await freshDatabase();
  targetPools = createDb(target.url, 2);
});
afterAll(async () => {
  await targetPools.sql.end({ timeout: 5 });
  await target.drop();
});

async function archiveOf(sql: postgres.Sql, companyId: string): Promise<string[]> {
  const lines: string[] = [];
  // The test's storages (PostgreSQL, or S3 with FILE_STORAGE=s3): the files of either installation are read there.
  await exportCompany(
    sql,
    companyId,
    async (line) => {
      lines.push(line);
    },
    api.deps.fileStorages,
  );
  return lines;
}

async function* linesOf(lines: string[]) {
  yield* lines;
}

/** Rows of the company in every table with a company_id (and the company itself), read past row-level security. */
async function rowsLeft(sql: postgres.Sql, companyId: string): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
    where c.relkind = 'r' and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'company_id')`;
  const left: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await sql.unsafe(`select count(*)::int as n from "${name}" where company_id = $1`, [companyId]);
    if (row?.n) left[name] = row.n;
  }
  const [company] = await sql`select count(*)::int as n from companies where id = ${companyId}`;
  if (company?.n) left.companies = company.n;
  return left;
}

/** A command run in this process (harness/cli.ts) on the database at `url`. */
const cli = (url: string, ...args: string[]) => cliInProcess({ DATABASE_URL: url, LOG_LEVEL: 'silent' }, ...args);

describe('company export and import', () => {
  it('export → import into another installation → export gives the same archive, every kind of record in it', async () => {
    const demo = await createDemo(api.db, '365d', api.deps.fileStorages);
    const archive = await archiveOf(api.sql, demo.companyId);
    const header = JSON.parse(archive[0] as string);
    expect(header).toMatchObject({ format: 'crm-company-archive', version: 1, company_id: demo.companyId });
    const tables = new Set(archive.slice(1).map((l) => JSON.parse(l).table));
    for (const kind of ['companies', 'users', 'customers', 'notes', 'deals', 'pipeline_stages', 'events', 'api_keys'])
      expect(tables, kind).toContain(kind);
    // The company's custom fields (issue 51): their definitions and the records' values travel too.
    expect(tables).toContain('custom_fields');
    const rowsOf = (table: string) =>
      archive.slice(1).flatMap((l) => (JSON.parse(l).table === table ? [JSON.parse(l).row] : []));
    expect(rowsOf('customers').some((row) => Object.keys(row.custom_fields).length > 0)).toBe(true);
    expect(rowsOf('deals').some((row) => row.custom_fields.contract_end !== undefined)).toBe(true);

    const { companyId, counts } = await importCompany(targetPools.sql, linesOf(archive));
    expect(companyId).toBe(demo.companyId);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(archive.length - 1);
    expect(await archiveOf(targetPools.sql, demo.companyId)).toEqual(archive);

    // The restored company answers its own key there.
    const other = await (await import('../harness/api.ts')).appOn(target.url);
    const me = await other.call('getMe', { key: demo.key });
    expect(me.status).toBe(200);
    expect(me.body.data.company.id).toBe(demo.companyId);

    // A second import of the same archive is refused, and changes nothing.
    await expect(importCompany(targetPools.sql, linesOf(archive))).rejects.toThrow(/exists here already/);
  });

  it(
    'the CLI writes the archive to standard output and imports it from a file',
    async () => {
      const demo = await createDemo(api.db, '365d', api.deps.fileStorages);
      const exported = await cli(api.url, 'company', 'export', demo.companyId);
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stdout.split('\n').filter(Boolean);
      expect(lines).toEqual(await archiveOf(api.sql, demo.companyId));
      const file = join(mkdtempSync(join(tmpdir(), 'crm-archive-')), 'company.jsonl');
      writeFileSync(file, exported.stdout);
      const imported = await cli(target.url, 'company', 'import', file, '--json');
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ company_id: demo.companyId });
      expect(await archiveOf(targetPools.sql, demo.companyId)).toEqual(lines);
    },
    CLI_TEST_MS,
  );
});

describe('company delete', () => {
  it('needs the exact name, then leaves nothing of the company in any tenant table', async () => {
    const demo = await createDemo(api.db, '365d', api.deps.fileStorages);
    const keep = await createDemo(api.db, '365d', api.deps.fileStorages);
    const before = await rowsLeft(api.sql, demo.companyId);
    expect(Object.keys(before).length).toBeGreaterThan(5);
    await expect(deleteCompany(api.sql, demo.companyId, 'Someone Else')).rejects.toThrow(/--confirm/);
    expect(await rowsLeft(api.sql, demo.companyId)).toEqual(before);

    const [{ name }] = await api.sql`select name from companies where id = ${demo.companyId}`;
    const { counts } = await deleteCompany(api.sql, demo.companyId, name);
    expect(counts).toEqual(Object.fromEntries(Object.entries(before).filter(([t]) => t !== 'companies')));
    expect(await rowsLeft(api.sql, demo.companyId)).toEqual({});
    expect(
      await api.sql`select 1 from graphile_worker._private_jobs where payload->>'companyId' = ${demo.companyId}`,
    ).toHaveLength(0);
    // Another company is untouched.
    expect(Object.keys(await rowsLeft(api.sql, keep.companyId)).length).toBeGreaterThan(5);
  });

  it('the CLI erases the company with its files: in S3, nothing left under its prefix; another company’s stay', async () => {
    const demo = await createDemo(api.db, '365d', api.deps.fileStorages);
    const keep = (await api.tenant()).companyId;
    const bytes = Buffer.from('%PDF-1.7 kept');
    await withTenant(api.deps.db, keep, (tx) =>
      storeFile(tx, api.deps.fileStorages, keep, {
        name: 'kept.pdf',
        mimeType: 'application/pdf',
        size: bytes.length,
        chunks: [bytes],
      }),
    );
    const s3 = api.deps.fileStorages.s3;
    // In S3, also an object no row names (an upload that died before its commit): the whole prefix goes.
    const stray = '00000000-0000-4000-8000-000000000042';
    if (s3) await s3.put(demo.companyId, stray, [bytes], bytes.length);
    const rows = await api.sql<{ id: string }[]>`select id::text from files where company_id = ${demo.companyId}`;
    expect(rows.length).toBeGreaterThan(3);
    const ids = rows.map((r) => r.id);
    expect(await storedFilesOf(api, demo.companyId)).toEqual((s3 ? [...ids, stray] : ids).sort());
    const kept = await storedFilesOf(api, keep);
    expect(kept).toHaveLength(1);

    const [{ name }] = await api.sql`select name from companies where id = ${demo.companyId}`;
    const deleted = await cli(api.url, 'company', 'delete', demo.companyId, '--confirm', name, '--json');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ company_id: demo.companyId, deleted: true });
    expect(await rowsLeft(api.sql, demo.companyId)).toEqual({});
    expect(await storedFilesOf(api, demo.companyId)).toEqual([]);
    expect(await storedFilesOf(api, keep)).toEqual(kept);
  });
});
