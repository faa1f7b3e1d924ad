-- Per-key rate limits an operator sets for a company (CLI `company limits`); null keeps the service's default.
-- A change reaches every API process through companies_changed (0001_tenancy.sql), like a suspension.
ALTER TABLE "companies" ADD COLUMN "rate_limit_per_minute" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "rate_limit_per_hour" integer;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_rate_limit_per_minute" CHECK ("companies"."rate_limit_per_minute" > 0);--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_rate_limit_per_hour" CHECK ("companies"."rate_limit_per_hour" > 0);