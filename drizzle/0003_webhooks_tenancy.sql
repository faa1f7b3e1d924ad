-- Tenancy of the webhook tables (see 0001_tenancy.sql), their 30-day retention, and the one way the API
-- role may queue background jobs.
SELECT app_enable_tenancy(t) FROM unnest(ARRAY[
  'webhook_endpoints', 'webhook_deliveries', 'webhook_attempts', 'outbound_emails'
]::regclass[]) AS t;
--> statement-breakpoint
CREATE POLICY retention ON webhook_deliveries FOR SELECT TO app_maintenance USING (true);
--> statement-breakpoint
CREATE POLICY retention_delete ON webhook_deliveries FOR DELETE TO app_maintenance USING (true);
--> statement-breakpoint
CREATE POLICY retention ON webhook_attempts FOR SELECT TO app_maintenance USING (true);
--> statement-breakpoint
CREATE POLICY retention_delete ON webhook_attempts FOR DELETE TO app_maintenance USING (true);
--> statement-breakpoint
GRANT SELECT, DELETE ON webhook_deliveries, webhook_attempts TO app_maintenance;
--> statement-breakpoint
-- Jobs are queued in the caller's transaction (an event and its fan-out job commit together). The API role
-- gets no rights on Graphile Worker's tables; it may only call this function, which runs with the rights of
-- the migrating owner. Graphile Worker's own schema is installed right after these migrations.
CREATE OR REPLACE FUNCTION app_queue_job(task text, payload json, run_at timestamptz DEFAULT NULL, job_key text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM graphile_worker.add_job(task, payload, run_at => run_at, job_key => job_key, max_attempts => 25);
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_queue_job(text, json, timestamptz, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_queue_job(text, json, timestamptz, text) TO app_api;
