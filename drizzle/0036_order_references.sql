-- An order's invoice and quote are foreign keys that include the company (cli orders import used to store any id,
-- another company's too). References that point at no invoice or quote of the order's company are cleared first.
-- Deleting the invoice or quote leaves the order without the link: SET NULL names the column, so company_id stays.
UPDATE "orders" o SET "invoice_id" = NULL
WHERE "invoice_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "invoices" i WHERE i."company_id" = o."company_id" AND i."id" = o."invoice_id");--> statement-breakpoint
UPDATE "orders" o SET "quote_id" = NULL
WHERE "quote_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "quotes" q WHERE q."company_id" = o."company_id" AND q."id" = o."quote_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_invoice_id_invoices_company_id_id_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE SET NULL ("invoice_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_quote_id_quotes_company_id_id_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE SET NULL ("quote_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_invoice" ON "orders" USING btree ("company_id","invoice_id") WHERE "invoice_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_quote" ON "orders" USING btree ("company_id","quote_id") WHERE "quote_id" IS NOT NULL;
