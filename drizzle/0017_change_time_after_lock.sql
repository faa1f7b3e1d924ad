-- The time a change writes (updated_at, stage_changed_at, its events' created_at) was the start of its
-- transaction. A change that waited for a row lock behind another change then wrote an earlier time than the
-- change before it: updated_at went backwards from one version to the next, and the events of the two listed
-- in the wrong order — while receivers are told to keep the version with the later updated_at.
--
-- app_now() stays the transaction's start by default (every row and event of one change share it), unless the
-- transaction took its change time after locking the row it changes: app_now_after_lock(), called right after
-- the lock, sets the transaction-local app.now to the clock at that moment. The lock's previous holder
-- committed before, so its time is never later. src/db/change-time.ts calls it.
CREATE OR REPLACE FUNCTION app_now() RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('app.now', true), '')::timestamptz, date_trunc('milliseconds', now()))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_now_after_lock() RETURNS timestamptz LANGUAGE sql VOLATILE AS $$
  SELECT set_config('app.now', date_trunc('milliseconds', clock_timestamp())::text, true)::timestamptz
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_now_after_lock() TO app_api;
