ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_company_id_companies_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_company_id_companies_id_fk";
--> statement-breakpoint
DROP INDEX "webhook_attempts_retention";--> statement-breakpoint
DROP INDEX "webhook_deliveries_retention";--> statement-breakpoint
CREATE INDEX "webhook_attempts_retention" ON "webhook_attempts" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_retention" ON "webhook_deliveries" USING brin ("created_at");