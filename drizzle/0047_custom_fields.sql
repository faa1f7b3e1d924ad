-- Custom fields (issue 51): a company's own typed fields on customers and deals. The definitions are a tenant table
-- like every other (company in the primary key, row-level security forced); the values live on the record in
-- `custom_fields` (jsonb, keyed by the field's key), checked by the API against the company's definitions.
CREATE TABLE "custom_fields" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"resource" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"labels" jsonb NOT NULL,
	"decimals" smallint,
	"options" jsonb,
	"required" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "custom_fields_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "custom_fields_resource" CHECK ("resource" in ('customers', 'deals')),
	CONSTRAINT "custom_fields_key" CHECK ("key" ~ '^[a-z][a-z0-9_]{0,39}$'),
	CONSTRAINT "custom_fields_type" CHECK ("type" in ('text', 'long_text', 'number', 'money', 'date', 'boolean',
	  'single_select', 'multi_select', 'url', 'email', 'phone')),
	CONSTRAINT "custom_fields_decimals" CHECK (("type" = 'number') = ("decimals" is not null) and coalesce("decimals", 0) between 0 and 6),
	CONSTRAINT "custom_fields_options" CHECK (("type" in ('single_select', 'multi_select')) = ("options" is not null))
);
--> statement-breakpoint
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- A key once per company and resource (a concurrent duplicate fails here: 422 already_exists); the order of a list.
CREATE UNIQUE INDEX "custom_fields_resource_key" ON "custom_fields" USING btree ("company_id","resource","key");
--> statement-breakpoint
CREATE INDEX "custom_fields_position" ON "custom_fields" USING btree ("company_id","resource","position","created_at","id");
--> statement-breakpoint
CREATE INDEX "custom_fields_created" ON "custom_fields" USING btree ("company_id","created_at","id");
--> statement-breakpoint
SELECT app_enable_tenancy('custom_fields');
--> statement-breakpoint
-- The values, keyed by field key. A constant default adds the column without rewriting the table.
ALTER TABLE "customers" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "customers_custom_fields" CHECK (jsonb_typeof("custom_fields") = 'object');
--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
  ADD CONSTRAINT "deals_custom_fields" CHECK (jsonb_typeof("custom_fields") = 'object');
--> statement-breakpoint
-- `filter[custom_fields.<key>]=value` is jsonb containment, through a GIN index by company as for metadata (0045):
-- jsonb_path_ops, partial (a record without values costs its writes nothing here), no pending list.
CREATE INDEX "customers_custom_fields" ON "customers" USING gin ("company_id", "custom_fields" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "custom_fields" <> '{}'::jsonb;
--> statement-breakpoint
CREATE INDEX "deals_custom_fields" ON "deals" USING gin ("company_id", "custom_fields" jsonb_path_ops)
  WITH (fastupdate = off) WHERE "custom_fields" <> '{}'::jsonb;
--> statement-breakpoint
-- Containment is not leakproof, so below the row-level policy the index would not be used (see 0045): as
-- app_metadata_ids does for metadata, app_custom_field_ids proposes the current tenant's candidate ids through the
-- index, and the caller reads them under the policy with the condition checked again.
CREATE FUNCTION app_custom_field_ids(record_table text, filter jsonb, max_rows int)
RETURNS SETOF uuid LANGUAGE plpgsql STABLE SECURITY DEFINER ROWS 10
SET search_path = pg_catalog, public, pg_temp
SET enable_seqscan = off
AS $$
BEGIN
  IF record_table NOT IN ('customers', 'deals') THEN
    RAISE EXCEPTION 'app_custom_field_ids: % has no custom fields', record_table;
  END IF;
  RETURN QUERY EXECUTE format(
    'SELECT t.id FROM public.%I t WHERE t.company_id = $1 AND t.custom_fields @> $2 AND t.custom_fields <> ''{}''::jsonb LIMIT $3',
    record_table)
  USING nullif(current_setting('app.company_id', true), '')::uuid, filter, max_rows;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_custom_field_ids(text, jsonb, int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_custom_field_ids(text, jsonb, int) TO app_api;
