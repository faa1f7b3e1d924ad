// The outbox of changes (events) and stored idempotent responses.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { companyId, createdAt, prefixedIdColumn } from './columns.ts';
import { companies } from './platform.ts';

export const events = pgTable(
  'events',
  {
    companyId: companyId().references(() => companies.id),
    id: prefixedIdColumn('id').notNull(),
    type: text('type').notNull(),
    /** The scope a key needs to see this event (customers.read, deals.read). */
    scope: text('scope').notNull(),
    /** The customer whose timeline shows this event, if any. */
    customerId: uuid('customer_id'),
    /** `{ object: <REST shape> }` as it was after the change (before it, for deletions). */
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    index('events_created').on(t.companyId, t.createdAt, t.id),
    index('events_customer').on(t.companyId, t.customerId, t.createdAt, t.id),
    // The 30-day purge looks across companies, at the events on no timeline only (the others are kept: a
    // customer's timeline is not purged): older timeline events do not pile up in its path.
    index('events_retention')
      .on(t.createdAt)
      .where(sql`${t.customerId} is null`),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    companyId: companyId().references(() => companies.id),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    /** The body's JSON text as it was sent (jsonb would reorder its keys, and a replay is byte for byte). */
    responseBody: text('response_body').notNull(),
    responseHeaders: jsonb('response_headers').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.key] }), index('idempotency_created').on(t.createdAt)],
);
