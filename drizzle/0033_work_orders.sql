CREATE TABLE "work_order_photos" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"work_order_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"caption" text,
	"position" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "work_order_photos_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"title" text,
	"type" text,
	"location" text,
	"description" text,
	"work_performed" text,
	"customer_notes" text,
	"customer_id" uuid NOT NULL,
	"customer" jsonb NOT NULL,
	"deal_id" uuid,
	"appointment_id" uuid,
	"quote_id" uuid,
	"invoice_id" uuid,
	"assigned_user_id" bigint,
	"language" text NOT NULL,
	"currency" text NOT NULL,
	"subtotal" numeric(18, 2) NOT NULL,
	"tax_amount" numeric(18, 2) NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"items" jsonb NOT NULL,
	"checklist" jsonb NOT NULL,
	"scheduled_at" timestamp (3) with time zone,
	"started_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"signed_by_name" text,
	"signed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "work_orders_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "work_orders_signature" CHECK (("work_orders"."signed_by_name" is null) = ("work_orders"."signed_at" is null))
);
--> statement-breakpoint
ALTER TABLE "work_order_photos" ADD CONSTRAINT "work_order_photos_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_photos" ADD CONSTRAINT "work_order_photos_company_id_work_order_id_work_orders_company_id_id_fk" FOREIGN KEY ("company_id","work_order_id") REFERENCES "public"."work_orders"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_order_photos" ADD CONSTRAINT "work_order_photos_company_id_file_id_files_company_id_id_fk" FOREIGN KEY ("company_id","file_id") REFERENCES "public"."files"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_deal_id_deals_company_id_id_fk" FOREIGN KEY ("company_id","deal_id") REFERENCES "public"."deals"("company_id","id") ON DELETE SET NULL ("deal_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_quote_id_quotes_company_id_id_fk" FOREIGN KEY ("company_id","quote_id") REFERENCES "public"."quotes"("company_id","id") ON DELETE SET NULL ("quote_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_invoice_id_invoices_company_id_id_fk" FOREIGN KEY ("company_id","invoice_id") REFERENCES "public"."invoices"("company_id","id") ON DELETE SET NULL ("invoice_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_appointment_id_appointments_company_id_id_fk" FOREIGN KEY ("company_id","appointment_id") REFERENCES "public"."appointments"("company_id","id") ON DELETE SET NULL ("appointment_id") ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_orders" ADD CONSTRAINT "work_orders_company_id_assigned_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","assigned_user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "work_order_photos_position" ON "work_order_photos" USING btree ("company_id","work_order_id","position");--> statement-breakpoint
CREATE INDEX "work_order_photos_list" ON "work_order_photos" USING btree ("company_id","work_order_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "work_orders_number" ON "work_orders" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "work_orders_created" ON "work_orders" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "work_orders_updated" ON "work_orders" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "work_orders_customer" ON "work_orders" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "work_orders_appointment" ON "work_orders" USING btree ("company_id","appointment_id");--> statement-breakpoint
CREATE INDEX "work_orders_assigned_user" ON "work_orders" USING btree ("company_id","assigned_user_id");--> statement-breakpoint
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['work_orders', 'work_order_photos']::regclass[]) AS t;
