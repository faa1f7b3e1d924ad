-- `metadata`: an integrator's own keys on every main record (issue 51), strings by key, Stripe's limits: at most 50
-- keys of 1 to 40 letters, digits, `_`, `-` and `.`, values of at most 500 characters. The API checks each input
-- (422 naming the key); app_metadata_valid checks the stored object as well, since a PATCH merges into what is
-- stored and only the merged object can be counted. A column with a constant default is added without rewriting
-- the table; each constraint reads its table once (every row holds '{}') under the ALTER's lock.
CREATE FUNCTION app_metadata_valid(metadata jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE WHEN jsonb_typeof(metadata) <> 'object' THEN false ELSE (
    SELECT count(*) <= 50 AND coalesce(bool_and(key ~ '^[A-Za-z0-9_.-]{1,40}$' AND key <> '__proto__'
                                               AND jsonb_typeof(value) = 'string'
                                               AND char_length(value #>> '{}') <= 500), true)
    FROM jsonb_each(metadata)) END
$$;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "customers_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "deals_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "notes" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "notes_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "tasks_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "quotes_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "invoices_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "work_orders_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "appointments_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "orders_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "conversations_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "webhook_endpoints_metadata" CHECK (app_metadata_valid("metadata"));
--> statement-breakpoint
-- `metadata[key]=value` filters (jsonb containment) through a GIN index by company (btree_gin, migration 0010), so a
-- filter reads only its own company's entries. Partial: a record without metadata (most of them) costs its writes
-- nothing here. jsonb_path_ops: containment is all the filter asks, and its entries are smaller than jsonb_ops'.
-- fastupdate off as for customers_search (0010): no pending list for every filter to read. Webhook endpoints, a
-- handful per company, have no index.
--> statement-breakpoint
CREATE INDEX "customers_metadata" ON "customers" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "deals_metadata" ON "deals" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "notes_metadata" ON "notes" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "tasks_metadata" ON "tasks" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "quotes_metadata" ON "quotes" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "invoices_metadata" ON "invoices" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "work_orders_metadata" ON "work_orders" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "appointments_metadata" ON "appointments" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "orders_metadata" ON "orders" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "conversations_metadata" ON "conversations" USING gin ("company_id", "metadata" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "metadata" <> '{}'::jsonb;
--> statement-breakpoint
-- Under row-level security PostgreSQL does not use containment (`@>`, not leakproof) as an index condition below
-- the policy (as LIKE in 0010), so as app_api every filter would read all the company's rows. app_metadata_ids
-- proposes candidates as app_search_customers does (why, and why it is safe, is written in 0010): the ids of the
-- current tenant's records of `record_table` whose metadata contains `filter`, through the index. The caller reads
-- the rows under the policy (`id = any(…)`, with the containment checked again there), so the policy, not this
-- function, decides what is returned. The table is one of a fixed list, never a name taken as it comes.
-- At most max_rows ids: past a few hundred the caller filters its ordered scan instead (a common value fills a page
-- within a few rows), so a value that a quarter of the records carry is not handed over id by id.
CREATE FUNCTION app_metadata_ids(record_table text, filter jsonb, max_rows int)
RETURNS SETOF uuid LANGUAGE plpgsql STABLE SECURITY DEFINER ROWS 10
SET search_path = pg_catalog, public, pg_temp
SET enable_seqscan = off
AS $$
BEGIN
  IF record_table NOT IN ('customers', 'deals', 'notes', 'tasks', 'quotes', 'invoices', 'work_orders', 'appointments', 'orders', 'conversations') THEN
    RAISE EXCEPTION 'app_metadata_ids: % has no metadata index', record_table;
  END IF;
  RETURN QUERY EXECUTE format(
    'SELECT t.id FROM public.%I t WHERE t.company_id = $1 AND t.metadata @> $2 AND t.metadata <> ''{}''::jsonb LIMIT $3',
    record_table)
  USING nullif(current_setting('app.company_id', true), '')::uuid, filter, max_rows;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_metadata_ids(text, jsonb, int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_metadata_ids(text, jsonb, int) TO app_api;
