-- The jobs of a worker process that died (killed, out of memory, its machine gone) stay locked until Graphile
-- Worker's lock timeout, 4 hours: their webhooks would be that late. Each worker process holds a session-level
-- advisory lock (class 7321, key hashtext(its pool id)) on a connection of its own for as long as it lives;
-- PostgreSQL releases it when that connection ends. This function, run by the other workers now and then,
-- finds pools holding job locks older than min_age whose advisory lock is free — dead — and unlocks their
-- jobs (graphile_worker.force_unlock_workers), which then run again. Run it on a connection that does not hold
-- a liveness lock itself (an advisory lock is re-entrant: its own pool would look dead). Answers the pools.
CREATE OR REPLACE FUNCTION app_unlock_dead_workers(min_age interval)
RETURNS text[] LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  pool text;
  dead text[] := '{}';
BEGIN
  FOR pool IN
    SELECT DISTINCT locked_by FROM graphile_worker._private_jobs
    WHERE locked_by IS NOT NULL AND locked_at < now() - min_age
  LOOP
    IF pg_try_advisory_lock(7321, hashtext(pool)) THEN
      PERFORM pg_advisory_unlock(7321, hashtext(pool));
      dead := dead || pool;
    END IF;
  END LOOP;
  IF cardinality(dead) > 0 THEN
    PERFORM graphile_worker.force_unlock_workers(dead);
  END IF;
  RETURN dead;
END $$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION app_unlock_dead_workers(interval) FROM PUBLIC;
