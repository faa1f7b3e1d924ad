-- Postpones a delivery job (the worker's admission per endpoint, src/webhooks/deliver-job.ts): its payload is
-- queued again to run at run_at, and the running job then completes. A keyed job (a delivery's scheduled
-- retry or recovery) is queued again under its key only if no other job holds that key by now: a recovery
-- queued while the job ran holds it and already covers the delivery, and must not be replaced by the retry.
-- Answers whether the job was queued again.
CREATE OR REPLACE FUNCTION app_postpone_job(running_job_id bigint, task text, payload json, run_at timestamptz, job_key text DEFAULT NULL)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF job_key IS NOT NULL AND EXISTS (
    SELECT 1 FROM graphile_worker._private_jobs j WHERE j.key = job_key AND j.id <> running_job_id
  ) THEN
    RETURN false;
  END IF;
  PERFORM graphile_worker.add_job(task, payload, run_at => run_at, job_key => job_key, max_attempts => 25);
  RETURN true;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_postpone_job(bigint, text, json, timestamptz, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_postpone_job(bigint, text, json, timestamptz, text) TO app_api;
