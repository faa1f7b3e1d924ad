CREATE TABLE "deals" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"title" text,
	"description" text,
	"status" text DEFAULT 'open' NOT NULL,
	"value" numeric(12, 2),
	"currency" text NOT NULL,
	"value_source" text DEFAULT 'quotes' NOT NULL,
	"stage_id" bigint NOT NULL,
	"customer_id" uuid NOT NULL,
	"assigned_user_id" bigint,
	"source" text NOT NULL,
	"lost_reason" text,
	"is_archived" boolean DEFAULT false NOT NULL,
	"stage_changed_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"won_at" timestamp (3) with time zone,
	"lost_at" timestamp (3) with time zone,
	"archived_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "deals_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "deals_value_range" CHECK ("deals"."value" between 0 and 99999999),
	CONSTRAINT "deals_won_at" CHECK (("deals"."status" = 'won') = ("deals"."won_at" is not null)),
	CONSTRAINT "deals_lost_at" CHECK (("deals"."status" = 'lost') = ("deals"."lost_at" is not null)),
	CONSTRAINT "deals_lost_reason" CHECK ("deals"."status" = 'lost' or "deals"."lost_reason" is null),
	CONSTRAINT "deals_archived_at" CHECK ("deals"."is_archived" = ("deals"."archived_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_company_id_stage_id_pipeline_stages_company_id_id_fk" FOREIGN KEY ("company_id","stage_id") REFERENCES "public"."pipeline_stages"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_company_id_assigned_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","assigned_user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deals_one_open_per_customer" ON "deals" USING btree ("company_id","customer_id") WHERE "deals"."status" = 'open' and not "deals"."is_archived";--> statement-breakpoint
CREATE INDEX "deals_customer" ON "deals" USING btree ("company_id","customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "deals_stage" ON "deals" USING btree ("company_id","stage_id");--> statement-breakpoint
CREATE INDEX "deals_created" ON "deals" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "deals_updated" ON "deals" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "deals_stage_changed" ON "deals" USING btree ("company_id","stage_changed_at","id");--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_company_id_deal_id_deals_company_id_id_fk" FOREIGN KEY ("company_id","deal_id") REFERENCES "public"."deals"("company_id","id") ON DELETE cascade ON UPDATE no action;