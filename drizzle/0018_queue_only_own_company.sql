-- The API role queues jobs only for the company of its transaction.
--
-- The app's queueing functions run with their owner's rights (SECURITY DEFINER: Graphile Worker's tables are not
-- the API role's), and every job carries the company it is for (`companyId` in its payload): the worker then
-- runs it as that company. Row-level security confines everything else the API role does to app.company_id;
-- without this check, the queueing functions were the one way out (a job for another company's deliveries).
-- The API never lets a caller choose a payload, so this matters only to someone who runs SQL as the API role,
-- and costs nothing measurable (one pass over the payloads). Other roles (migrations, maintenance, tests as
-- the owner) are not checked.
CREATE OR REPLACE FUNCTION app_jobs_for_own_company(payloads json[])
RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  -- Inside a SECURITY DEFINER function current_user is the owner; the `role` setting is still the caller's.
  IF current_setting('role') = 'app_api' AND EXISTS (
    SELECT 1 FROM unnest(payloads) AS p(payload)
    WHERE (p.payload ->> 'companyId') IS DISTINCT FROM nullif(current_setting('app.company_id', true), '')
  ) THEN
    RAISE EXCEPTION 'a job may only be queued for the company of this transaction (app.company_id)'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_jobs_for_own_company(json[]) FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_queue_job(task text, payload json, run_at timestamptz DEFAULT NULL, job_key text DEFAULT NULL, priority int DEFAULT 0)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM public.app_jobs_for_own_company(array[payload]);
  PERFORM graphile_worker.add_job(task, payload, run_at => run_at, job_key => job_key, max_attempts => 25, priority => priority);
  PERFORM public.app_jobs_queued(1);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_queue_jobs(tasks text[], payloads json[], run_ats timestamptz[] DEFAULT NULL, job_keys text[] DEFAULT NULL, priorities int[] DEFAULT NULL)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF coalesce(cardinality(array_remove(tasks, NULL)), 0) = 0 THEN
    RETURN;
  END IF;
  PERFORM public.app_jobs_for_own_company(array(
    SELECT j.payload FROM unnest(tasks, payloads) AS j(task, payload) WHERE j.task IS NOT NULL));
  PERFORM graphile_worker.add_jobs(array(
    SELECT row(j.task, j.payload, null, j.run_at, 25, j.job_key, coalesce(j.priority, 0), null)::graphile_worker.job_spec
    FROM unnest(tasks, payloads, run_ats, job_keys, priorities) AS j(task, payload, run_at, job_key, priority)
    WHERE j.task IS NOT NULL));
  PERFORM public.app_jobs_queued(cardinality(array_remove(tasks, NULL)));
END $$;
