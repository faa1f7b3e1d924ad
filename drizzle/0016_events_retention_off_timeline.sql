DROP INDEX "events_retention";--> statement-breakpoint
CREATE INDEX "events_retention" ON "events" USING btree ("created_at") WHERE "events"."customer_id" is null;