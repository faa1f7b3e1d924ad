-- The legal ground of a company's lines exempt from VAT that name none of their own (a CEF VATEX code, checked
-- against the list by the CLI). A line's own reason is kept in its document's items (jsonb), as its other fields.
ALTER TABLE "companies" ADD COLUMN "vat_exemption_reason" text;
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_vat_exemption_reason" CHECK ("vat_exemption_reason" ~ '^VATEX-[A-Z0-9-]+$');
