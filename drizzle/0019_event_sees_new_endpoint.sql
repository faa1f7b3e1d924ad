-- A change's event gets its fan-out job when the company has a webhook endpoint: also when the company's first
-- endpoint is being created at that moment.
--
-- recordEvent (src/events/record.ts) queues the fan-out job only when it sees an endpoint. The creation of an
-- endpoint holds the company's endpoint lock (an advisory lock, countEndpointsLocked) from before it takes its
-- time (created_at: the endpoint receives events from then on) until it commits. A change whose event was
-- recorded in between saw no endpoint (not yet committed) and queued nothing, although its event was newer than
-- the endpoint: the company's first endpoint never got it (with another endpoint present, the fan-out job exists
-- and finds the new endpoint). This function takes that lock shared, so the event waits for a creation under way,
-- and then looks with a snapshot of its own (a VOLATILE function's statements each take one), which sees the
-- endpoint once it is committed. Recording events of one company at once shares the lock: no wait among them
-- (but while a creation waits for the lock, later events wait behind it: PostgreSQL queues locks in order).
CREATE OR REPLACE FUNCTION app_has_webhook_endpoint(company uuid) RETURNS boolean
LANGUAGE plpgsql VOLATILE SET search_path = public, pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtextextended('webhook_endpoints:' || company::text, 0));
  RETURN EXISTS (SELECT 1 FROM webhook_endpoints WHERE company_id = company);
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION app_has_webhook_endpoint(uuid) TO app_api;
