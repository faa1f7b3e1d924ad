-- Sales documents (issue 26): quotes and invoices with their lines and customer copy as JSON on the row,
-- invoice payments, and the per-company, per-year counters that give documents consecutive numbers.
CREATE TABLE "document_counters" (
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "document_counters_company_id_kind_year_pk" PRIMARY KEY("company_id","kind","year")
);
--> statement-breakpoint
CREATE TABLE "invoice_payments" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"payment_method" text NOT NULL,
	"description" text,
	"paid_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "invoice_payments_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "invoice_payments_amount" CHECK ("invoice_payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"number" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"customer_id" uuid NOT NULL,
	"customer" jsonb NOT NULL,
	"deal_id" uuid,
	"language" text NOT NULL,
	"currency" text NOT NULL,
	"outro_text" text,
	"terms_conditions" text,
	"notes" text,
	"hide_line_amounts" boolean DEFAULT false NOT NULL,
	"discount_percentage" numeric(5, 2) DEFAULT '0.00' NOT NULL,
	"discount_amount" numeric(18, 2) DEFAULT '0.00' NOT NULL,
	"discount_description" text,
	"subtotal" numeric(18, 2) NOT NULL,
	"tax_amount" numeric(18, 2) NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"items" jsonb NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"viewed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"quote_id" uuid,
	"invoice_date" date NOT NULL,
	"due_date" date NOT NULL,
	"payment_term_days" integer NOT NULL,
	"is_term_invoice" boolean DEFAULT false NOT NULL,
	"term_percentage" numeric(5, 2),
	"amount_paid" numeric(18, 2) DEFAULT '0.00' NOT NULL,
	"paid_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	CONSTRAINT "invoices_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "invoices_due_date" CHECK ("invoices"."due_date" >= "invoices"."invoice_date"),
	CONSTRAINT "invoices_term_percentage" CHECK ("invoices"."is_term_invoice" = ("invoices"."term_percentage" is not null))
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"number" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"customer_id" uuid NOT NULL,
	"customer" jsonb NOT NULL,
	"deal_id" uuid,
	"language" text NOT NULL,
	"currency" text NOT NULL,
	"outro_text" text,
	"terms_conditions" text,
	"notes" text,
	"hide_line_amounts" boolean DEFAULT false NOT NULL,
	"discount_percentage" numeric(5, 2) DEFAULT '0.00' NOT NULL,
	"discount_amount" numeric(18, 2) DEFAULT '0.00' NOT NULL,
	"discount_description" text,
	"subtotal" numeric(18, 2) NOT NULL,
	"tax_amount" numeric(18, 2) NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"items" jsonb NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"viewed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"pipeline_stage_id" bigint,
	"quote_date" date NOT NULL,
	"valid_until" date NOT NULL,
	"intro_text" text,
	"accepted_at" timestamp (3) with time zone,
	"rejected_at" timestamp (3) with time zone,
	"invoice_id" uuid,
	CONSTRAINT "quotes_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "quotes_valid_until" CHECK ("quotes"."valid_until" >= "quotes"."quote_date")
);
--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_company_id_invoice_id_invoices_company_id_id_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_deal_id_deals_company_id_id_fk" FOREIGN KEY ("company_id","deal_id") REFERENCES "public"."deals"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_company_id_quote_id_quotes_company_id_id_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_id_deal_id_deals_company_id_id_fk" FOREIGN KEY ("company_id","deal_id") REFERENCES "public"."deals"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_company_id_pipeline_stage_id_pipeline_stages_company_id_id_fk" FOREIGN KEY ("company_id","pipeline_stage_id") REFERENCES "public"."pipeline_stages"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice" ON "invoice_payments" USING btree ("company_id","invoice_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number" ON "invoices" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "invoices_created" ON "invoices" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "invoices_updated" ON "invoices" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "invoices_customer" ON "invoices" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "invoices_quote" ON "invoices" USING btree ("company_id","quote_id");--> statement-breakpoint
CREATE INDEX "invoices_open_due" ON "invoices" USING btree ("company_id","due_date") WHERE "invoices"."status" in ('sent', 'viewed', 'partial');--> statement-breakpoint
CREATE UNIQUE INDEX "quotes_number" ON "quotes" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "quotes_created" ON "quotes" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "quotes_updated" ON "quotes" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "quotes_customer" ON "quotes" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "quotes_deal" ON "quotes" USING btree ("company_id","deal_id");--> statement-breakpoint
CREATE INDEX "quotes_open_valid_until" ON "quotes" USING btree ("company_id","valid_until") WHERE "quotes"."status" in ('sent', 'viewed');--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql).
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['document_counters', 'quotes', 'invoices', 'invoice_payments']::regclass[]) AS t;
