-- Webshop orders (lines, notes), reviews, review requests and the addresses that opted out of review requests:
-- tenant tables of issue 28, each under row-level security like every other.
CREATE TABLE "order_items" (
	"company_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"quantity" numeric(12, 2) NOT NULL,
	"unit" text,
	"unit_price" numeric(12, 2) NOT NULL,
	"discount_percentage" numeric(5, 2) NOT NULL,
	"discount_amount" numeric(12, 2) NOT NULL,
	"line_total" numeric(12, 2) NOT NULL,
	"is_taxable" boolean NOT NULL,
	"tax_rate" numeric(5, 2) NOT NULL,
	CONSTRAINT "order_items_company_id_order_id_position_pk" PRIMARY KEY("company_id","order_id","position")
);
--> statement-breakpoint
CREATE TABLE "order_notes" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"type" text NOT NULL,
	"content" text NOT NULL,
	"is_internal" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "order_notes_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"number" text NOT NULL,
	"status" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"buyer_name" text,
	"buyer_email" text NOT NULL,
	"buyer_phone" text,
	"buyer_company_name" text,
	"buyer_vat_number" text,
	"billing_address" jsonb NOT NULL,
	"shipping_address" jsonb NOT NULL,
	"form_title" text,
	"language" text NOT NULL,
	"currency" text NOT NULL,
	"subtotal" numeric(12, 2) NOT NULL,
	"discount_amount" numeric(12, 2) NOT NULL,
	"shipping_cost" numeric(12, 2) NOT NULL,
	"tax_amount" numeric(12, 2) NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"payment_method" text,
	"tracking_code" text,
	"tracking_url" text,
	"invoice_id" uuid,
	"quote_id" uuid,
	"paid_at" timestamp (3) with time zone,
	"shipped_at" timestamp (3) with time zone,
	"delivered_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"refunded_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "orders_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "review_opt_outs" (
	"company_id" uuid NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "review_opt_outs_company_id_address_pk" PRIMARY KEY("company_id","address")
);
--> statement-breakpoint
CREATE TABLE "review_requests" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"status" text NOT NULL,
	"channel" text NOT NULL,
	"trigger" text NOT NULL,
	"customer_id" uuid,
	"recipient_name" text,
	"recipient_email" text,
	"recipient_phone" text,
	"language" text NOT NULL,
	"token" text NOT NULL,
	"review_id" uuid,
	"scheduled_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"opened_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "review_requests_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"status" text DEFAULT 'published' NOT NULL,
	"hidden_reason" text,
	"source" text NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"author_name" text NOT NULL,
	"author_city" text,
	"customer_id" uuid,
	"language" text,
	"is_verified" boolean DEFAULT false NOT NULL,
	"consent_publish" boolean DEFAULT false NOT NULL,
	"reply" text,
	"replied_at" timestamp (3) with time zone,
	"reviewed_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "reviews_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "reviews_rating" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_hidden_reason" CHECK (("reviews"."status" = 'hidden') = ("reviews"."hidden_reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_company_id_order_id_orders_company_id_id_fk" FOREIGN KEY ("company_id","order_id") REFERENCES "public"."orders"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_notes" ADD CONSTRAINT "order_notes_company_id_order_id_orders_company_id_id_fk" FOREIGN KEY ("company_id","order_id") REFERENCES "public"."orders"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_opt_outs" ADD CONSTRAINT "review_opt_outs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_company_id_review_id_reviews_company_id_id_fk" FOREIGN KEY ("company_id","review_id") REFERENCES "public"."reviews"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_notes_order" ON "order_notes" USING btree ("company_id","order_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number" ON "orders" USING btree ("company_id","number");--> statement-breakpoint
CREATE INDEX "orders_created" ON "orders" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "orders_updated" ON "orders" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "orders_customer" ON "orders" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_requests_token" ON "review_requests" USING btree ("company_id","token");--> statement-breakpoint
CREATE INDEX "review_requests_created" ON "review_requests" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "review_requests_updated" ON "review_requests" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "review_requests_customer" ON "review_requests" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "review_requests_email" ON "review_requests" USING btree ("company_id","recipient_email");--> statement-breakpoint
CREATE INDEX "reviews_reviewed" ON "reviews" USING btree ("company_id","reviewed_at","id");--> statement-breakpoint
CREATE INDEX "reviews_created" ON "reviews" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reviews_updated" ON "reviews" USING btree ("company_id","updated_at","id");
--> statement-breakpoint
SELECT app_enable_tenancy('orders');
--> statement-breakpoint
SELECT app_enable_tenancy('order_items');
--> statement-breakpoint
SELECT app_enable_tenancy('order_notes');
--> statement-breakpoint
SELECT app_enable_tenancy('reviews');
--> statement-breakpoint
SELECT app_enable_tenancy('review_requests');
--> statement-breakpoint
SELECT app_enable_tenancy('review_opt_outs');
