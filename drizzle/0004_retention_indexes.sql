CREATE INDEX "events_retention" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_attempts_retention" ON "webhook_attempts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_retention" ON "webhook_deliveries" USING btree ("created_at");