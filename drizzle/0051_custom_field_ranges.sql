-- Issue 51: `filter[custom_fields.<key>][gte|lte]` that few records reach. The GIN index of the values (0047) answers
-- equality, not order, so a rare range read every record of the company. custom_field_values holds each record's
-- numeric and date values in order, one row per (record, key), kept by triggers in the writing transaction; the
-- filter asks it for candidate ids and checks the value on the record again (src/resources/custom-fields/filter.ts).
-- It is derived data: company archives leave it out and the triggers rebuild it on import.
CREATE TABLE "custom_field_values" (
	"company_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"record_id" uuid NOT NULL,
	"key" text NOT NULL,
	"num" numeric,
	"day" date,
	CONSTRAINT "custom_field_values_pk" PRIMARY KEY("company_id","resource","record_id","key"),
	CONSTRAINT "custom_field_values_resource" CHECK ("resource" in ('customers', 'deals')),
	CONSTRAINT "custom_field_values_value" CHECK ("num" is not null or "day" is not null)
);
--> statement-breakpoint
ALTER TABLE "custom_field_values" ADD CONSTRAINT "custom_field_values_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- Partial: a key holds numbers or dates, so each index carries only its own kind of row.
CREATE INDEX "custom_field_values_num" ON "custom_field_values" USING btree ("company_id","resource","key","num")
  WHERE "num" is not null;
--> statement-breakpoint
CREATE INDEX "custom_field_values_day" ON "custom_field_values" USING btree ("company_id","resource","key","day")
  WHERE "day" is not null;
--> statement-breakpoint
SELECT app_enable_tenancy('custom_field_values');
--> statement-breakpoint
-- An ISO date string (YYYY-MM-DD) as a date, null when it is none (2026-02-30): checked by hand, as PostgreSQL 15 has
-- no pg_input_is_valid and catching the cast's error would open a subtransaction per value. One CASE (its branches
-- are tried in order, so no cast meets a non-digit) and no SET clause, so the planner inlines it into its caller.
CREATE FUNCTION app_iso_date(value text)
RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE
    WHEN value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN NULL
    WHEN substr(value, 1, 4)::int < 1 OR substr(value, 6, 2)::int NOT BETWEEN 1 AND 12 THEN NULL
    WHEN substr(value, 9, 2)::int NOT BETWEEN 1 AND extract(day FROM make_date(substr(value, 1, 4)::int,
           substr(value, 6, 2)::int, 1) + interval '1 month' - interval '1 day')::int THEN NULL
    ELSE make_date(substr(value, 1, 4)::int, substr(value, 6, 2)::int, substr(value, 9, 2)::int)
  END
$$;
--> statement-breakpoint
-- The ordered rows of one record's values: a JSON number or a numeric string (money is stored as a string) as num,
-- an ISO date string that is a real date as day; other values (text, booleans, selects, lists) have no row. It needs
-- no field definitions: a text field holding "12" gets a row too, which no range filter of that key ever asks for.
-- No SET clause, so that it is inlined: a SQL function that is not is planned again at each trigger call (0.3 ms).
CREATE FUNCTION app_custom_field_ordered(field_values jsonb)
RETURNS TABLE (key text, num numeric, day date) LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT v.key, v.num, v.day FROM (
    SELECT e.key,
           CASE WHEN pg_catalog.jsonb_typeof(e.value) = 'number' THEN (e.value)::numeric
                WHEN pg_catalog.jsonb_typeof(e.value) = 'string'
                     AND e.value #>> '{}' ~ '^-?[0-9]{1,60}(\.[0-9]{1,60})?$'
                  THEN (e.value #>> '{}')::numeric END AS num,
           CASE WHEN pg_catalog.jsonb_typeof(e.value) = 'string' THEN public.app_iso_date(e.value #>> '{}') END AS day
    FROM pg_catalog.jsonb_each(field_values) e
  ) v
  WHERE v.num IS NOT NULL OR v.day IS NOT NULL
$$;
--> statement-breakpoint
-- A record's rows are rewritten when its values change (insert, update of custom_fields, delete). The triggers' WHEN
-- clauses keep every other write free of it: a record without values, or an update that leaves them alone, never
-- calls the function. It runs as the writer (row-level security applies as to the record itself). Its statements are
-- planned at each call: a plan cached while the table was small (one statement writing values into a whole company)
-- read the table whole for every later record, quadratic in the rows written.
CREATE FUNCTION app_custom_field_values_sync() RETURNS trigger LANGUAGE plpgsql
SET search_path = pg_catalog, public, pg_temp
SET plan_cache_mode = force_custom_plan
AS $$
DECLARE
  -- A text variable: TG_TABLE_NAME is a name, whose collation "C" would keep the comparison out of the primary key.
  record_table text := TG_TABLE_NAME;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.custom_fields <> '{}'::jsonb THEN
    DELETE FROM custom_field_values
    WHERE company_id = OLD.company_id AND resource = record_table AND record_id = OLD.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO custom_field_values (company_id, resource, record_id, key, num, day)
    SELECT NEW.company_id, record_table, NEW.id, o.key, o.num, o.day FROM app_custom_field_ordered(NEW.custom_fields) o;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customers_custom_field_values_insert AFTER INSERT ON customers FOR EACH ROW
  WHEN (NEW.custom_fields <> '{}'::jsonb) EXECUTE FUNCTION app_custom_field_values_sync();
--> statement-breakpoint
CREATE TRIGGER customers_custom_field_values_update AFTER UPDATE OF custom_fields ON customers FOR EACH ROW
  WHEN (OLD.custom_fields IS DISTINCT FROM NEW.custom_fields) EXECUTE FUNCTION app_custom_field_values_sync();
--> statement-breakpoint
CREATE TRIGGER customers_custom_field_values_delete AFTER DELETE ON customers FOR EACH ROW
  WHEN (OLD.custom_fields <> '{}'::jsonb) EXECUTE FUNCTION app_custom_field_values_sync();
--> statement-breakpoint
CREATE TRIGGER deals_custom_field_values_insert AFTER INSERT ON deals FOR EACH ROW
  WHEN (NEW.custom_fields <> '{}'::jsonb) EXECUTE FUNCTION app_custom_field_values_sync();
--> statement-breakpoint
CREATE TRIGGER deals_custom_field_values_update AFTER UPDATE OF custom_fields ON deals FOR EACH ROW
  WHEN (OLD.custom_fields IS DISTINCT FROM NEW.custom_fields) EXECUTE FUNCTION app_custom_field_values_sync();
--> statement-breakpoint
CREATE TRIGGER deals_custom_field_values_delete AFTER DELETE ON deals FOR EACH ROW
  WHEN (OLD.custom_fields <> '{}'::jsonb) EXECUTE FUNCTION app_custom_field_values_sync();
--> statement-breakpoint
-- The values written before this migration.
INSERT INTO custom_field_values (company_id, resource, record_id, key, num, day)
SELECT c.company_id, 'customers', c.id, o.key, o.num, o.day
FROM customers c, app_custom_field_ordered(c.custom_fields) o WHERE c.custom_fields <> '{}'::jsonb;
--> statement-breakpoint
INSERT INTO custom_field_values (company_id, resource, record_id, key, num, day)
SELECT d.company_id, 'deals', d.id, o.key, o.num, o.day
FROM deals d, app_custom_field_ordered(d.custom_fields) o WHERE d.custom_fields <> '{}'::jsonb;
--> statement-breakpoint
-- Numeric comparisons are not leakproof, so below the row-level policy the btree would serve only the key and the
-- range would be checked row by row. As app_custom_field_ids does for exact values (0047), this function proposes the
-- current tenant's candidates through the index (at most max_rows ids of `resource` records whose `key` lies within
-- the bounds; a missing bound is open) and the caller reads them under the policy with the range checked again.
CREATE FUNCTION app_custom_field_range_ids(resource text, field_key text, num_from numeric, num_to numeric,
                                           day_from date, day_to date, max_rows int)
RETURNS SETOF uuid LANGUAGE plpgsql STABLE SECURITY DEFINER ROWS 10
SET search_path = pg_catalog, public, pg_temp
SET enable_seqscan = off
AS $$
DECLARE
  company uuid := nullif(current_setting('app.company_id', true), '')::uuid;
BEGIN
  IF num_from IS NOT NULL OR num_to IS NOT NULL THEN
    RETURN QUERY SELECT v.record_id FROM public.custom_field_values v
      WHERE v.company_id = company AND v.resource = app_custom_field_range_ids.resource AND v.key = field_key
        AND v.num BETWEEN coalesce(num_from, '-Infinity') AND coalesce(num_to, 'Infinity')
      LIMIT max_rows;
  ELSE
    RETURN QUERY SELECT v.record_id FROM public.custom_field_values v
      WHERE v.company_id = company AND v.resource = app_custom_field_range_ids.resource AND v.key = field_key
        AND v.day BETWEEN coalesce(day_from, '-infinity') AND coalesce(day_to, 'infinity')
      LIMIT max_rows;
  END IF;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_custom_field_range_ids(text, text, numeric, numeric, date, date, int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_custom_field_range_ids(text, text, numeric, numeric, date, date, int) TO app_api;
