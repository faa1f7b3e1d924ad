-- Tenancy: the API runs every transaction as the non-owner role app_api with app.company_id set
-- (see src/db/tenant.ts). Row-level security is forced on every tenant table, so a query that forgets
-- its company filter still sees only its own company's rows, and a row can never be written into another
-- company. app_maintenance may only read and delete expired rows across companies (retention jobs).
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'app_api') THEN
    CREATE ROLE app_api NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'app_maintenance') THEN
    CREATE ROLE app_maintenance NOLOGIN;
  END IF;
END $$;
--> statement-breakpoint
DO $$ BEGIN EXECUTE format('GRANT app_api, app_maintenance TO %I', current_user); END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO app_api, app_maintenance;
--> statement-breakpoint
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO app_api;
--> statement-breakpoint
-- The tenant of the current transaction; fails (no tenant) rather than matching nothing when unset.
CREATE OR REPLACE FUNCTION app_company_id() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('app.company_id', true), '')::uuid
$$;
--> statement-breakpoint
-- Makes a table a tenant table: forced row-level security with the company policy, and the grants.
CREATE OR REPLACE FUNCTION app_enable_tenancy(tbl regclass, key_column text DEFAULT 'company_id') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %s', tbl);
  EXECUTE format(
    'CREATE POLICY tenant_isolation ON %s TO app_api USING (%I = app_company_id()) WITH CHECK (%I = app_company_id())',
    tbl, key_column, key_column);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %s TO app_api', tbl);
END $$;
--> statement-breakpoint
SELECT app_enable_tenancy(t) FROM unnest(ARRAY[
  'users', 'customers', 'notes', 'pipeline_stages', 'task_boards', 'task_statuses', 'events', 'idempotency_keys'
]::regclass[]) AS t;
--> statement-breakpoint
-- companies and api_keys are read by authentication before a tenant is known, with the owner's own rights;
-- row-level security is enabled (not forced) so the API role sees only its own company and keys.
SELECT app_enable_tenancy('api_keys');
--> statement-breakpoint
ALTER TABLE api_keys NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
SELECT app_enable_tenancy('companies', 'id');
--> statement-breakpoint
ALTER TABLE companies NO FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
REVOKE INSERT, DELETE ON companies FROM app_api;
--> statement-breakpoint
CREATE POLICY retention ON events FOR SELECT TO app_maintenance USING (true);
--> statement-breakpoint
CREATE POLICY retention_delete ON events FOR DELETE TO app_maintenance USING (true);
--> statement-breakpoint
CREATE POLICY retention ON idempotency_keys FOR SELECT TO app_maintenance USING (true);
--> statement-breakpoint
CREATE POLICY retention_delete ON idempotency_keys FOR DELETE TO app_maintenance USING (true);
--> statement-breakpoint
GRANT SELECT, DELETE ON events, idempotency_keys TO app_maintenance;
--> statement-breakpoint
-- Search over name, email, company name and phone (`q`): trigram index for substrings and typos.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_search_text(name text, email text, company_name text, phone text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce(name, '') || ' ' || email || ' ' || coalesce(company_name, '') || ' ' || coalesce(phone, ''))
$$;
--> statement-breakpoint
CREATE INDEX customers_search ON customers USING gin (customer_search_text(name, email, company_name, phone) gin_trgm_ops);
--> statement-breakpoint
-- Revoking or changing a key must reach the key caches of every API process at once.
CREATE OR REPLACE FUNCTION api_keys_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_keys_changed', encode(coalesce(NEW.key_hash, OLD.key_hash), 'hex'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_keys_notify AFTER UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION api_keys_notify();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION companies_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('companies_changed', NEW.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_notify AFTER UPDATE ON companies FOR EACH ROW EXECUTE FUNCTION companies_notify();
