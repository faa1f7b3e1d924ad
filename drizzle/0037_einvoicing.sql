-- E-invoicing (issue 39): the company's BIC and Peppol id, the customer's Peppol id. A Peppol id is
-- "scheme:identifier", the scheme a four-digit EAS code (0106:24123456 for a Dutch KvK number).
ALTER TABLE "companies" ADD COLUMN "bic" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "peppol_id" text;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_peppol_id" CHECK ("peppol_id" ~ '^[0-9]{4}:[^[:space:]:]{1,125}$');--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "peppol_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_peppol_id" CHECK ("peppol_id" ~ '^[0-9]{4}:[^[:space:]:]{1,125}$');
