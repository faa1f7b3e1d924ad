// A company as a unit an operator can move or erase: its complete data (every tenant table, files included,
// found in the catalogue, so a new table is covered without a change here) as a versioned JSON Lines archive,
// restored elsewhere with the same ids; and its erasure in one transaction.
//
// Rows travel as PostgreSQL's own JSON of them (row_to_json) and come back through json_populate_recordset,
// so every type (bytea, timestamps, arrays, numerics) round-trips exactly. Export and erasure run as the
// company (app_api with its tenant): row-level security guarantees that no other company's row is read or
// deleted, whatever the catalogue holds. Background jobs are not part of the archive.
//
// Files travel with their bytes whatever storage holds them: a file kept in S3 is written as if it were kept in
// PostgreSQL (its `files` row says `postgres`, its bytes follow as `file_chunks` rows), so an archive is the same
// for either storage and restores into either; `company import` then moves the files into the installation's
// storage (src/services/file-migration.ts).
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { rechunk } from '../files/storage.ts';
import type { FileStorages } from '../files/storages.ts';

export const ARCHIVE_FORMAT = 'crm-company-archive';
export const ARCHIVE_VERSION = 1;

export type ArchiveHeader = {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  /** The last migration of the exporting installation: an archive is restored into the same schema. */
  schema: string;
  company_id: string;
};

type Line = ArchiveHeader | { table: string; row: Record<string, unknown> };

type TableInfo = {
  name: string;
  /** Columns that can be written (generated ones are computed again). */
  columns: string[];
  primaryKey: string[];
  identity: string[];
};

/** The tenant tables (those with company_id), referenced tables before the tables that reference them. */
async function tenantTables(sql: Sql | postgres.TransactionSql): Promise<TableInfo[]> {
  const tables = await sql<{ name: string; columns: string[]; primary_key: string[]; identity: string[] }[]>`
    select c.relname as name,
      array_agg(a.attname::text order by a.attnum) filter (where a.attgenerated = '') as columns,
      coalesce((select array_agg(k.attname::text order by array_position(i.indkey::int2[], k.attnum))
                from pg_index i join pg_attribute k on k.attrelid = i.indrelid and k.attnum = any(i.indkey)
                where i.indrelid = c.oid and i.indisprimary), '{}') as primary_key,
      coalesce(array_agg(a.attname::text) filter (where a.attidentity <> ''), '{}') as identity
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relkind in ('r', 'p')
      and exists (select 1 from pg_attribute x where x.attrelid = c.oid and x.attname = 'company_id' and not x.attisdropped)
    group by c.oid, c.relname
    order by c.relname`;
  const edges = await sql<{ child: string; parent: string }[]>`
    select distinct ch.relname as child, pa.relname as parent
    from pg_constraint con
    join pg_class ch on ch.oid = con.conrelid
    join pg_class pa on pa.oid = con.confrelid
    where con.contype = 'f' and con.conrelid <> con.confrelid`;
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const e of edges) if (e.child === name && byName.has(e.parent)) visit(e.parent, path);
    const t = byName.get(name);
    if (t) ordered.push({ name, columns: t.columns, primaryKey: t.primary_key, identity: t.identity });
    placed.add(name);
  };
  for (const t of tables) visit(t.name, new Set());
  return ordered;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Tenant tables an archive never carries: a company's payment provider holds its API key (sealed with this
 * installation's key, useless elsewhere, and never to leave the installation in any form). After an import the
 * operator connects the provider again (CLI `company payments`). custom_field_values is derived from the records'
 * values: the import's inserts of customers and deals write it again through its triggers (drizzle/0051), so
 * carrying it would write each row twice. Erasure still deletes them.
 */
const NOT_EXPORTED = new Set(['payment_providers', 'custom_field_values']);

async function lastMigration(sql: Sql | postgres.TransactionSql): Promise<string> {
  const [row] = await sql<{ hash: string; created_at: string }[]>`
    select hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`;
  if (!row) throw new Error('the database has no migrations');
  return row.created_at;
}

/**
 * Writes the company's archive, one JSON line at a time (rows are read 500 at a time, a file's bytes 256 KiB at a
 * time: memory stays flat). `storages`: where files not kept in PostgreSQL are read from.
 */
export async function exportCompany(
  sql: Sql,
  companyId: string,
  write: (line: string) => Promise<void>,
  storages?: FileStorages,
) {
  await sql.begin(async (tx) => {
    const schema = await lastMigration(tx);
    const tables = await tenantTables(tx);
    await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true),
                    set_config('statement_timeout', '0', true)`;
    const [company] = await tx`select row_to_json(c) as row from companies c where id = ${companyId}`;
    if (!company) throw new Error(`no company ${companyId}`);
    const header: ArchiveHeader = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, schema, company_id: companyId };
    await write(JSON.stringify(header));
    await write(JSON.stringify({ table: 'companies', row: company.row } satisfies Line));
    // Files kept elsewhere than PostgreSQL, by storage, in id order: their bytes follow file_chunks' own rows.
    const elsewhere: { id: string; storage: string }[] = [];
    for (const table of tables) {
      if (NOT_EXPORTED.has(table.name)) continue;
      const order = (table.primaryKey.length ? table.primaryKey : table.columns).map(ident).join(', ');
      const cursor = tx
        .unsafe(`select row_to_json(t) as row from ${ident(table.name)} t order by ${order}`)
        .cursor(500);
      for await (const rows of cursor) {
        for (const { row } of rows) {
          if (table.name === 'files' && row.storage !== 'postgres') {
            elsewhere.push({ id: row.id, storage: row.storage });
            row.storage = 'postgres';
          }
          await write(JSON.stringify({ table: table.name, row } satisfies Line));
        }
      }
      if (table.name === 'file_chunks') {
        for (const file of elsewhere) await writeChunks(file, companyId, write, storages);
      }
    }
  });
}

/** A file's bytes from its storage, as the file_chunks rows PostgreSQL would keep them in. */
async function writeChunks(
  file: { id: string; storage: string },
  companyId: string,
  write: (line: string) => Promise<void>,
  storages: FileStorages | undefined,
) {
  const s3 = storages?.s3;
  if (file.storage !== 's3' || !s3) throw new Error(`file ${file.id} is kept in ${file.storage}, not configured here`);
  let seq = 0;
  for await (const data of rechunk(s3.read({ companyId }, file.id))) {
    const row = { company_id: companyId, file_id: file.id, seq: seq++, data: `\\x${data.toString('hex')}` };
    await write(JSON.stringify({ table: 'file_chunks', row } satisfies Line));
  }
}

/**
 * Restores an archive into this installation with the same ids, in one transaction: refused when the company
 * exists here already or the archive was made by another schema. Returns the company id and rows per table.
 */
export async function importCompany(sql: Sql, lines: AsyncIterable<string>) {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new Error('the archive is empty');
  const header = JSON.parse(first.value) as ArchiveHeader;
  if (header.format !== ARCHIVE_FORMAT || header.version !== ARCHIVE_VERSION) {
    throw new Error(`not a ${ARCHIVE_FORMAT} version ${ARCHIVE_VERSION} archive`);
  }
  const companyId = header.company_id;
  const counts: Record<string, number> = {};
  await sql.begin(async (tx) => {
    await tx`select set_config('statement_timeout', '0', true)`;
    const schema = await lastMigration(tx);
    if (schema !== header.schema) {
      throw new Error(
        `the archive's schema (${header.schema}) is not this installation's (${schema}): migrate both to one release`,
      );
    }
    const [exists] = await tx`select 1 from companies where id = ${companyId}`;
    if (exists) throw new Error(`company ${companyId} exists here already`);
    const tables = new Map((await tenantTables(tx)).map((t) => [t.name, t]));
    const companyColumns = await writableColumns(tx, 'companies');

    let batch: Record<string, unknown>[] = [];
    let batchTable = '';
    const flush = async () => {
      if (batch.length === 0) return;
      const columns = batchTable === 'companies' ? companyColumns : tables.get(batchTable)?.columns;
      if (!columns) throw new Error(`the archive has rows of ${batchTable}, which this installation does not have`);
      const list = columns.map(ident).join(', ');
      await tx.unsafe(
        `insert into ${ident(batchTable)} (${list}) overriding system value
         select ${list} from json_populate_recordset(null::${ident(batchTable)}, $1::json)`,
        [JSON.stringify(batch)],
      );
      counts[batchTable] = (counts[batchTable] ?? 0) + batch.length;
      batch = [];
      // The company's row is written as the owner (the API role may not create companies); the rest as the
      // company, so a row of another company in a tampered archive is refused by row-level security.
      if (batchTable === 'companies') {
        await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true)`;
      }
    };
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (next.value.trim() === '') continue;
      const line = JSON.parse(next.value) as { table: string; row: Record<string, unknown> };
      if (line.table !== batchTable || batch.length >= 500) {
        await flush();
        if (line.table !== batchTable && batchTable !== '' && line.table === 'companies') {
          throw new Error('the archive holds more than one company');
        }
        batchTable = line.table;
      }
      batch.push(line.row);
    }
    await flush();
    // Identity columns: this installation's sequences continue above the ids that came in (read as the company,
    // so only its rows count; the sequence is set as the owner).
    const highest: { table: string; column: string; max: string }[] = [];
    for (const table of tables.values()) {
      for (const column of table.identity) {
        const [row] = await tx.unsafe(`select max(${ident(column)})::text as max from ${ident(table.name)}`);
        if (row?.max) highest.push({ table: table.name, column, max: row.max });
      }
    }
    await tx`reset role`;
    for (const { table, column, max } of highest) {
      await tx`select setval(pg_get_serial_sequence(${table}, ${column}),
                             greatest(${max}::bigint, (select last_value from pg_sequences
                               where schemaname || '.' || sequencename = pg_get_serial_sequence(${table}, ${column}))))`;
    }
  });
  return { companyId, counts };
}

async function writableColumns(tx: postgres.TransactionSql, table: string): Promise<string[]> {
  const rows = await tx<{ name: string }[]>`
    select attname::text as name from pg_attribute
    where attrelid = ${table}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
    order by attnum`;
  return rows.map((r) => r.name);
}

/**
 * Erases the company (the right to erasure): every row of every tenant table, its queued jobs and the company
 * itself, in one transaction, once `confirmName` is its name. Returns the rows deleted per table.
 */
export async function deleteCompany(sql: Sql, companyId: string, confirmName: string) {
  const counts: Record<string, number> = {};
  await sql.begin(async (tx) => {
    const [company] = await tx<{ name: string }[]>`select name from companies where id = ${companyId} for update`;
    if (!company) throw new Error(`no company ${companyId}`);
    if (company.name !== confirmName) {
      throw new Error(`--confirm must be the company's name exactly ("${company.name}")`);
    }
    const tables = await tenantTables(tx);
    await tx`select set_config('role', 'app_api', true), set_config('app.company_id', ${companyId}, true),
                    set_config('statement_timeout', '0', true)`;
    for (const table of [...tables].reverse()) {
      const deleted = await tx.unsafe(`delete from ${ident(table.name)} where company_id = $1`, [companyId]);
      if (deleted.count > 0) counts[table.name] = deleted.count;
    }
    await tx`reset role`;
    await tx`delete from graphile_worker._private_jobs where payload->>'companyId' = ${companyId}`;
    await tx`delete from companies where id = ${companyId}`;
  });
  return { counts };
}
