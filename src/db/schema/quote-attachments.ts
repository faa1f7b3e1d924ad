// Files attached to quotes: the attachment's own facts; the file (name, type, size, bytes) is a `files` row.
import { boolean, foreignKey, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, createdAt } from './columns.ts';
import { files } from './files.ts';
import { companies } from './platform.ts';
import { quotes } from './sales.ts';

export const quoteAttachments = pgTable(
  'quote_attachments',
  {
    companyId: companyId().references(() => companies.id),
    id: uuid('id').notNull(),
    quoteId: uuid('quote_id').notNull(),
    fileId: uuid('file_id').notNull(),
    description: text('description'),
    visibleToCustomer: boolean('visible_to_customer').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.quoteId], foreignColumns: [quotes.companyId, quotes.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ columns: [t.companyId, t.fileId], foreignColumns: [files.companyId, files.id] }),
    index('quote_attachments_list').on(t.companyId, t.quoteId, t.createdAt, t.id),
  ],
);
