-- Timestamps are kept to the millisecond so that JavaScript dates and keyset cursors round-trip exactly.
CREATE OR REPLACE FUNCTION app_now() RETURNS timestamptz LANGUAGE sql STABLE AS $$ SELECT date_trunc('milliseconds', now()) $$;
--> statement-breakpoint
CREATE TABLE "customers" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"type" text DEFAULT 'individual' NOT NULL,
	"status" text DEFAULT 'lead' NOT NULL,
	"name" text,
	"email" text NOT NULL,
	"phone" text,
	"company_name" text,
	"vat_number" text,
	"coc_number" text,
	"address" text,
	"postal_code" text,
	"city" text,
	"country" text,
	"email_unsubscribed" boolean DEFAULT false NOT NULL,
	"converted_at" timestamp (3) with time zone,
	"last_activity_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "customers_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"parent_type" text NOT NULL,
	"customer_id" uuid,
	"deal_id" uuid,
	"content" text NOT NULL,
	"is_important" boolean DEFAULT false NOT NULL,
	"author_user_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "notes_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "pipeline_stages" (
	"company_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "pipeline_stages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name_nl" text,
	"name_en" text,
	"name_de" text,
	"name_fr" text,
	"type" text DEFAULT 'open' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"probability" numeric(5, 2) DEFAULT '0.00' NOT NULL,
	"color" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "pipeline_stages_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_boards" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "task_boards_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "task_statuses" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"board_id" uuid NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"color" text,
	"position" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	CONSTRAINT "task_statuses_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"company_id" uuid NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"scope" text NOT NULL,
	"customer_id" uuid,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "events_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"company_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"response_headers" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "idempotency_keys_company_id_key_pk" PRIMARY KEY("company_id","key")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"company_id" uuid NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" "bytea" NOT NULL,
	"scopes" text[] NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"renewed_from_id" text,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "api_keys_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"legal_name" text,
	"email" text,
	"phone" text,
	"website" text,
	"address" text,
	"postal_code" text,
	"city" text,
	"country" text DEFAULT 'NL' NOT NULL,
	"language" text DEFAULT 'nl' NOT NULL,
	"time_zone" text DEFAULT 'Europe/Amsterdam' NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"vat_number" text,
	"coc_number" text,
	"iban" text,
	"prices_include_tax" boolean DEFAULT false NOT NULL,
	"default_tax_rate" numeric(5, 2) DEFAULT '21.00' NOT NULL,
	"default_payment_term_days" integer DEFAULT 14 NOT NULL,
	"default_quote_validity_days" integer DEFAULT 30 NOT NULL,
	"features" text[] DEFAULT '{}'::text[] NOT NULL,
	"suspended_at" timestamp (3) with time zone,
	"subscription_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"company_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"email" text NOT NULL,
	"role" text,
	"is_owner" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "users_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_stages" ADD CONSTRAINT "pipeline_stages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_boards" ADD CONSTRAINT "task_boards_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_statuses" ADD CONSTRAINT "task_statuses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_statuses" ADD CONSTRAINT "task_statuses_company_id_board_id_task_boards_company_id_id_fk" FOREIGN KEY ("company_id","board_id") REFERENCES "public"."task_boards"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_renewed_from_id_api_keys_company_id_id_fk" FOREIGN KEY ("company_id","renewed_from_id") REFERENCES "public"."api_keys"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email" ON "customers" USING btree ("company_id",lower("email"));--> statement-breakpoint
CREATE INDEX "customers_created" ON "customers" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "customers_updated" ON "customers" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "notes_customer" ON "notes" USING btree ("company_id","customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notes_deal" ON "notes" USING btree ("company_id","deal_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pipeline_stages_position" ON "pipeline_stages" USING btree ("company_id","position");--> statement-breakpoint
CREATE INDEX "events_created" ON "events" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_customer" ON "events" USING btree ("company_id","customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "idempotency_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_company" ON "api_keys" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email" ON "users" USING btree ("company_id",lower("email"));