-- Issue 51: `q` on customers also finds the values of the company's text-like custom fields (src/resources/customers/
-- queries.ts). Which keys are text-like is in the definitions, which an index expression cannot read; so the index
-- holds every string the values hold (text, long text, email, URL, phone, but also money, dates and select keys),
-- lowercased one line each, and proposes candidates that the API checks again per field (a date never matches).
--
-- app_custom_field_text: a record's string values (and the strings in its arrays: multi-selects), lowercased with
-- ICU's root locale as search_text is (0023), one line each. Immutable: it reads nothing but its argument.
CREATE FUNCTION app_custom_field_text(field_values jsonb)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
  SELECT coalesce(string_agg(lower((v #>> '{}') COLLATE "und-x-icu"), E'\n'), '')
  FROM jsonb_path_query(field_values, 'lax $.*[*] ? (@.type() == "string")') v
$$;
--> statement-breakpoint
-- The trigram index of that text by company, partial as customers_custom_fields (0047): a customer without values
-- costs its writes nothing here. No pending list (see 0010). An expression index: customers is not rewritten.
CREATE INDEX customers_custom_field_search ON customers
  USING gin (company_id, app_custom_field_text(custom_fields) gin_trgm_ops)
  WITH (fastupdate = off) WHERE custom_fields <> '{}'::jsonb;
--> statement-breakpoint
-- app_search_customer_fields proposes candidates as app_search_customers does (why, and why it is safe: 0010, 0023):
-- the ids (at most max_rows) of the current tenant's customers whose custom-field text is LIKE one of patterns.
-- The caller reads the rows under the policy and checks the term against each text-like field's value.
CREATE FUNCTION app_search_customer_fields(patterns text[], max_rows int)
RETURNS SETOF uuid LANGUAGE plpgsql STABLE SECURITY DEFINER ROWS 10
SET search_path = pg_catalog, public, pg_temp
SET enable_seqscan = off
AS $$
BEGIN
  -- Planned with the patterns' values (EXECUTE), which the planner needs to weigh the trigram index.
  RETURN QUERY EXECUTE
    'SELECT c.id FROM public.customers c
     WHERE c.company_id = $1 AND c.custom_fields <> ''{}''::jsonb
       AND public.app_custom_field_text(c.custom_fields) LIKE ANY ($2)
     LIMIT $3'
  USING nullif(current_setting('app.company_id', true), '')::uuid, patterns, max_rows;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_search_customer_fields(text[], int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_search_customer_fields(text[], int) TO app_api;
