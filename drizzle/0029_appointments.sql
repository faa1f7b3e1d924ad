-- Appointments (issue 27): appointments, their types, and the appointment settings and working hours that free
-- slots are computed from (set up in the web application, read by the API). Every table is a tenant table.
CREATE TABLE "appointment_settings" (
	"company_id" uuid NOT NULL,
	"default_duration_minutes" integer DEFAULT 60 NOT NULL,
	"slot_interval_minutes" integer DEFAULT 30 NOT NULL,
	"buffer_minutes" integer DEFAULT 0 NOT NULL,
	"minimum_notice_minutes" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "appointment_settings_company_id_pk" PRIMARY KEY("company_id"),
	CONSTRAINT "appointment_settings_duration" CHECK ("appointment_settings"."default_duration_minutes" between 1 and 10080),
	CONSTRAINT "appointment_settings_interval" CHECK ("appointment_settings"."slot_interval_minutes" between 5 and 1440),
	CONSTRAINT "appointment_settings_buffer" CHECK ("appointment_settings"."buffer_minutes" between 0 and 1440),
	CONSTRAINT "appointment_settings_notice" CHECK ("appointment_settings"."minimum_notice_minutes" between 0 and 525600)
);
--> statement-breakpoint
CREATE TABLE "appointment_types" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"duration_minutes" integer NOT NULL,
	"color" text,
	"location" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "appointment_types_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "appointment_types_duration" CHECK ("appointment_types"."duration_minutes" between 1 and 10080)
);
--> statement-breakpoint
CREATE TABLE "appointment_working_hours" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" bigint,
	"weekday" smallint NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	CONSTRAINT "appointment_working_hours_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "appointment_working_hours_weekday" CHECK ("appointment_working_hours"."weekday" between 1 and 7),
	CONSTRAINT "appointment_working_hours_range" CHECK (0 <= "appointment_working_hours"."start_minute" and "appointment_working_hours"."start_minute" < "appointment_working_hours"."end_minute" and "appointment_working_hours"."end_minute" <= 1440)
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"all_day" boolean DEFAULT false NOT NULL,
	"location" text,
	"customer_id" uuid NOT NULL,
	"user_id" bigint,
	"appointment_type_id" uuid,
	"deal_id" uuid,
	"quote_id" uuid,
	"invoice_id" uuid,
	"notes" text,
	"cancellation_reason" text,
	"confirmed_at" timestamp (3) with time zone,
	"cancelled_at" timestamp (3) with time zone,
	"rescheduled_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "appointments_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "appointments_times" CHECK (("appointments"."starts_at" is null) = ("appointments"."ends_at" is null) and "appointments"."ends_at" > "appointments"."starts_at"),
	CONSTRAINT "appointments_invitation" CHECK ("appointments"."starts_at" is not null or ("appointments"."status" in ('pending', 'cancelled') and not "appointments"."all_day")),
	CONSTRAINT "appointments_confirmed_at" CHECK ("appointments"."status" <> 'confirmed' or "appointments"."confirmed_at" is not null),
	CONSTRAINT "appointments_cancelled_at" CHECK (("appointments"."status" = 'cancelled') = ("appointments"."cancelled_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "appointment_settings" ADD CONSTRAINT "appointment_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_types" ADD CONSTRAINT "appointment_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_working_hours" ADD CONSTRAINT "appointment_working_hours_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_working_hours" ADD CONSTRAINT "appointment_working_hours_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_company_id_appointment_type_id_appointment_types_company_id_id_fk" FOREIGN KEY ("company_id","appointment_type_id") REFERENCES "public"."appointment_types"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_company_id_deal_id_deals_company_id_id_fk" FOREIGN KEY ("company_id","deal_id") REFERENCES "public"."deals"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_types_name" ON "appointment_types" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "appointment_types_created" ON "appointment_types" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "appointment_working_hours_user" ON "appointment_working_hours" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "appointments_created" ON "appointments" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "appointments_updated" ON "appointments" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "appointments_starts" ON "appointments" USING btree ("company_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "appointments_customer" ON "appointments" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "appointments_occupying" ON "appointments" USING btree ("company_id","user_id","starts_at") WHERE "appointments"."status" in ('pending', 'confirmed') and "appointments"."starts_at" is not null;--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql).
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['appointment_settings', 'appointment_working_hours', 'appointment_types', 'appointments']::regclass[]) AS t;
