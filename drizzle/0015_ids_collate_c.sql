-- Prefixed ids (evt_…, wh_…, wd_…, wa_…, key and email ids) are base62 over 0-9A-Za-z: they sort by time only
-- byte by byte. On a database whose default collation is not C (en_US.UTF-8, or ICU en-US: "…a" < "…Z"), two
-- events of one transaction (same created_at) were listed out of the order they happened, and every B-tree on
-- these columns compared with the slower locale rules. The column's collation decides ORDER BY, cursor
-- comparisons and indexes alike. Same type, so no table is rewritten; each table's indexes are rebuilt once
-- (one ALTER TABLE per table) under its exclusive lock. Schema: prefixedIdColumn in src/db/schema/columns.ts;
-- test/platform/id-collation.test.ts checks every text id column, and the order on an ICU en-US database.
ALTER TABLE "events" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "api_keys"
  ALTER COLUMN "id" SET DATA TYPE text COLLATE "C",
  ALTER COLUMN "renewed_from_id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "outbound_emails" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_attempts"
  ALTER COLUMN "id" SET DATA TYPE text COLLATE "C",
  ALTER COLUMN "delivery_id" SET DATA TYPE text COLLATE "C",
  ALTER COLUMN "endpoint_id" SET DATA TYPE text COLLATE "C",
  ALTER COLUMN "event_id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_deliveries"
  ALTER COLUMN "id" SET DATA TYPE text COLLATE "C",
  ALTER COLUMN "endpoint_id" SET DATA TYPE text COLLATE "C",
  ALTER COLUMN "event_id" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "id" SET DATA TYPE text COLLATE "C";
