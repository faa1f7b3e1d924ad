-- Sending e-invoices (issue 39, point 4): whether the invoice email carries the UBL next to the PDF. `auto` attaches
-- it for customers with a VAT number (businesses), `always` for every customer, `never` for none.
ALTER TABLE "companies" ADD COLUMN "einvoice_attachment" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_einvoice_attachment" CHECK ("einvoice_attachment" IN ('auto', 'always', 'never'));
