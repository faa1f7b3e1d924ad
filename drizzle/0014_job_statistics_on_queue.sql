-- A transaction that queues a backlog brings the job table's statistics up to date before it commits.
--
-- Graphile Worker's job fetch is planned from the job table's statistics. The table is a queue, mostly empty,
-- so autovacuum records it empty while its pages remain, and the planner then believes it holds no rows
-- whatever it holds: it joins each fetched batch back to the table by a nested loop over every queued job,
-- O(queued × batch). The worker's own check (src/jobs/queue-statistics.ts) analyzes the table once a fetch
-- comes back full, but the fetches already running then are planned wrong: in the webhooks benchmark, 5 000
-- events committed at once made the first two fetches take ~300 ms each, and the first message left ~290 ms
-- after the commit instead of ~55 ms; with ten times the backlog each such fetch would take ten times longer.
--
-- So the app's queueing functions count the jobs a transaction queues (app.jobs_queued, local to it); when the
-- count reaches a worker's fetch (JOBS_PER_FETCH below = LOCAL_QUEUE_SIZE in src/jobs/worker.ts) while the
-- statistics say the table holds fewer rows, the table is analyzed there and then. ANALYZE counts the rows its
-- own transaction inserted, and the row count it records is visible to other sessions at once, so the
-- worker's first fetch after the commit is planned for the backlog. The cost: one ANALYZE (a sample of at most
-- 30 000 rows, ~15 ms) in a transaction that queues a fetch's worth of jobs, only while the table looks
-- smaller than that; nothing for the others. SKIP_LOCKED: it never waits for another analyze or a vacuum
-- (a concurrent transaction doing the same holds the table's analyze lock until it commits).
CREATE OR REPLACE FUNCTION app_jobs_queued(queued int)
RETURNS void LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  jobs_per_fetch CONSTANT int := 240;
  before int := coalesce(nullif(current_setting('app.jobs_queued', true), ''), '0')::int;
BEGIN
  PERFORM set_config('app.jobs_queued', (before + queued)::text, true);
  IF before < jobs_per_fetch AND before + queued >= jobs_per_fetch
    AND (SELECT reltuples FROM pg_class WHERE oid = 'graphile_worker._private_jobs'::regclass) < jobs_per_fetch THEN
    ANALYZE (SKIP_LOCKED) graphile_worker._private_jobs;
  END IF;
END $$;
--> statement-breakpoint
-- Called only by the queueing functions below, with their owner's rights (the owner of Graphile Worker's
-- tables, which ANALYZE needs).
REVOKE ALL ON FUNCTION app_jobs_queued(int) FROM PUBLIC;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_queue_job(task text, payload json, run_at timestamptz DEFAULT NULL, job_key text DEFAULT NULL, priority int DEFAULT 0)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
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
  PERFORM graphile_worker.add_jobs(array(
    SELECT row(j.task, j.payload, null, j.run_at, 25, j.job_key, coalesce(j.priority, 0), null)::graphile_worker.job_spec
    FROM unnest(tasks, payloads, run_ats, job_keys, priorities) AS j(task, payload, run_at, job_key, priority)
    WHERE j.task IS NOT NULL));
  PERFORM public.app_jobs_queued(cardinality(array_remove(tasks, NULL)));
END $$;
