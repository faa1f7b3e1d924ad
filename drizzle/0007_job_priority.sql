-- Jobs get a priority (lower runs first): webhook deliveries run before fan-outs, so a burst of events does
-- not hold back the delivery of those already fanned out.
DROP FUNCTION IF EXISTS app_queue_job(text, json, timestamptz, text);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_queue_job(task text, payload json, run_at timestamptz DEFAULT NULL, job_key text DEFAULT NULL, priority int DEFAULT 0)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM graphile_worker.add_job(task, payload, run_at => run_at, job_key => job_key, max_attempts => 25, priority => priority);
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_queue_job(text, json, timestamptz, text, int) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_queue_job(text, json, timestamptz, text, int) TO app_api;
