-- An archived open deal is still an open deal: a customer who has one gets 409 on POST /deals (the
-- specification's States › Deal). Until now the index left archived deals out, so archiving freed the customer
-- and a customer may have an archived open deal besides another open deal. Before the index can count archived
-- deals, each such customer keeps one open deal (the one on the board, else the one archived last) and the
-- others, archived, are closed as lost in their company's first lost stage (archiving was how they were given
-- up), lost_reason empty. A migration cannot write a deal's REST shape, so no event tells of it; updated_at and
-- version change, so a client synchronising with filter[updated_since] fetches the deal again.
DO $$
DECLARE
  company uuid;
  lost_stage bigint;
BEGIN
  -- The ids first: the loop changes role, and companies is read as the owner.
  FOREACH company IN ARRAY coalesce((SELECT array_agg(id) FROM companies), '{}') LOOP
    -- Row-level security is forced on deals: work on each company's rows as the API does (withTenant).
    PERFORM set_config('app.company_id', company::text, true), set_config('role', 'app_api', true);
    IF EXISTS (
      SELECT 1 FROM deals WHERE company_id = company AND status = 'open'
      GROUP BY customer_id HAVING count(*) > 1
    ) THEN
      SELECT id INTO lost_stage FROM pipeline_stages
      WHERE company_id = company AND type = 'lost'
      ORDER BY is_active DESC, position, id LIMIT 1;
      IF lost_stage IS NULL THEN
        RAISE EXCEPTION 'company % has customers with an archived open deal besides another open deal, and no lost stage to close it in', company
          USING HINT = 'Add a pipeline stage of type lost for this company (npm run cli -- company stages), then migrate again.';
      END IF;
      UPDATE deals d
      SET status = 'lost', stage_id = lost_stage, lost_at = app_now(), won_at = NULL, lost_reason = NULL,
          stage_changed_at = app_now(), updated_at = app_now(), version = d.version + 1
      WHERE d.company_id = company AND d.status = 'open' AND d.is_archived
        AND EXISTS (
          SELECT 1 FROM deals o
          WHERE o.company_id = d.company_id AND o.customer_id = d.customer_id AND o.status = 'open' AND o.id <> d.id
            AND (NOT o.is_archived OR o.archived_at > d.archived_at OR (o.archived_at = d.archived_at AND o.id > d.id))
        );
    END IF;
    PERFORM set_config('role', 'none', true), set_config('app.company_id', '', true);
  END LOOP;
END $$;
--> statement-breakpoint
DROP INDEX "deals_one_open_per_customer";--> statement-breakpoint
CREATE UNIQUE INDEX "deals_one_open_per_customer" ON "deals" USING btree ("company_id","customer_id") WHERE "deals"."status" = 'open';
