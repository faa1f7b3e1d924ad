-- A deal's reference in another system it is imported or synchronised from (POST /deals/batch matches on it).
-- Unique per company where set, compared byte by byte (collation C: "PD-1" and "pd-1" are two deals).
ALTER TABLE "deals" ADD COLUMN "external_ref" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_external_ref_length" CHECK (char_length("external_ref") between 1 and 255);--> statement-breakpoint
CREATE UNIQUE INDEX "deals_external_ref" ON "deals" USING btree ("company_id","external_ref") WHERE "external_ref" IS NOT NULL;
