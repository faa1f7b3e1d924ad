DROP INDEX "customers_email";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "email_lower" text GENERATED ALWAYS AS (lower(email)) STORED NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email" ON "customers" USING btree ("company_id","email_lower");