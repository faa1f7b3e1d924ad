// Column helpers shared by every table. Timestamps are kept to the millisecond (app_now()), so a JavaScript
// Date round-trips exactly and keyset cursors built from them are exact.
import { sql } from 'drizzle-orm';
import { customType, integer, jsonb, timestamp, uuid } from 'drizzle-orm/pg-core';

export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
export const createdAt = () => ts('created_at').notNull().default(sql`app_now()`);
export const updatedAt = () => ts('updated_at').notNull().default(sql`app_now()`);
/** Every tenant table starts with the company; primary and foreign keys include it. */
export const companyId = () => uuid('company_id').notNull();
/** Optimistic concurrency: the ETag of a record. */
export const version = () => integer('version').notNull().default(1);
/**
 * A prefixed id (`evt_…`, `wd_…`; src/ids.ts) or a reference to one. Base62 over 0-9A-Za-z sorts by time only
 * byte by byte, so the column compares with the C collation whatever the database's default (en_US.UTF-8 or
 * ICU en-US put "…a" before "…Z"): ORDER BY, cursors and indexes follow the order of occurrence (migration 0015).
 */
/** Binary data (a key's hash, a file's bytes). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const prefixedIdColumn = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/** An integrator's own keys on a record (drizzle/0045_metadata.sql: limits checked by app_metadata_valid). */
export type Metadata = Record<string, string>;
export const metadata = () => jsonb('metadata').$type<Metadata>().notNull().default({});

/** A record's values of the company's custom fields, keyed by field key (drizzle/0047_custom_fields.sql). */
/** A value of a custom field: its JSON as the field's type allows (src/domain/custom-fields.ts). */
export type CustomFieldValue = string | number | boolean | string[];
export type CustomFieldValues = Record<string, CustomFieldValue>;
export const customFieldValues = () => jsonb('custom_fields').$type<CustomFieldValues>().notNull().default({});
