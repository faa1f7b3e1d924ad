// Stored files (quote attachments, work-order photos): one row of facts per file and its bytes in chunks of at
// most 256 KiB (src/files/storage.ts), so a file is written and read a chunk at a time and no statement carries
// the whole file. The facts stay here whatever storage holds the bytes (`storage` names it).

import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { bytea, companyId, createdAt, ts } from './columns.ts';
import { companies } from './platform.ts';

export const files = pgTable(
  'files',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    /** The file name as uploaded (its part's `filename`), shown and used in Content-Disposition. */
    name: text('name').notNull(),
    /** Decided from the bytes (file-type), never from the name or the declared type. */
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    /** Which FileStorage holds the bytes: `postgres` (file_chunks below) or `s3` (src/files/s3-storage.ts). */
    storage: text('storage').notNull().default('postgres'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    check('files_storage_known', sql`${t.storage} in ('postgres', 's3')`),
    // `files migrate` walks the files not yet in its target storage.
    index('files_storage_idx').on(t.storage, t.companyId, t.id),
  ],
);

export const fileChunks = pgTable(
  'file_chunks',
  {
    companyId: companyId().references(() => companies.id),
    fileId: uuid('file_id').notNull(),
    /** 0, 1, 2, … in file order. */
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.fileId, t.seq] }),
    foreignKey({ columns: [t.companyId, t.fileId], foreignColumns: [files.companyId, files.id] }).onDelete('cascade'),
  ],
);

/**
 * The last PDF rendered of each document and variant, under the key of what it was rendered from
 * (src/pdf/rendered-pdfs.ts): a repeated download answers these bytes instead of rendering again.
 */
export const renderedPdfs = pgTable(
  'rendered_pdfs',
  {
    companyId: companyId().references(() => companies.id),
    documentId: uuid('document_id').notNull(),
    variant: text('variant', { enum: ['pdf', 'facturx'] }).notNull(),
    contentKey: text('content_key').notNull(),
    pdf: bytea('pdf').notNull(),
    size: integer('size').notNull(),
    renderedAt: ts('rendered_at').notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.documentId, t.variant] }),
    check('rendered_pdfs_variant', sql`${t.variant} in ('pdf', 'facturx')`),
    index('rendered_pdfs_rendered').on(t.renderedAt),
  ],
);
