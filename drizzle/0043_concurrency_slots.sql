-- Per-company concurrency limits (issue 46, point 2), in the style of Stripe's concurrent-request limiter: each
-- expensive request in flight (an upload, a PDF render, a batch) holds a lease row while it runs. Leases live in
-- PostgreSQL so that every API node counts the same slots; each has an expiry that its node renews while the request
-- runs, so the slots of a node that crashed free themselves within a minute. The column is `company`, not
-- `company_id`, on purpose: leases are transient counters like the rate-limit windows, not company data, so
-- `company export`/`import` pass them by (they look for tables with `company_id`).
ALTER TABLE "companies" ADD COLUMN "concurrency_limits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_concurrency_limits" CHECK (jsonb_typeof("concurrency_limits") = 'object');--> statement-breakpoint
CREATE TABLE "concurrency_leases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "concurrency_leases_company_kind" ON "concurrency_leases" USING btree ("company","kind");--> statement-breakpoint
-- Takes a slot of `kind` for the company when fewer than its limit (the company's own, else `default_limit`) are
-- held, in one statement: the advisory lock of (company, kind) serializes the takers, and each statement of a
-- plpgsql function reads a fresh snapshot, so the count sees every lease committed before the lock was granted.
-- Expired leases (their node is gone) are removed on the way.
CREATE FUNCTION app_take_concurrency_slot(p_company uuid, p_kind text, p_lease uuid, p_default_limit integer, p_ttl_seconds integer)
RETURNS TABLE (granted boolean, in_use integer, slot_limit integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_limit integer;
  v_used integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_company::text || ':' || p_kind, 46));
  SELECT coalesce((c.concurrency_limits ->> p_kind)::integer, p_default_limit) INTO v_limit
    FROM companies c WHERE c.id = p_company;
  v_limit := coalesce(v_limit, p_default_limit);
  DELETE FROM concurrency_leases l WHERE l.company = p_company AND l.kind = p_kind AND l.expires_at < clock_timestamp();
  SELECT count(*)::integer INTO v_used FROM concurrency_leases l WHERE l.company = p_company AND l.kind = p_kind;
  IF v_used < v_limit THEN
    INSERT INTO concurrency_leases (id, company, kind, expires_at)
      VALUES (p_lease, p_company, p_kind, clock_timestamp() + make_interval(secs => p_ttl_seconds));
    RETURN QUERY SELECT true, v_used + 1, v_limit;
  ELSE
    RETURN QUERY SELECT false, v_used, v_limit;
  END IF;
END $$;
