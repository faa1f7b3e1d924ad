-- `q` finds a customer only when one of its name, email, company name or phone contains the term (any case),
-- or its phone contains the term's digits (src/resources/customers/queries.ts); before, pg_trgm's word
-- similarity (≥ 0.5) also returned customers that only resembled the term ("414" found "413 9025").
--
-- search_text: the four fields lowercased, one line each, so that a term (without a line break) never matches
-- across two fields. Lowercased with ICU's root locale (und-x-icu, which needs a server built with ICU, as the
-- usual packages and images are): the database's own locale may be C, whose lower() leaves É and Ü as they
-- are; the API lowercases the term with JavaScript's toLowerCase, the same Unicode default mapping.
-- phone_digits: the phone without spaces and punctuation, for a term that is a phone number.
-- Both stored, so neither a scan nor the index recheck lowercases or strips a row again. Adding them rewrites
-- customers under an ACCESS EXCLUSIVE lock: reads and writes of customers wait meanwhile (about 10 s per 200 000
-- rows here), and so does the index built after it; plan the upgrade for a quiet moment.
-- The old index goes first: the rewrite would otherwise build it again.
DROP INDEX IF EXISTS customers_search;
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(((coalesce(name, '') || E'\n' || email || E'\n' || coalesce(company_name, '') || E'\n' || coalesce(phone, '')) COLLATE "und-x-icu"))) STORED NOT NULL,
  ADD COLUMN "phone_digits" text GENERATED ALWAYS AS (regexp_replace(coalesce(phone, ''), '[^0-9]+', '', 'g')) STORED NOT NULL;
--> statement-breakpoint
-- The trigram index of both, by company (btree_gin, migration 0010): LIKE '%term%' looks up the term's
-- trigrams (a term needs three letters or digits in a row for that; shorter ones are answered by the scan).
CREATE INDEX customers_search ON customers
  USING gin (company_id, search_text gin_trgm_ops, phone_digits gin_trgm_ops)
  WITH (fastupdate = off);
--> statement-breakpoint
-- app_search_customers proposes candidates, as in 0010 (why, and why it is safe, is written there): the ids (at
-- most max_rows) of the current tenant's customers whose search_text is LIKE pattern or whose phone_digits is
-- LIKE digits_pattern (null: the term is no phone number). The caller still reads the rows under the policy.
DROP FUNCTION app_search_customers(text, text, int);
--> statement-breakpoint
CREATE FUNCTION app_search_customers(pattern text, digits_pattern text, max_rows int)
RETURNS SETOF uuid LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public, pg_temp
SET enable_seqscan = off
AS $$
  SELECT c.id FROM public.customers c
  WHERE c.company_id = nullif(current_setting('app.company_id', true), '')::uuid
    AND (c.search_text LIKE pattern OR c.phone_digits LIKE digits_pattern)
  LIMIT max_rows
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_search_customers(text, text, int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_search_customers(text, text, int) TO app_api;
--> statement-breakpoint
DROP FUNCTION customer_search_text(text, text, text, text);
