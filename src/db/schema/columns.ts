// Column helpers shared by every table. Timestamps are kept to the millisecond (app_now()), so a JavaScript
// Date round-trips exactly and keyset cursors built from them are exact.
import { sql } from 'drizzle-orm';
import { integer, timestamp, uuid } from 'drizzle-orm/pg-core';

export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
export const createdAt = () => ts('created_at').notNull().default(sql`app_now()`);
export const updatedAt = () => ts('updated_at').notNull().default(sql`app_now()`);
/** Every tenant table starts with the company; primary and foreign keys include it. */
export const companyId = () => uuid('company_id').notNull();
/** Optimistic concurrency: the ETag of a record. */
export const version = () => integer('version').notNull().default(1);
