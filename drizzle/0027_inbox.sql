-- The inbox (issue 24): conversations over web chat, WhatsApp and email with their messages, and each company's
-- channel settings. conversations and conversation_messages are tenant tables like every other; channel_settings
-- is read by the public inbound endpoints before a tenant is known (a WhatsApp number, a widget id, an inbound
-- secret name the company), so, like companies, its row-level security is enabled but not forced.
CREATE TABLE "channel_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"widget_id" text NOT NULL,
	"inbound_email_secret_hash" text,
	"whatsapp_phone_number_id" text,
	"whatsapp_api_base_url" text,
	"whatsapp_access_token" text,
	"whatsapp_app_secret" text,
	"whatsapp_verify_token" text,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_messages" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"sender" text NOT NULL,
	"user_id" bigint,
	"body" text NOT NULL,
	"email_subject" text,
	"attachment_name" text,
	"attachment_mime_type" text,
	"attachment_size" integer,
	"whatsapp_status" text,
	"whatsapp_message_id" text,
	"email_message_id" text,
	"outbound_email_id" text,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	CONSTRAINT "conversation_messages_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"company_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"subject" text,
	"summary" text,
	"page_url" text,
	"assigned_user_id" bigint,
	"quote_id" uuid,
	"invoice_id" uuid,
	"appointment_id" uuid,
	"ai_agent_active" boolean DEFAULT true NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp (3) with time zone,
	"last_message_sort" timestamp (3) with time zone GENERATED ALWAYS AS (coalesce(last_message_at, '0001-01-01T00:00:00Z'::timestamptz)) STORED NOT NULL,
	"last_customer_message_at" timestamp (3) with time zone,
	"closed_at" timestamp (3) with time zone,
	"contact_address" text,
	"visitor_token_hash" text,
	"created_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT app_now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "conversations_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "conversations_closed_at" CHECK (("conversations"."status" = 'closed') = ("conversations"."closed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "channel_settings" ADD CONSTRAINT "channel_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_company_id_conversation_id_conversations_company_id_id_fk" FOREIGN KEY ("company_id","conversation_id") REFERENCES "public"."conversations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_company_id_customer_id_customers_company_id_id_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_company_id_assigned_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","assigned_user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_settings_widget" ON "channel_settings" USING btree ("widget_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_settings_inbound_secret" ON "channel_settings" USING btree ("inbound_email_secret_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_settings_whatsapp" ON "channel_settings" USING btree ("whatsapp_phone_number_id");--> statement-breakpoint
CREATE INDEX "conversation_messages_conversation" ON "conversation_messages" USING btree ("company_id","conversation_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_messages_whatsapp" ON "conversation_messages" USING btree ("company_id","whatsapp_message_id");--> statement-breakpoint
CREATE INDEX "conversation_messages_email" ON "conversation_messages" USING btree ("company_id","email_message_id");--> statement-breakpoint
CREATE INDEX "conversations_last_message" ON "conversations" USING btree ("company_id","last_message_sort","id");--> statement-breakpoint
CREATE INDEX "conversations_created" ON "conversations" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversations_updated" ON "conversations" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "conversations_customer" ON "conversations" USING btree ("company_id","customer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversations_contact" ON "conversations" USING btree ("company_id","channel","contact_address");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_visitor" ON "conversations" USING btree ("company_id","visitor_token_hash");--> statement-breakpoint
-- Tenant tables (0001_tenancy.sql).
SELECT app_enable_tenancy(t) FROM unnest(ARRAY['conversations', 'conversation_messages', 'channel_settings']::regclass[]) AS t;--> statement-breakpoint
ALTER TABLE channel_settings NO FORCE ROW LEVEL SECURITY;
